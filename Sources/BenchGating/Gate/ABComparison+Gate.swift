import BenchMeasuring
import BenchReporting
import Foundation

extension ABComparison {
  /// The A/B gate: load time only when the whole 95% interval lies beyond
  /// `maximumRegression` (a fraction), so noise alone does not fail a build; instructions per
  /// entry past `maximumCountRegression` (they repeat to 0.002%); allocations whenever they rise.
  public func evaluate(
    maximumRegression: Double,
    maximumCountRegression: Double = BenchBaseline.defaultMaximumCountRegression
  ) -> GateVerdict {
    var failures: [String] = []
    for row in rows {
      if let time = row.timeRatio, time.low > 1 + maximumRegression {
        failures.append(
          String(
            format:
              "%@: load time B/A %.3f, its 95%% interval [%.3f, %.3f] wholly above %.3f",
            row.strategy, time.ratio, time.low, time.high, 1 + maximumRegression))
      }
      if let counts = row.instructions, counts.a > 0,
        counts.b / counts.a > 1 + maximumCountRegression
      {
        failures.append(
          String(
            format: "%@: instructions per entry %.1f (B) against %.1f (A), +%.2f%%", row.strategy,
            counts.b, counts.a, (counts.b / counts.a - 1) * 100))
      }
      if let counts = row.allocations, counts.b > counts.a + 0.001 {
        failures.append(
          String(
            format: "%@: allocations per entry %.4f (B) against %.4f (A)", row.strategy, counts.b,
            counts.a))
      }
    }
    return GateVerdict(failures: failures)
  }
}
