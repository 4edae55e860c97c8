import BenchMeasuring
import Foundation
import ProcessMetrics

/// `calldir bench --summary FILE.md`: the run in Markdown for a pull request, fit for
/// `$GITHUB_STEP_SUMMARY` (which needs no token, so it works from forks): the verdict, each
/// strategy's figures, what changed against the baseline or the other build (with intervals),
/// every failure, and a link to the chart.
public enum BenchSummary {
  /// The Markdown.
  /// - Parameters:
  ///   - title: the run's title (profile, entries, repeats).
  ///   - summaries: each strategy's figures.
  ///   - failures: the gate's failures, one line each (empty when it passed).
  ///   - gated: whether `--gate` decided the verdict (otherwise it is only reported).
  ///   - baselineNotes: what the comparison with the committed baseline said.
  ///   - comparison: the A/B comparison, when the run compared two builds.
  ///   - chartLink: where the chart is (an artifact URL, or a path).
  public static func markdown(
    title: String, summaries: [StrategySummary], failures: [String], gated: Bool,
    baselineNotes: [String], comparison: ABComparison?, chartLink: String?
  ) -> String {
    let verdict =
      failures.isEmpty
      ? "✅ passed" : "❌ \(failures.count) failure\(failures.count == 1 ? "" : "s")"
    var lines = ["## calldir bench — \(verdict)\(gated ? "" : " (not gated)")", "", title, ""]
    lines.append(
      "| strategy | load s (median) | entries/s | footprint peak | instr/entry | alloc/entry |")
    lines.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    for summary in summaries {
      let load = summary.medianLoadSeconds.map { String(format: "%.4f", $0) } ?? "–"
      let rate = CountText.rate(summary.medianEntriesPerSecond)
      let footprint = summary.maximumFootprintBytes.map { ByteCount.format($0) } ?? "–"
      let instructions = summary.instructionsPerEntry.map { String(format: "%.1f", $0) } ?? "–"
      let allocations =
        summary.medianAllocationsPerEntry.map { String(format: "%.4f", $0) } ?? "–"
      lines.append(
        "| \(summary.strategy) | \(load) | \(rate) | \(footprint) | \(instructions) | \(allocations) |"
      )
    }
    if let comparison, !comparison.rows.isEmpty {
      lines += [
        "", "### Against the other build (A = base, B = this)", "",
        "| strategy | load time B/A | 95% interval | Mann–Whitney p | instr/entry A → B |",
        "| --- | ---: | ---: | ---: | ---: |",
      ]
      for row in comparison.rows {
        let time = row.timeRatio.map { String(format: "%.3f", $0.ratio) } ?? "–"
        let interval = row.timeRatio.map { String(format: "[%.3f, %.3f]", $0.low, $0.high) } ?? "–"
        let p = row.p.map { String(format: "%.3f", $0) } ?? "–"
        let counts =
          row.instructions.map {
            String(format: "%.1f → %.1f (%+.3f%%)", $0.a, $0.b, ($0.b / $0.a - 1) * 100)
          } ?? "–"
        lines.append("| \(row.strategy) | \(time) | \(interval) | \(p) | \(counts) |")
      }
    }
    if !failures.isEmpty {
      lines += ["", "### Failures", ""] + failures.map { "- \($0)" }
    }
    if !baselineNotes.isEmpty {
      lines += ["", "### Against the baseline", ""] + baselineNotes.map { "- \($0)" }
    }
    if let chartLink {
      lines += ["", "Chart: [\(chartLink.split(separator: "/").last ?? "chart")](\(chartLink))"]
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Appends `markdown` to `path` (creating it), as `$GITHUB_STEP_SUMMARY` is written: each step
  /// adds its part.
  /// - Throws: ``/BenchMeasuring/BenchError`` when the file cannot be written.
  public static func append(_ markdown: String, to path: String) throws(BenchError) {
    if !FileManager.default.fileExists(atPath: path) {
      guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw BenchError("cannot write the summary \(path)")
      }
    }
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw BenchError("cannot write the summary \(path)")
    }
    defer { try? handle.close() }
    do {
      try handle.seekToEnd()
      try handle.write(contentsOf: Data(markdown.utf8))
    } catch {
      throw BenchError("cannot write the summary \(path): \(error.localizedDescription)")
    }
  }
}
