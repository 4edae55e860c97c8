import BenchMeasuring
import BenchReporting
import Foundation
import ProcessMetrics

extension TwoPhaseReport {
  /// One line per failed check: every phase completed, footprint under the limit, median time
  /// to enabled under `maximumTimeToEnabled` on the device when the run projected one
  /// (`--device`, from counts: it does not move with this machine's load), and on this
  /// machine's wall clock only when `gatesWallClock` (asked for on purpose: six busy loops on
  /// two cores took ci-smoke's from 0.12 s to 0.71 s, against a 1 s bar).
  /// - Parameters:
  ///   - records: the run's rows.
  ///   - maximumTimeToEnabled: the bar on the median time to enabled, seconds.
  ///   - gatesWallClock: whether this machine's wall-clock time to enabled is gated too.
  ///   - maximumFootprintGrowth: when the run swept several region counts, the most the
  ///     incremental update's median footprint may grow from the fewest regions to the most,
  ///     in bytes.
  public static func evaluate(
    _ records: [RunRecord], maximumTimeToEnabled: Double, gatesWallClock: Bool = true,
    maximumFootprintGrowth: Int = defaultMaximumFootprintGrowth
  ) -> GateVerdict {
    var failures: [String] = []
    if let growth = incrementalFootprintGrowth(records), growth.bytes > maximumFootprintGrowth {
      failures.append(
        "incremental footprint: lowest of the repeats \(ByteCount.format(growth.fewest)) at \(growth.regions.lowerBound) regions, \(ByteCount.format(growth.most)) at \(growth.regions.upperBound): grows \(growth.bytes / 1024) KiB, over \(maximumFootprintGrowth / 1024) KiB"
      )
    }
    for run in records where run.status != .ok {
      failures.append(
        "repeat \(run.repeatIndex) \(run.phase): \(run.status.rawValue) (\(run.detail))")
    }
    for run in records where run.footprintPeakBytes > run.memoryLimitBytes {
      failures.append(
        "repeat \(run.repeatIndex) \(run.phase): footprint \(ByteCount.format(run.footprintPeakBytes)) is over the memory limit \(ByteCount.format(run.memoryLimitBytes))"
      )
    }
    if gatesWallClock,
      let enabled = Statistics.median(records.compactMap(\.timeToEnabledSeconds).map { $0 }),
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

  /// The bound ``evaluate(_:maximumTimeToEnabled:gatesWallClock:maximumFootprintGrowth:)`` holds the
  /// incremental footprint's growth to by default: 384 KiB from 3 to 300 regions, "flat" as
  /// issue 30 asks, under a thirteenth of iOS's 5 MiB limit. A quiet run grows 168–172 KiB; six
  /// busy loops and three other benches on two cores raised the lowest repeat's growth to 288 KiB
  /// once in 50 A/A runs (the old 256 KiB bar failed it); the regressions this check was made for
  /// grew 828–896 KiB, and a cost per region of 1.3 KiB over 297 regions still fails it.
  public static let defaultMaximumFootprintGrowth = 384 * 1024

  /// The incremental update's lowest footprint over the repeats at the fewest and the most
  /// regions the records sweep (their `two-phase-rN` strategies, one extension each), and the
  /// growth between them in bytes; nil unless they sweep two region counts or more.
  ///
  /// The lowest, not the median: the peak moves with the scheduler (how the SHA-256 thread's
  /// buffers overlap the loader's). With six busy loops and three other benches on two cores,
  /// the median at 300 regions rose by up to 120 KiB over a quiet run's and failed 2 A/A runs in
  /// 50 (`Scripts/false-alarms.sh`); a growth the code causes raises every repeat, the lowest
  /// included.
  public static func incrementalFootprintGrowth(_ records: [RunRecord]) -> (
    regions: ClosedRange<Int>, fewest: Int, most: Int, bytes: Int
  )? {
    var footprints: [Int: [Int]] = [:]
    for run in records where run.phase == "incremental" && run.status == .ok {
      guard let regions = Int(run.strategy.dropFirst("two-phase-r".count)),
        run.strategy.hasPrefix("two-phase-r")
      else { continue }
      footprints[regions, default: []].append(run.footprintPeakBytes)
    }
    guard let fewest = footprints.keys.min(), let most = footprints.keys.max(), fewest < most,
      let low = footprints[fewest]!.min(), let high = footprints[most]!.min()
    else { return nil }
    return (fewest...most, low, high, high - low)
  }
}
