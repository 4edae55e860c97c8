import Foundation
import TestSupport
import Testing

@testable import BenchHarness

/// `--base FILE`: a base a team compiled, benched as it is.
@Suite("Benching a compiled base")
struct CompiledBaseBenchTests {
  @Test func aCompiledBaseIsBenchedByCalldirsStrategiesWithItsVersion() throws {
    let folder = try TemporaryFolder()
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Datasets/samples/sample.tsv").path
    let calldir = try builtExecutable("calldir")
    #expect(try runProcess(calldir, ["compile", samples, "--out", folder.path("box")]).status == 0)
    let bases = try FileManager.default.contentsOfDirectory(atPath: folder.path("box/bases"))
    let region = try #require(bases.first { $0.hasPrefix("region-RU-MOW") })
    let csv = folder.path("base.csv")
    let run = try runProcess(
      calldir,
      [
        "bench", "--base", folder.path("box/bases/" + region), "--repeat", "2",
        "--instructions", "off", "--out", csv, "--quiet",
      ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("\(region): 2 entries"), "\(run.stdout)")
    let records = try RunRecord.records(fromCSV: String(contentsOfFile: csv, encoding: .utf8))
    let loads = records.filter { $0.run == .load }
    #expect(Set(loads.map(\.strategy)) == ["mmap", "buffered"])
    #expect(loads.allSatisfy { $0.entries == 2 && $0.baseVersion == 3 && $0.status == .ok })
    // The rows name the base, not the default profile.
    #expect(records.allSatisfy { $0.profile == "base:" + region }, "\(records.map(\.profile))")
    #expect(records.filter { $0.run == .idle }.allSatisfy { $0.entries == 0 })
    // The articles' readers cannot read a base: named, they are a usage error.
    let refused = try runProcess(
      calldir,
      ["bench", "--base", folder.path("box/bases/" + region), "--strategies", "baseline-2gis"])
    #expect(refused.status == 1 && refused.stderr.contains("--base benches calldir's strategies"))
  }

  @Test func aBlockingRunSaysItsRatiosCompareUnlikeWork() throws {
    let folder = try TemporaryFolder()
    let run = try runProcess(
      try builtExecutable("calldir"),
      [
        "bench", "--profile", "ci-smoke", "--kind", "blocking", "--entries", "3000",
        "--strategies", "mmap,baseline-2gis", "--repeat", "1", "--instructions", "off", "--cache",
        folder.path("cache"), "--out", folder.path("b.csv"), "--quiet",
      ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("parse labels (unlike work)"), "\(run.stdout)")
    let svg = try String(contentsOfFile: folder.path("b.svg"), encoding: .utf8)
    #expect(svg.contains("(unlike work)"))
  }
}
