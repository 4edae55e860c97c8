import Foundation
import TestSupport
import Testing

@testable import BenchMeasuring
@testable import BenchReporting

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
    // Named without the content hash, so a region stays one series as its data changes.
    let series = BaseSeriesName.of(fileName: region)
    #expect(series.hasPrefix("region-RU-MOW") && series.hasSuffix(".cdb") && series != region)
    #expect(run.stdout.contains("\(series): 2 entries"), "\(run.stdout)")
    let records = try RunRecord.records(fromCSV: String(contentsOfFile: csv, encoding: .utf8))
    let loads = records.filter { $0.run == .load }
    #expect(Set(loads.map(\.strategy)) == ["mmap", "buffered"])
    #expect(loads.allSatisfy { $0.entries == 2 && $0.baseVersion == 3 && $0.status == .ok })
    // The rows name the base, not the default profile.
    #expect(records.allSatisfy { $0.profile == "base:" + series }, "\(records.map(\.profile))")
    #expect(records.filter { $0.run == .idle }.allSatisfy { $0.entries == 0 })
    // The articles' readers cannot read a base: named, they are a usage error.
    let refused = try runProcess(
      calldir,
      ["bench", "--base", folder.path("box/bases/" + region), "--strategies", "baseline-2gis"])
    #expect(refused.status == 1 && refused.stderr.contains("--base benches calldir's strategies"))
  }

  @Test(arguments: [
    ("region-RU-MOW.889544c2c4fd7130.cdb", "region-RU-MOW.cdb"),
    ("seed.0123456789abcdef.cdb", "seed.cdb"),
    ("mine.cdb", "mine.cdb"),
    ("a.b.cdb", "a.b.cdb"),
    (".0123456789abcdef.cdb", ".0123456789abcdef.cdb"),
    ("x.0123456789abcdeg.cdb", "x.0123456789abcdeg.cdb"),
    ("entries.v3.cdb", "entries.v3.cdb"),
    ("notes.txt", "notes.txt"),
  ])
  func aBaseIsRecordedWithoutItsContentHash(file: String, series: String) {
    #expect(BaseSeriesName.of(fileName: file) == series)
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
