import BenchMeasuring
import Foundation

/// The pattern bench's rows as CSV.
extension PatternBench {
  /// The rows as CSV, one per method and repeat.
  public static func csv(_ rows: [Row]) -> CSVTable {
    CSVTable(
      header: [
        "method", "repeat", "requests", "store_entries", "seconds", "app_peak_bytes",
        "extension_peak_bytes", "extension_idle_bytes", "background_runs",
      ],
      rows: rows.map {
        [
          $0.method, String($0.repeatIndex), String($0.requests), String($0.storeEntries),
          String(format: "%.3f", $0.seconds), String($0.appPeakBytes),
          String($0.extensionPeakBytes), String($0.extensionIdleBytes), String($0.backgroundRuns),
        ]
      })
  }
}
