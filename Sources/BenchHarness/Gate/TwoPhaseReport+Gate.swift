import Foundation
import ProcessMetrics

extension TwoPhaseReport {
  /// One line per failed check: every phase completed, footprint under the limit, median time
  /// to enabled under `maximumTimeToEnabled` — here, and on the device when the run projected
  /// one (`--device`): a phone that would take longer fails as this machine would.
  public static func evaluate(_ records: [RunRecord], maximumTimeToEnabled: Double) -> GateVerdict {
    var failures: [String] = []
    for run in records where run.status != .ok {
      failures.append(
        "repeat \(run.repeatIndex) \(run.phase): \(run.status.rawValue) (\(run.detail))")
    }
    for run in records where run.footprintPeakBytes > run.memoryLimitBytes {
      failures.append(
        "repeat \(run.repeatIndex) \(run.phase): footprint \(ByteCount.format(run.footprintPeakBytes)) is over the memory limit \(ByteCount.format(run.memoryLimitBytes))"
      )
    }
    if let enabled = Statistics.median(records.compactMap(\.timeToEnabledSeconds).map { $0 }),
      enabled > maximumTimeToEnabled
    {
      failures.append(
        String(
          format: "time to enabled: median %.3f s is over %.3f s", enabled, maximumTimeToEnabled))
    }
    if let projected = Statistics.median(records.compactMap(\.deviceTimeToEnabledSeconds)),
      projected > maximumTimeToEnabled
    {
      let device = records.first { !$0.device.isEmpty }?.device ?? "the device"
      failures.append(
        String(
          format: "time to enabled projected on %@: median %.3f s is over %.3f s", device,
          projected, maximumTimeToEnabled))
    }
    return GateVerdict(failures: failures)
  }
}
