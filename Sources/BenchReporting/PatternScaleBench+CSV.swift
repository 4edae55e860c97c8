import BenchMeasuring
import Foundation

/// The pattern scale bench's rows as CSV.
extension PatternScaleBench {
  /// The rows as a CSV table.
  public static func csv(_ rows: [Row]) -> CSVTable {
    var table = CSVTable(header: [
      "plan", "numbers", "repeat", "request", "status", "entries", "extension_cpu_s", "wall_s",
      "footprint_peak_bytes",
    ])
    for row in rows {
      table.rows.append([
        row.plan, String(row.numbers), String(row.repeatIndex), row.request, row.status,
        String(row.entries),
        String(format: "%.3f", row.extensionCPUSeconds), String(format: "%.3f", row.wallSeconds),
        String(row.footprintPeakBytes),
      ])
    }
    return table
  }
}
