import BenchMeasuring
import Foundation

/// The scale sweep as CSV, and back (the chart and the docs' figures read it).
extension CompileScale {
  /// One row per run, with the size's sort runs, merge passes and temporary bytes.
  public func csv(profile: String, memoryBytes: Int) -> CSVTable {
    CSVTable(
      header: [
        "profile", "entries", "tool", "run", "wall_s", "cpu_s", "peak_rss_bytes", "rows",
        "rows_per_s", "memory_budget_bytes", "sort_runs", "merge_passes", "temporary_bytes",
      ],
      rows: points.flatMap { point in
        point.runs.map { run in
          [
            profile, String(point.entries), run.tool, String(run.repeatIndex),
            String(format: "%.3f", run.wallSeconds), String(format: "%.3f", run.cpuSeconds),
            String(run.maxResidentBytes), String(run.rows),
            String(format: "%.0f", Double(run.rows) / max(run.wallSeconds, 1e-9)),
            String(memoryBytes), String(run.sortRuns), String(run.mergePasses),
            String(run.temporaryBytes),
          ]
        }
      })
  }

  /// The points back from a CSV this type wrote (for the chart and the docs' figures).
  /// - Throws: ``/BenchMeasuring/BenchError`` when a column is missing or a cell is not a number.
  public static func points(from table: CSVTable) throws(BenchError) -> [Point] {
    func column(_ name: String) throws(BenchError) -> Int {
      guard let index = table.header.firstIndex(of: name) else {
        throw BenchError("the CSV has no \(name) column")
      }
      return index
    }
    let (entries, tool, run, wall, cpu, rss, rows, sortRuns, passes, temporary) = (
      try column("entries"), try column("tool"), try column("run"), try column("wall_s"),
      try column("cpu_s"), try column("peak_rss_bytes"), try column("rows"),
      try column("sort_runs"), try column("merge_passes"), try column("temporary_bytes")
    )
    var bySize: [Int: [CompileBench.Run]] = [:]
    for (line, cells) in table.rows.enumerated() {
      guard cells.count == table.header.count, let size = Int(cells[entries]),
        let repeatIndex = Int(cells[run]), let wallSeconds = Double(cells[wall]),
        let cpuSeconds = Double(cells[cpu]), let peak = Int(cells[rss]),
        let count = Int(cells[rows]),
        let runCount = Int(cells[sortRuns]), let passCount = Int(cells[passes]),
        let bytes = Int(cells[temporary])
      else { throw BenchError("the CSV's row \(line + 2) is not a scale run") }
      var parsed = CompileBench.Run(
        tool: cells[tool], repeatIndex: repeatIndex, wallSeconds: wallSeconds,
        cpuSeconds: cpuSeconds, maxResidentBytes: peak, rows: count)
      (parsed.sortRuns, parsed.mergePasses, parsed.temporaryBytes) = (runCount, passCount, bytes)
      bySize[size, default: []].append(parsed)
    }
    return bySize.map { Point(entries: $0.key, runs: $0.value) }
  }
}
