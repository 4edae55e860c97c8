import Foundation
import ProcessMetrics

/// Medians, minima and maxima of one strategy's load runs.
public struct StrategySummary: Sendable {
  public let strategy: String
  public let binary: String
  /// Load runs recorded.
  public let runCount: Int
  /// Load runs that ended `ok`.
  public let completedCount: Int
  /// Statuses of the runs that did not end `ok`, with counts (`killed-memory ×2`).
  public let failures: [String]
  public let entries: Int
  public let medianEntriesPerSecond: Double?
  public let minimumEntriesPerSecond: Double?
  public let maximumEntriesPerSecond: Double?
  public let medianLoadSeconds: Double?
  /// The fastest completed run's load time, seconds.
  public let minimumLoadSeconds: Double?
  /// Median spawn → load start over completed runs, seconds (``RunRecord/startupSeconds``).
  public let medianStartupSeconds: Double?
  /// Median CPU time used by load start over completed runs, seconds
  /// (``RunRecord/startupCPUSeconds``): what the gate's startup check reads.
  public let medianStartupCPUSeconds: Double?
  public let medianFootprintBytes: Double?
  public let minimumFootprintBytes: Int?
  public let maximumFootprintBytes: Int?
  public let medianRSSOverIdleBytes: Double?
  public let maximumRSSOverIdleBytes: Int?
  public let idleRSSBytes: Int
  public let medianHeapPeakBytes: Double?
  /// Instructions per entry (one counted run; nil when not counted).
  public let instructionsPerEntry: Double?
  /// Allocation requests per entry, median (nil without jemalloc).
  public let medianAllocationsPerEntry: Double?
  public let memoryLimitBytes: Int
  /// The allocators the strategy's runs (idle and load) ran on, sorted; more than one means its
  /// memory figures do not compare like with like.
  public let allocators: [String]

  /// Summarizes the `load` rows of `strategy` in `records`. Throughput and memory come from the
  /// runs that completed; footprint also counts killed runs (their sampled peak).
  public init(strategy: String, records: [RunRecord]) {
    let runs = records.filter { $0.strategy == strategy && $0.run == .load }
    allocators = Set(records.filter { $0.strategy == strategy }.map(\.allocator)).sorted()
    let completed = runs.filter { $0.status == .ok }
    self.strategy = strategy
    binary = runs.first?.binary ?? ""
    runCount = runs.count
    completedCount = completed.count
    var failureCounts: [String: Int] = [:]
    for run in runs where run.status != .ok { failureCounts[run.status.rawValue, default: 0] += 1 }
    failures = failureCounts.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
    entries = completed.first?.entries ?? runs.first?.entries ?? 0
    let rates = completed.map(\.entriesPerSecond)
    medianEntriesPerSecond = Statistics.median(rates)
    minimumEntriesPerSecond = rates.min()
    maximumEntriesPerSecond = rates.max()
    medianLoadSeconds = Statistics.median(completed.map(\.loadSeconds))
    minimumLoadSeconds = completed.map(\.loadSeconds).min()
    medianStartupSeconds = Statistics.median(completed.compactMap(\.startupSeconds))
    medianStartupCPUSeconds = Statistics.median(completed.compactMap(\.startupCPUSeconds))
    let footprints = runs.map(\.footprintPeakBytes)
    medianFootprintBytes = Statistics.median(footprints.map(Double.init))
    minimumFootprintBytes = footprints.min()
    maximumFootprintBytes = footprints.max()
    let overIdle = completed.map(\.rssOverIdleBytes)
    medianRSSOverIdleBytes = Statistics.median(overIdle.map(Double.init))
    maximumRSSOverIdleBytes = overIdle.max()
    idleRSSBytes = runs.first?.idleRSSBytes ?? 0
    medianHeapPeakBytes = Statistics.median(completed.compactMap(\.heapPeakBytes).map(Double.init))
    memoryLimitBytes = runs.first?.memoryLimitBytes ?? 0
    instructionsPerEntry = runs.compactMap(\.instructionsPerEntry).first
    medianAllocationsPerEntry = Statistics.median(completed.compactMap(\.allocationsPerEntry))
  }

