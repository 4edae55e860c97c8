import Foundation
import TestSupport
import Testing

@testable import BenchReporting

/// What a person reads in the history: an environment change is reported, not gated; the
/// trend charts print no raw exponent, keep the newest change's label inside, and show a
/// one-point series (issue 41, items 4 and 5).
@Suite("The history reads right and gates only like with like")
struct HistoryReadingTests {
  /// Ten commits whose allocation count steps 20% at the newest, in `environment`'s terms.
  func history(_ folder: TemporaryFolder, newestEnvironment: String) throws -> (
    [BenchHistory.Commit], [BenchHistory.Series]
  ) {
    let history = try HistoryTests.history(
      at: folder.path("h.sqlite"), commits: 10,
      metrics: [("allocations_per_entry", true), ("footprint_bytes", false)],
      environment: { $0 == 10 ? newestEnvironment : "toolchain 6.3; allocator jemalloc" },
      value: { commit, metric, _ in
        metric == "footprint_bytes" ? 1_942_000 : (commit == 10 ? 0.06 : 0.05)
      })
    return (try history.commits(), try history.series())
  }

  @Test func anEnvironmentChangeAtTheNewestCommitIsReportedNotGated() throws {
    let folder = try TemporaryFolder()
    let (commits, series) = try history(
      folder, newestEnvironment: "toolchain 6.3; allocator system")
    let changes = ChangePointDetector.changes(in: series, commits: commits)
    let gate = ChangePoint.gate(changes, newestCommit: commits.last?.sha)
    #expect(gate.failing.isEmpty, "\(gate.failing.map(\.line))")
    #expect(gate.reported.count == 2, "one per strategy: \(gate.reported.map(\.line))")
    // The same step in the same environment fails.
    let same = try TemporaryFolder()
    let (sameCommits, sameSeries) = try history(
      same, newestEnvironment: "toolchain 6.3; allocator jemalloc")
    let sameGate = ChangePoint.gate(
      ChangePointDetector.changes(in: sameSeries, commits: sameCommits),
      newestCommit: sameCommits.last?.sha)
    #expect(sameGate.failing.count == 2 && sameGate.reported.isEmpty)
  }

  @Test func trendChartsReadRight() throws {
    let folder = try TemporaryFolder()
    let (commits, series) = try history(
      folder, newestEnvironment: "toolchain 6.3; allocator jemalloc")
    let changes = ChangePointDetector.changes(in: series, commits: commits)
    let html = HistoryReport.html(commits: commits, series: series, changes: changes)
    #expect(!html.contains("e+") && !html.contains("e-0"), "no raw exponent")
    // The footprint (each commit's fastest repeat, 1,922,580 bytes) in the tables' binary units.
    #expect(html.contains(">1.8 MiB<") && !html.contains("1922580"))
    // The change at the newest commit: its label ends at its line, inside the chart.
    let newest = String(commits.last!.sha.prefix(7))
    let label = try #require(html.range(of: "text-anchor=\"end\" fill=\"#b00020\">\(newest)"))
    #expect(!label.isEmpty)
    // A series with one point: a marker and one label.
    let one = BenchHistory.Series(
      metric: "heap_peak_bytes", strategy: "mmap", isDeterministic: false,
      points: [series[0].points[0]].map { point in
        var kept = point
        kept.figure = HistoryFigure(
          metric: "heap_peak_bytes", strategy: "mmap", median: 839_680, low: 839_680,
          high: 839_680, runs: 5, isDeterministic: false)
        return kept
      })
    let svg = HistoryReport.trend(one, changes: [], commits: [commits[0]])
    #expect(svg.contains("<circle"))
    #expect(svg.components(separatedBy: "820 KiB").count - 1 == 1, "\(svg)")
    #expect(!svg.contains("839680"))
  }

  /// A change's "before → after" in its metric's unit, fine enough for a tenth of a percent:
  /// the committed report printed "1.167e+06 → 1.208e+06" and "9296.0 → 71648.0".
  @Test(arguments: [
    (1_167_000.0, "footprint_bytes", "1.113 MiB"),
    (1_208_000.0, "footprint_bytes", "1.152 MiB"),
    (9_296.0, "heap_peak_bytes", "9.1 KiB"),
    (0.007884, "load_s", "7.884 ms"),
    (2.5, "time_to_enabled_s", "2.500 s"),
    (669.9, "instructions_per_entry", "669.9"),
    (0.05357, "allocations_per_entry", "0.05357"),
  ])
  func aChangeReadsInItsMetricsUnit(value: Double, metric: String, expected: String) {
    #expect(BenchHistoryFormat.figure(value, metric: metric) == expected)
  }
}
