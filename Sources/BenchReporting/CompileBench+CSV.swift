import BenchMeasuring
import Foundation

/// The compile bench's runs as CSV, one row per run.
extension CompileBench {
  /// The runs as CSV: one row per run.
  public static func csv(_ runs: [Run], configuration: Configuration) -> CSVTable {
    CSVTable(
      header: [
        "profile", "entries", "tool", "run", "wall_s", "cpu_s", "peak_rss_bytes", "rows",
        "rows_per_s", "memory_budget_bytes",
      ],
      rows: runs.map { run in
        [
          configuration.profile, String(configuration.parameters.entries), run.tool,
          String(run.repeatIndex), String(format: "%.3f", run.wallSeconds),
          String(format: "%.3f", run.cpuSeconds), String(run.maxResidentBytes), String(run.rows),
          String(format: "%.0f", Double(run.rows) / max(run.wallSeconds, 1e-9)),
          String(configuration.memoryBytes),
        ]
      })
  }
}
