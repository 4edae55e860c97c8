import BenchMeasuring
import BenchReporting
import Datasets
import Foundation
import TestSupport
import Testing

/// `bench update` end to end on a small dump: every method measured, calldir's patches far
/// smaller than the full bases and than zstd's, above the lower bound, the incremental request
/// after the update timed, and the same bytes run to run (the churn and the bases are deterministic). Needs zstd and bsdiff (.ci/run installs).
@Suite("bench update: downloads and applies, by method")
struct UpdateBenchTests {
  /// zstd and bsdiff are Debian packages, not Swift's: `swift test` on a machine with nothing
  /// but Swift skips this test (issue 39, item 15); `.ci/run` installs them.
  static let toolsInstalled = UpdateBench.missingTools().isEmpty

  @Test(.enabled(if: toolsInstalled, "needs zstd and bsdiff (apt-get install zstd bsdiff)"))
  func everyMethodIsMeasuredAndCalldirsPatchIsTheSmallest() throws {
    let folder = try TemporaryFolder()
    var parameters = try DatasetProfile.load("directory-4m").parameters
    parameters.entries = 30_000
    var configuration = UpdateBench.Configuration(
      profile: "directory-4m", parameters: parameters, churns: [0.05],
      calldir: try builtExecutable("calldir"), patcher: try builtExecutable("calldir-patch"),
      work: folder.path("work"))
    configuration.repeats = 1
    let rows = try UpdateBench(configuration: configuration).run()
    #expect(rows.map(\.method) == UpdateBench.methods)
    let bytes = Dictionary(uniqueKeysWithValues: rows.map { ($0.method, $0.downloadBytes) })
    let calldir = try #require(bytes["calldir"])
    #expect(calldir > 0 && calldir * 10 < (bytes["full"] ?? 0), "\(bytes)")
    #expect(calldir * 2 < (bytes["zstd"] ?? 0), "\(bytes)")
    let row = try #require(rows.first)
    #expect(row.changedBases > 0 && row.entriesChanged > 0)
    #expect(row.lowerBoundBytes > 0 && row.lowerBoundBytes <= calldir, "a bound, not a target")
    #expect(rows.filter { $0.method != "full" }.allSatisfy { $0.applySeconds > 0 })
    #expect(row.incrementalSeconds > 0, "the sync after the update was timed")
    let again = try UpdateBench(configuration: configuration).run()
    #expect(again.map(\.downloadBytes) == rows.map(\.downloadBytes), "deterministic")
    let csv = UpdateBench.csv(rows, configuration: configuration).encoded()
    #expect(csv.hasPrefix("profile,entries,churn,method,"))
  }
}

/// `calldir bench update`'s progress: `--progress json` writes one object per step on stderr,
/// the steps counted up to their whole (version 1, then per churn version 2, the applies and
/// the synced update); on a pipe the default writes none.
@Suite("bench update: progress")
struct UpdateBenchProgressTests {
  @Test(
    .enabled(
      if: UpdateBenchTests.toolsInstalled, "needs zstd and bsdiff (apt-get install zstd bsdiff)"))
  func progressIsOneJSONObjectPerStepAndNothingOnAPipe() throws {
    let folder = try TemporaryFolder()
    let arguments = [
      "bench", "update", "--profile", "directory-4m", "--entries", "20000", "--churn", "5%",
      "--repeat", "1",
    ]
    let calldir = try builtExecutable("calldir")
    let json = try runProcess(
      calldir, arguments + ["--out", folder.path("a.csv"), "--progress", "json"],
      directory: folder.url)
    #expect(json.status == 0, "\(json.stderr)")
    let objects = try ProgressLines.objects(json.stderr)
    #expect(objects.allSatisfy { $0["command"] as? String == "bench update" })
    #expect(ProgressLines.phaseOrder(objects) == ["measuring"], "\(objects)")
    let steps = objects.compactMap { $0["step"] as? String }
    #expect(steps.contains("compiling version 1"), "\(steps)")
    #expect(steps.contains { $0.hasSuffix("applying") }, "\(steps)")
    let done = objects.compactMap { $0["done"] as? Int }
    #expect(done == done.sorted(), "steps only count up: \(done)")
    #expect(objects.allSatisfy { $0["total"] as? Int == 4 && $0["unit"] as? String == "steps" })
    #expect(done.last == 4, "the last object is the whole: \(done)")
    #expect(done.contains(3), "the synced update's step began with three done: \(done)")
    let piped = try runProcess(
      calldir, arguments + ["--out", folder.path("b.csv")], directory: folder.url)
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(piped.stderr.isEmpty, "a pipe gets no progress: \(piped.stderr)")
    #expect(piped.stdout.contains("wrote \(folder.path("b.csv"))"))
  }
}

/// `bench update`'s arguments and tools are checked before anything is compiled.
@Suite("bench update: refused before it starts")
struct UpdateBenchRefusalTests {
  @Test(arguments: ["", ",", "5%,", "0%"])
  func aChurnThatMeasuresNothingIsAUsageError(churn: String) throws {
    let run = try runProcess(try builtExecutable("calldir"), ["bench", "update", "--churn", churn])
    #expect(run.status == 1, "'\(churn)': \(run.stdout)")
    #expect(run.stderr.contains("--churn"), "\(run.stderr)")
  }

  @Test func missingToolsAreNamedBeforeAnythingIsCompiled() throws {
    let folder = try TemporaryFolder()
    // A PATH with calldir's own folder only: zstd and bsdiff are not there.
    let run = try runProcess(
      "/usr/bin/env",
      [
        "PATH=" + folder.path("empty"), try builtExecutable("calldir"), "bench", "update",
        "--profile", "ci-smoke",
      ],
      directory: folder.url)
    #expect(run.status == 1)
    #expect(run.stderr.contains("needs zstd, bsdiff, bspatch"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path(".calldir")), "nothing compiled")
  }
}