  /// Whether the strategy is an article's reader.
  public var isBaseline: Bool { BenchStrategy(rawValue: strategy)?.isBaseline ?? false }

  /// One summary per strategy (per strategy and phase for two-phase runs), in the order they
  /// first appear in `records`.
  public static func all(_ records: [RunRecord]) -> [StrategySummary] {
    let records = records.map { record in
      var named = record
      if !record.phase.isEmpty { named.strategy += " " + record.phase }
      if !record.build.isEmpty { named.strategy += " (\(record.build))" }
      return named
    }
    var order: [String] = []
    for record in records where record.run == .load && !order.contains(record.strategy) {
      order.append(record.strategy)
    }
    return order.map { StrategySummary(strategy: $0, records: records) }
  }
}

/// The stdout report of a bench run: a table per strategy and the throughput ratios.
public enum BenchReport {
  /// The table and the ratios of each calldir strategy's median throughput to each baseline's.
  public static func render(_ summaries: [StrategySummary], title: String) -> String {
    var lines = [title, ""]
    let header = [
      "strategy", "runs", "entries/s median", "min", "max", "load s", "startup ms", "CPU ms",
      "footprint median", "max",
      "RSS over idle median", "max", "idle RSS", "heap peak", "instr/entry", "allocs/entry",
    ]
    var rows: [[String]] = []
    for summary in summaries {
      rows.append([
        summary.strategy,
        "\(summary.completedCount)/\(summary.runCount)",
        CountText.rate(summary.medianEntriesPerSecond),
        CountText.rate(summary.minimumEntriesPerSecond),
        CountText.rate(summary.maximumEntriesPerSecond),
        summary.medianLoadSeconds.map { String(format: "%.3f", $0) } ?? "–",
        summary.medianStartupSeconds.map { String(format: "%.1f", $0 * 1000) } ?? "–",
        summary.medianStartupCPUSeconds.map { String(format: "%.1f", $0 * 1000) } ?? "–",
        bytes(summary.medianFootprintBytes.map { Int($0) }), bytes(summary.maximumFootprintBytes),
        bytes(summary.medianRSSOverIdleBytes.map { Int($0) }),
        bytes(summary.maximumRSSOverIdleBytes),
        bytes(summary.idleRSSBytes), bytes(summary.medianHeapPeakBytes.map { Int($0) }),
        summary.instructionsPerEntry.map { String(format: "%.1f", $0) } ?? "–",
        summary.medianAllocationsPerEntry.map { String(format: "%.3f", $0) } ?? "–",
      ])
    }
    lines += table(header: header, rows: rows)
    for summary in summaries where !summary.failures.isEmpty {
      lines.append("  \(summary.strategy): \(summary.failures.joined(separator: ", "))")
    }
    let baselines = summaries.filter { $0.isBaseline && $0.medianEntriesPerSecond != nil }
    let ours = summaries.filter { !$0.isBaseline }
    if !baselines.isEmpty && !ours.isEmpty {
      lines.append("")
      lines.append("throughput ratio (median entries/s, this run): strategy ÷ baseline")
      var ratioRows: [[String]] = []
      for summary in ours {
        var row = [summary.strategy]
        for baseline in baselines {
          if let mine = summary.medianEntriesPerSecond,
            let theirs = baseline.medianEntriesPerSecond,
            theirs > 0
          {
            row.append(String(format: "%.1f×", mine / theirs))
          } else {
            row.append("–")
          }
        }
        ratioRows.append(row)
      }
      lines += table(header: ["strategy"] + baselines.map(\.strategy), rows: ratioRows)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func bytes(_ value: Int?) -> String { value.map(ByteCount.format) ?? "–" }

  /// Left-aligned first column, right-aligned numbers, two spaces between columns.
  static func table(header: [String], rows: [[String]]) -> [String] {
    var widths = header.map(\.count)
    for row in rows {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    func format(_ row: [String]) -> String {
      row.enumerated().map { index, cell in
        let padding = String(repeating: " ", count: widths[index] - cell.count)
        return index == 0 ? cell + padding : padding + cell
      }.joined(separator: "  ")
    }
    return [
      format(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "),
    ]
      + rows.map(format)
  }
}
