import BenchMeasuring
import Foundation

/// The update bench's rows as CSV.
extension UpdateBench {
  /// The rows as CSV.
  public static func csv(_ rows: [Row], configuration: Configuration) -> CSVTable {
    CSVTable(
      header: [
        "profile", "entries", "churn", "method", "changed_bases", "entries_changed",
        "download_bytes", "ratio_to_full", "ratio_to_zstd", "ratio_to_lower_bound",
        "share_of_compressed_container", "apply_s", "apply_threads", "apply_footprint_bytes",
        "container_compressed_bytes", "lower_bound_bytes", "incremental_s",
      ],
      rows: rows.map { row in
        func of(_ method: String) -> Double {
          Double(rows.first { $0.churn == row.churn && $0.method == method }?.downloadBytes ?? 0)
        }
        let download = Double(row.downloadBytes)
        return [
          configuration.profile, String(configuration.parameters.entries),
          String(format: "%g", row.churn), row.method, String(row.changedBases),
          String(row.entriesChanged), String(row.downloadBytes),
          String(format: "%.4f", download / max(of("full"), 1)),
          String(format: "%.4f", download / max(of("zstd"), 1)),
          String(format: "%.4f", download / Double(max(row.lowerBoundBytes, 1))),
          String(format: "%.4f", download / Double(max(row.containerCompressedBytes, 1))),
          String(format: "%.3f", row.applySeconds), String(configuration.applyThreads),
          String(row.applyFootprintBytes),
          String(row.containerCompressedBytes), String(row.lowerBoundBytes),
          String(format: "%.3f", row.incrementalSeconds),
        ]
      })
  }
}
