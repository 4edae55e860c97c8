import BenchMeasuring
import Foundation

/// The user-edit bench's rows as CSV.
extension UserEditBench {
  /// The rows as a CSV table.
  public static func csv(_ rows: [Row]) -> CSVTable {
    var table = CSVTable(header: [
      "method", "edit", "repeat", "requests", "entries", "removals", "extension_cpu_s",
      "footprint_peak_bytes", "projected_s",
    ])
    for row in rows {
      table.rows.append([
        row.method, row.edit, String(row.repeatIndex), String(row.requests), String(row.entries),
        String(row.removals), String(format: "%.4f", row.extensionCPUSeconds),
        String(row.footprintPeakBytes), String(format: "%.4f", row.projectedSeconds),
      ])
    }
    return table
  }
}
