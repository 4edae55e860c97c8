import BenchMeasuring
import Foundation

/// The bench's figures in Bencher's Metric Format (BMF JSON, bencher.dev/docs/reference/bencher-metric-format):
/// `{ "<benchmark>": { "<measure>": { "value": …, "lower_value": …, "upper_value": … } } }`,
/// one benchmark per strategy. Bencher reads every measure from one file, where
/// github-action-benchmark's format needs a file per direction (``BenchmarkJSON``).
public enum BencherMetricFormat {
  /// One measure: the median, and the range of the runs when there is one.
  struct Metric: Encodable {
    let value: Double
    let lowerValue: Double?
    let upperValue: Double?

    enum CodingKeys: String, CodingKey {
      case value
      case lowerValue = "lower_value"
      case upperValue = "upper_value"
    }
  }

  /// The file's contents. Measures (Bencher's slugs): `throughput` (entries/s), `latency` (the
  /// load's seconds), `footprint-bytes`, `heap-peak-bytes`, `startup-cpu-seconds`,
  /// `instructions-per-entry` and `allocations-per-entry` (counts: no range).
  public static func file(_ records: [RunRecord]) throws -> String {
    var benchmarks: [String: [String: Metric]] = [:]
    for summary in StrategySummary.all(records) where summary.completedCount > 0 {
      let loads = records.filter {
        $0.strategy == summary.strategy && $0.run == .load && $0.status == .ok
      }
      var measures: [String: Metric] = [:]
      if let rate = summary.medianEntriesPerSecond {
        measures["throughput"] = Metric(
          value: rate.rounded(), lowerValue: summary.minimumEntriesPerSecond?.rounded(),
          upperValue: summary.maximumEntriesPerSecond?.rounded())
      }
      if let seconds = summary.medianLoadSeconds {
        let times = loads.map(\.loadSeconds)
        measures["latency"] = Metric(
          value: seconds, lowerValue: times.min(), upperValue: times.max())
      }
      if let footprint = summary.medianFootprintBytes {
        measures["footprint-bytes"] = Metric(
          value: footprint, lowerValue: summary.minimumFootprintBytes.map(Double.init),
          upperValue: summary.maximumFootprintBytes.map(Double.init))
      }
      if let heap = summary.medianHeapPeakBytes {
        measures["heap-peak-bytes"] = Metric(value: heap, lowerValue: nil, upperValue: nil)
      }
      if let startup = summary.medianStartupCPUSeconds {
        let times = loads.compactMap(\.startupCPUSeconds)
        measures["startup-cpu-seconds"] = Metric(
          value: startup, lowerValue: times.min(), upperValue: times.max())
      }
      if let instructions = summary.instructionsPerEntry {
        measures["instructions-per-entry"] = Metric(
          value: instructions, lowerValue: nil, upperValue: nil)
      }
      if let allocations = summary.medianAllocationsPerEntry {
        measures["allocations-per-entry"] = Metric(
          value: allocations, lowerValue: nil, upperValue: nil)
      }
      benchmarks[summary.strategy] = measures
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return String(decoding: try encoder.encode(benchmarks), as: UTF8.self) + "\n"
  }

  /// The BMF file's path beside `path`: `bench.json` → `bench-bmf.json`.
  public static func path(beside path: String) -> String {
    let url = URL(fileURLWithPath: path)
    let stem = url.deletingPathExtension().lastPathComponent
    return url.deletingLastPathComponent().appendingPathComponent(stem + "-bmf.json").path
  }
}
