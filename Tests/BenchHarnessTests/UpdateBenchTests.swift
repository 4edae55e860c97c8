import BenchHarness
import Datasets
import Foundation
import TestSupport
import Testing

/// `bench update` end to end on a small dump: every method measured, calldir's patches far
/// smaller than the full bases and than zstd's, above the lower bound, the incremental request
/// after the update timed, and the same bytes run to run (the churn and the bases are deterministic). Needs zstd and bsdiff (.ci/run installs).
@Suite("bench update: downloads and applies, by method")
struct UpdateBenchTests {
  @Test func everyMethodIsMeasuredAndCalldirsPatchIsTheSmallest() throws {
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
