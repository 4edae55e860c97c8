import BenchMeasuring
import Foundation

/// `bench patterns` drawn: one panel per figure (requests, time, the app's and the extension's
/// peaks), one bar per method, each labelled with its median over the repeats.
public enum PatternChart {
  static let colors = ["calldir": "#1f6feb", "saracroche": "#bf8700"]

  /// The chart of `rows`, titled `title`.
  public static func svg(rows: [PatternBench.Row], title: String) -> String {
    func median(_ method: String, _ value: (PatternBench.Row) -> Double) -> Double {
      Statistics.median(rows.filter { $0.method == method }.map(value)) ?? 0
    }
    let panels: [(String, (PatternBench.Row) -> Double, (Double) -> String)] = [
      ("requests", { Double($0.requests) }, { String(format: "%.0f", $0) }),
      ("time, simulated system (s)", { $0.seconds }, { String(format: "%.1f s", $0) }),
      (
        "app process peak RSS (MiB)", { Double($0.appPeakBytes) / 1_048_576 },
        { String(format: "%.1f MiB", $0) }
      ),
      (
        "extension footprint peak (MiB)", { Double($0.extensionPeakBytes) / 1_048_576 },
        { String(format: "%.2f MiB", $0) }
      ),
      (
        "extension footprint over its idle one (MiB)",
        { Double($0.extensionPeakBytes - $0.extensionIdleBytes) / 1_048_576 },
        { String(format: "%.2f MiB", $0) }
      ),
    ]
    let (width, left, right, barHeight) = (900.0, 150.0, 180.0, 20.0)
    let panelHeight = Double(PatternBench.methods.count) * (barHeight + 6) + 34
    let top = 96.0
    var svg = SVGWriter(width: width, height: top + Double(panels.count) * panelHeight + 20)
    svg.text(20, 30, title, size: 18, weight: "bold")
    svg.text(
      20, 52,
      "medians over the repeats; each bar as a share of the larger of the two (lower is better)",
      size: 12, color: "#57606a")
    svg.legend(x: 20, y: 78, items: PatternBench.methods.map { ($0, colors[$0] ?? "#000000") })
    let plot = width - left - right
    for (index, (name, value, label)) in panels.enumerated() {
      let y0 = top + Double(index) * panelHeight
      svg.text(20, y0 + 16, name, size: 13, weight: "bold")
      let largest = PatternBench.methods.map { median($0, value) }.max() ?? 1
      for (place, method) in PatternBench.methods.enumerated() {
        let figure = median(method, value)
        let share = largest > 0 ? figure / largest : 0
        let y = y0 + 24 + Double(place) * (barHeight + 6)
        svg.text(left - 8, y + 14, method, size: 12, anchor: "end")
        svg.rect(left, y, max(plot * share, 1), barHeight, fill: colors[method] ?? "#000000")
        svg.text(left + plot * share + 6, y + 14, label(figure), size: 12)
      }
    }
    return svg.finish()
  }
}
