import BenchMeasuring
import Foundation

/// The bench's figures in github-action-benchmark's custom formats, which CI dashboards (that
/// action, Bencher's JSON adapter) read: an array of `{name, unit, value, range, extra}`. That
/// action takes one direction per file, so there are two: throughput in `customBiggerIsBetter`,
/// and time, memory and the deterministic counts in `customSmallerIsBetter`.
public enum BenchmarkJSON {
  /// One entry.
  struct Entry: Encodable {
    let name: String
    let unit: String
    let value: Double
    let range: String?
    let extra: String
  }

  /// The two files' contents: bigger is better (throughput), smaller is better (the rest).
  public static func files(_ records: [RunRecord], profile: String) throws -> (
    bigger: String, smaller: String
  ) {
    var bigger: [Entry] = []
    var smaller: [Entry] = []
    for summary in StrategySummary.all(records) where summary.completedCount > 0 {
      let runs = records.filter { $0.strategy == summary.strategy && $0.run == .load }
      let extra =
        "\(profile), \(summary.entries) entries, \(summary.completedCount) runs"
        + (runs.first?.baseVersion.map { ", base v\($0)" } ?? "")
        + ", \(summary.allocators.joined(separator: "+"))"
        + (runs.first.map { $0.commit.isEmpty ? "" : ", commit \($0.commit)" } ?? "")
      func spread(_ low: Double?, _ high: Double?) -> String? {
        guard let low, let high else { return nil }
        let half = (high - low) / 2
        return "± " + String(format: half >= 100 ? "%.0f" : "%.6g", half)
      }
      let name = summary.strategy
      if let rate = summary.medianEntriesPerSecond {
        bigger.append(
          Entry(
            name: "\(name): throughput", unit: "entries/s", value: rate.rounded(),
            range: spread(summary.minimumEntriesPerSecond, summary.maximumEntriesPerSecond),
            extra: extra))
      }
      if let seconds = summary.medianLoadSeconds {
        smaller.append(
          Entry(name: "\(name): load time", unit: "s", value: seconds, range: nil, extra: extra))
      }
      if let footprint = summary.medianFootprintBytes {
        smaller.append(
          Entry(
            name: "\(name): footprint", unit: "bytes", value: footprint,
            range: spread(
              summary.minimumFootprintBytes.map(Double.init),
              summary.maximumFootprintBytes.map(Double.init)), extra: extra))
      }
      if let heap = summary.medianHeapPeakBytes {
        smaller.append(
          Entry(name: "\(name): heap peak", unit: "bytes", value: heap, range: nil, extra: extra))
      }
      if let instructions = summary.instructionsPerEntry {
        smaller.append(
          Entry(
            name: "\(name): instructions per entry", unit: "instructions",
            value: (instructions * 1000).rounded() / 1000, range: nil, extra: extra))
      }
      if let allocations = summary.medianAllocationsPerEntry {
        smaller.append(
          Entry(
            name: "\(name): allocations per entry", unit: "allocations",
            value: (allocations * 1_000_000).rounded() / 1_000_000, range: nil, extra: extra))
      }
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return (
      String(decoding: try encoder.encode(bigger), as: UTF8.self) + "\n",
      String(decoding: try encoder.encode(smaller), as: UTF8.self) + "\n"
    )
  }

  /// The throughput file's path beside `path`: `bench.json` → `bench-throughput.json`.
  public static func throughputPath(beside path: String) -> String {
    let url = URL(fileURLWithPath: path)
    let stem = url.deletingPathExtension().lastPathComponent
    return url.deletingLastPathComponent().appendingPathComponent(stem + "-throughput.json").path
  }
}
