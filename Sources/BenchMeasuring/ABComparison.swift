import Foundation

/// Two builds measured in one interleaved run (`--against`): per calldir strategy, this build
/// (B) against the other (A) on load time, with a 95% interval and a p-value, and on the
/// deterministic figures, compared exactly.
public struct ABComparison: Sendable {
  /// The rise the A/B gate tolerates by default: 2%, the load time's whole interval past it fails.
  public static let defaultMaximumRegression = 0.02

  /// One strategy's comparison.
  public struct Row: Sendable {
    public let strategy: String
    /// Completed load runs of A and of B.
    public let runs: (a: Int, b: Int)
    /// Median load time of B over A's (above 1: B is slower), with its 95% bootstrap interval.
    public let timeRatio: (ratio: Double, low: Double, high: Double)?
    /// Mann–Whitney U two-sided p-value of the load times.
    public let p: Double?
    /// Instructions per entry of A and B, when counted.
    public let instructions: (a: Double, b: Double)?
    /// Allocations per entry of A and B (medians), with jemalloc.
    public let allocations: (a: Double, b: Double)?
  }

  public let rows: [Row]

  /// Compares the `A` and `B` load rows of each strategy in `records`.
  public init(_ records: [RunRecord]) {
    var rows: [Row] = []
    var order: [String] = []
    for record in records where record.build == "B" && !order.contains(record.strategy) {
      order.append(record.strategy)
    }
    for strategy in order {
      func loads(_ build: String) -> [RunRecord] {
        records.filter {
          $0.strategy == strategy && $0.build == build && $0.run == .load && $0.status == .ok
        }
      }
      let (a, b) = (loads("A"), loads("B"))
      let instructionsA = a.compactMap(\.instructionsPerEntry).first
      let instructionsB = b.compactMap(\.instructionsPerEntry).first
      let allocationsA = Statistics.median(a.compactMap(\.allocationsPerEntry))
      let allocationsB = Statistics.median(b.compactMap(\.allocationsPerEntry))
      rows.append(
        Row(
          strategy: strategy, runs: (a.count, b.count),
          timeRatio: TwoSampleStatistics.medianRatio(a.map(\.loadSeconds), b.map(\.loadSeconds)),
          p: TwoSampleStatistics.mannWhitneyP(a.map(\.loadSeconds), b.map(\.loadSeconds)),
          instructions: instructionsA.flatMap { x in instructionsB.map { (x, $0) } },
          allocations: allocationsA.flatMap { x in allocationsB.map { (x, $0) } }))
    }
    self.rows = rows
  }

  /// The table: one row per strategy.
  public func render(against: String) -> String {
    var lines = [
      "A/B: A = \(against), B = this build; load time B/A (above 1: B slower), 95% bootstrap interval, Mann–Whitney p",
      "",
    ]
    let header = ["strategy", "runs A/B", "time B/A", "95% interval", "p", "instr/entry A → B"]
    var table: [[String]] = []
    for row in rows {
      table.append([
        row.strategy, "\(row.runs.a)/\(row.runs.b)",
        row.timeRatio.map { String(format: "%.3f", $0.ratio) } ?? "–",
        row.timeRatio.map { String(format: "[%.3f, %.3f]", $0.low, $0.high) } ?? "–",
        row.p.map { String(format: "%.3f", $0) } ?? "–",
        row.instructions.map {
          String(format: "%.1f → %.1f (%+.3f%%)", $0.a, $0.b, ($0.b / $0.a - 1) * 100)
        } ?? "–",
      ])
    }
    lines += BenchReport.table(header: header, rows: table)
    return lines.joined(separator: "\n") + "\n"
  }
}
