import BenchMeasuring
import BenchReporting
import Foundation

extension SweepAnalysis {
  /// The sweep's gate: a calldir strategy whose memory grows with N or whose time grows faster
  /// than linearly.
  public func evaluate() -> GateVerdict {
    var failures: [String] = []
    for row in rows where !row.isBaseline {
      for (what, value) in [("footprint", row.footprint), ("heap peak", row.heapPeak)] {
        if let value, value > Self.flatMemoryExponent {
          failures.append(
            String(
              format: "%@: %@ grows as N^%.3f over the sweep (flat is at most N^%.2f)",
              row.strategy, what, value, Self.flatMemoryExponent))
        }
      }
      if let time = row.loadTime, time > Self.linearTimeExponent {
        failures.append(
          String(
            format: "%@: load time grows as N^%.3f (at most N^%.1f)", row.strategy, time,
            Self.linearTimeExponent))
      }
    }
    return GateVerdict(failures: failures)
  }
}
