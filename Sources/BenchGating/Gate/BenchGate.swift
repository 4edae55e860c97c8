import BenchMeasuring
import BenchReporting
import ProcessMetrics

/// The CI gate: floors and same-run comparisons, never this machine's best, so a noisy run does
/// not fail a healthy build while a real regression does.
///
/// Every non-baseline strategy must (a) complete every run, (b) stay under the memory limit and
/// the RSS-over-idle budget in every run, (c) reach the throughput floor (median) and at least the
/// median throughput of every baseline measured in the same run, (d) start within the startup
/// ceiling: the median CPU time the process used from `exec` to its load's start, which does not
/// grow while the process waits for a core (the wall-clock startup, spawn to load start, is
/// reported beside it, never gated: on a busy runner it went from 3 to 25 ms for one build).
public struct BenchGate: Sendable {
  /// The RSS-over-idle budget, in bytes.
  public var rssBudgetBytes: Int
  /// The median throughput floor, in entries per second.
  public var minimumEntriesPerSecond: Double
  /// The ceiling on median startup CPU time (exec → load start), seconds; nil for none.
  public var maximumStartupSeconds: Double?

  /// Creates a gate.
  public init(
    rssBudgetBytes: Int, minimumEntriesPerSecond: Double, maximumStartupSeconds: Double? = nil
  ) {
    self.rssBudgetBytes = rssBudgetBytes
    self.minimumEntriesPerSecond = minimumEntriesPerSecond
    self.maximumStartupSeconds = maximumStartupSeconds
  }

  /// The strategies' checks: one failure per failed check; passed when there are none.
  public func evaluate(_ summaries: [StrategySummary]) -> GateVerdict {
    var failures: [String] = []
    let baselines = summaries.filter(\.isBaseline)
    let gated = summaries.filter { !$0.isBaseline }
    if gated.isEmpty { failures.append("gate: no calldir strategy was measured") }
    for summary in gated {
      let name = summary.strategy
      if summary.completedCount < summary.runCount || summary.runCount == 0 {
        failures.append(
          "\(name): \(summary.completedCount) of \(summary.runCount) runs completed (\(summary.failures.joined(separator: ", ")))"
        )
      }
      if let footprint = summary.maximumFootprintBytes, footprint > summary.memoryLimitBytes {
        failures.append(
          "\(name): footprint peak \(ByteCount.format(footprint)) is over the memory limit \(ByteCount.format(summary.memoryLimitBytes))"
        )
      }
      if summary.allocators.count > 1 {
        failures.append(
          "\(name): runs on different allocators (\(summary.allocators.joined(separator: ", "))): RSS over idle compares only runs on one allocator; rerun with --allocator"
        )
      } else if let overIdle = summary.maximumRSSOverIdleBytes, overIdle > rssBudgetBytes {
        failures.append(
          "\(name): RSS over idle \(ByteCount.format(overIdle)) is over the budget \(ByteCount.format(rssBudgetBytes))"
        )
      }
      if let ceiling = maximumStartupSeconds, let startup = summary.medianStartupCPUSeconds,
        startup > ceiling
      {
        failures.append(
          String(
            format: "%@: median startup %.1f ms of CPU (exec to load start) is over %.1f ms",
            name, startup * 1000, ceiling * 1000))
      }
      guard let rate = summary.medianEntriesPerSecond else {
        failures.append("\(name): no completed run to measure throughput")
        continue
      }
      if rate < minimumEntriesPerSecond {
        failures.append(
          "\(name): median \(CountText.rate(rate)) entries/s is under the floor \(CountText.rate(minimumEntriesPerSecond))"
        )
      }
      for baseline in baselines {
        guard let theirs = baseline.medianEntriesPerSecond else { continue }
        if rate < theirs {
          failures.append(
            "\(name): median \(CountText.rate(rate)) entries/s is slower than \(baseline.strategy) (\(CountText.rate(theirs)))"
          )
        }
      }
    }
    return GateVerdict(failures: failures)
  }
}
