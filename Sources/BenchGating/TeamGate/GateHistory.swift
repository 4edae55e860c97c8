import BenchMeasuring
import BenchReporting

/// The gate's figures across a repository's main commits, kept in a ``/BenchReporting/BenchHistory`` (its
/// SQLite file, on a branch or in an artifact: the Gating article says how): each budget's
/// figure at each commit, under the strategy `gate:DATA`, with the commit's time. The report
/// reads it for each budget's time to the limit; `calldir gate --record-history` adds the head.
public enum GateHistory {
  /// The history's strategy for a container's figures: `gate:directory`.
  public static func strategy(data: String) -> String { "gate:" + data }

  /// The commit a figure was measured at.
  public struct Head: Sendable, Equatable {
    public var sha: String
    public var parent: String
    public var branch: String
    public var subject: String
    /// Commit time, seconds since 1970.
    public var time: Double

    public init(sha: String, parent: String, branch: String, subject: String, time: Double) {
      (self.sha, self.parent, self.branch, self.subject, self.time) =
        (sha, parent, branch, subject, time)
    }
  }

  /// Fits each budget's trend over the history's last `window` commits of `data` (this run's
  /// figure at `head` in place of a record of the same commit), into `result.trends`; sets
  /// `result.historyNote` when no budget has enough points.
  /// - Throws: ``/BenchMeasuring/BenchError`` when the history cannot be read.
  public static func apply(
    _ history: BenchHistory, data: String, head: Head, window: Int = BudgetTrend.defaultWindow,
    to result: inout TeamGateResult
  ) throws(BenchError) {
    let strategy = strategy(data: data)
    let series = try history.series().filter { $0.strategy == strategy }
    var commits = 0
    for check in result.budgetChecks {
      let past = (series.first { $0.metric == check.seriesName }?.points ?? [])
        .filter { $0.commit.sha != head.sha }
        .compactMap { point in point.commit.time.map { (time: $0, value: point.figure.median) } }
      let points = Array((past + [(time: head.time, value: check.value)]).suffix(window))
      commits = max(commits, points.count)
      if let trend = BudgetTrend.fit(points, limit: check.limit) {
        result.trends[check.seriesName] = trend
      }
    }
    if result.trends.isEmpty {
      result.historyNote =
        "Time to the limit: no trend yet. The history holds \(commits - 1) earlier commit\(commits == 2 ? "" : "s") of this data with a commit time; a line needs \(BudgetTrend.minimumPoints) points over a day at least."
    }
  }

  /// Records this run's figures as `head`'s (a commit already there has its figures replaced).
  /// - Throws: ``/BenchMeasuring/BenchError`` when the history cannot be written; it is then as it was.
  public static func record(
    _ result: TeamGateResult, data: String, head: Head, in history: BenchHistory
  ) throws(BenchError) {
    let figures = result.budgetChecks.map {
      HistoryFigure(
        metric: $0.seriesName, strategy: strategy(data: data), median: $0.value, low: $0.value,
        high: $0.value, runs: 1, isDeterministic: true)
    }
    try history.add(
      sha: head.sha, parent: head.parent, branch: head.branch, subject: head.subject,
      environment: "calldir gate", time: head.time, figures: figures)
  }
}
