import Datasets
import Foundation
import TestSupport
import Testing

@testable import BenchMeasuring
@testable import BenchReporting

/// The CI history (issue 29): per-commit summaries in SQLite, bounded by prune, and a report
/// that stays small as it grows.
@Suite("Bench history: SQLite summaries, prune, report")
struct HistoryTests {
  static func commit(_ number: Int) -> String { String(format: "%040x", number) }

  /// A history of `count` commits with `strategies` × `metrics` series, values from `value`.
  static func history(
    at path: String, commits count: Int, strategies: [String] = ["mmap", "buffered"],
    metrics: [(String, Bool)] = [("load_s", false), ("instructions_per_entry", true)],
    environment: (Int) -> String = { _ in "env" },
    value: (_ commit: Int, _ metric: String, _ strategy: String) -> Double
  ) throws -> BenchHistory {
    let history = try BenchHistory(path: path)
    for number in 1...count {
      let figures = strategies.flatMap { strategy in
        metrics.map { metric, deterministic in
          let median = value(number, metric, strategy)
          return HistoryFigure(
            metric: metric, strategy: strategy, median: median, low: median * 0.99,
            high: median * 1.01, runs: 5, isDeterministic: deterministic)
        }
      }
      try history.add(
        sha: commit(number), parent: number > 1 ? commit(number - 1) : "", branch: "main",
        subject: "commit <\(number)> & \"more\"", environment: environment(number),
        figures: figures)
    }
    return history
  }

  @Test func aCommitIsKeptAsSummariesAndARerunReplacesItsFiguresInPlace() throws {
    let folder = try TemporaryFolder()
    let history = try Self.history(at: folder.path("h.sqlite"), commits: 4) { commit, _, _ in
      Double(commit)
    }
    try history.add(
      sha: Self.commit(2), parent: Self.commit(1), branch: "main", subject: "rerun",
      environment: "env",
      figures: [
        HistoryFigure(
          metric: "load_s", strategy: "mmap", median: 9, low: 8, high: 10, runs: 3,
          isDeterministic: false)
      ])
    let commits = try history.commits()
    #expect(commits.map(\.position) == [1, 2, 3, 4])
    #expect(commits[1].subject == "rerun")
    let load = try #require(
      try history.series().first { $0.metric == "load_s" && $0.strategy == "mmap" })
    #expect(load.points.map(\.figure.median) == [1, 9, 3, 4])
    // The rerun's other figures are gone: only what it measured.
    let buffered = try #require(
      try history.series().first { $0.metric == "load_s" && $0.strategy == "buffered" })
    #expect(buffered.points.count == 3)
  }

  @Test func pruneKeepsTheNewestCommitsAndShrinksTheFile() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("h.sqlite")
    let history = try Self.history(at: path, commits: 300) { commit, _, _ in Double(commit) }
    let before = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
    #expect(try history.prune(keepingLast: 50) == 250)
    let commits = try history.commits()
    #expect(commits.count == 50)
    #expect(commits.first?.sha == Self.commit(251))
    #expect(try history.series().allSatisfy { $0.points.count == 50 })
    let after = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
    #expect(after < before / 2)
    #expect(try history.prune(keepingLast: 50) == 0)
  }

  @Test func aBenchRunsCSVBecomesItsStrategiesFigures() throws {
    var records: [RunRecord] = []
    for (index, load) in [0.010, 0.012, 0.011].enumerated() {
      var record = RunRecord()
      record.strategy = "mmap"
      record.repeatIndex = index + 1
      record.loadSeconds = load
      record.entries = 1000
      record.footprintPeakBytes = 1_000_000 + index
      record.instructionsPerEntry = 670.25
      records.append(record)
    }
    var idle = RunRecord()
    idle.strategy = "mmap"
    idle.run = .idle
    idle.loadSeconds = 5
    records.append(idle)
    let parsed = try RunRecord.records(fromCSV: RunRecord.csv(records))
    let figures = HistoryFigure.summarise(parsed)
    let load = try #require(figures.first { $0.metric == "load_s" })
    #expect(load.median == 0.011 && load.low == 0.010 && load.high == 0.012 && load.runs == 3)
    #expect(!load.isDeterministic)
    let instructions = try #require(figures.first { $0.metric == "instructions_per_entry" })
    #expect(instructions.isDeterministic && abs(instructions.median - 670.25) < 0.01)
    #expect(figures.first { $0.metric == "heap_peak_bytes" } == nil)
  }

  @Test func theReportOf500CommitsAnd50SeriesStaysUnderOneMegabyte() throws {
    let folder = try TemporaryFolder()
    let strategies = (1...10).map { "strategy-\($0)" }
    let metrics = [
      ("load_s", false), ("footprint_bytes", false), ("heap_peak_bytes", false),
      ("instructions_per_entry", true), ("allocations_per_entry", true),
    ]
    var generator = SplitMix64(seed: 29)
    let history = try Self.history(
      at: folder.path("h.sqlite"), commits: 500, strategies: strategies, metrics: metrics
    ) { commit, metric, _ in
      let base = metric == "load_s" ? 0.006 : 1_000_000
      let step = commit > 250 ? 1.05 : 1.0
      return base * step
        * (metric.hasSuffix("entry") ? 1 : Double.random(in: 0.9...1.1, using: &generator))
    }
    let commits = try history.commits()
    let series = try history.series()
    #expect(series.count == 50)
    let changes = ChangePointDetector.changes(in: series, commits: commits)
    let html = HistoryReport.html(commits: commits, series: series, changes: changes)
    #expect(html.utf8.count <= 1_000_000, "\(html.utf8.count) bytes")
    // Self-contained: no script, no stylesheet or image fetched, text escaped.
    #expect(!html.contains("<script"))
    #expect(!html.contains("src=") && !html.contains("href="))
    #expect(html.contains("commit &lt;500&gt; &amp; &quot;more&quot;"))
    #expect(html.components(separatedBy: "<svg").count - 1 == 50)
  }
}
