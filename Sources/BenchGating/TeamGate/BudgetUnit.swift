import BenchMeasuring
import BenchReporting
import ProcessMetrics

/// The unit a budget's figure is in, to print a figure, the room left under its limit and a
/// growth rate the same way.
public enum BudgetUnit: String, Sendable, Equatable {
  case bytes, seconds, milliseconds, kilobytes, count, percent, plain

  /// `value` in this unit: `3.1 MiB`, `2.50 s`, `12`, `21.1%`.
  public func format(_ value: Double) -> String {
    switch self {
    case .bytes: ByteCount.format(Int(value.rounded()))
    case .seconds: String(format: "%.2f s", value)
    case .milliseconds: String(format: "%.1f ms", value)
    case .kilobytes: String(format: "%.1f KB", value)
    case .count: String(Int(value.rounded()))
    case .percent: String(format: "%.1f%%", value)
    case .plain: String(format: "%.1f", value)
    }
  }

  /// A change of `value`, with its sign: `+0.4 MiB`, `−12`.
  public func formatChange(_ value: Double) -> String {
    (value < 0 ? "−" : "+") + format(abs(value))
  }
}
