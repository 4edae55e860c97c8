import BenchMeasuring
import Foundation

/// `bench update` drawn as what a phone downloads: per churn, one bar per method, as a share of
/// the full changed bases (the longest bar), each labelled with its bytes and apply time.
public enum UpdateChart {
  static let colors = [
    "calldir": "#1f6feb", "full": "#8c959f", "zstd": "#bf8700", "bsdiff": "#8250df",
  ]

  /// The chart of `rows` (``/BenchMeasuring/UpdateBench/Row``s), titled `title`.
  public static func svg(rows: [UpdateBench.Row], title: String) -> String {
    let churns = rows.map(\.churn).reduce(into: [Double]()) {
      if !$0.contains($1) { $0.append($1) }
    }
    let (width, left, right, barHeight) = (980.0, 170.0, 260.0, 18.0)
    let groupHeight = Double(UpdateBench.methods.count) * (barHeight + 4) + 26
    let top = 96.0
    var svg = SVGWriter(width: width, height: top + Double(churns.count) * groupHeight + 30)
    svg.text(20, 30, title, size: 18, weight: "bold")
    svg.text(
      20, 52,
      "bytes to download for the bases that changed, as a share of the full bases; apply time",
      size: 12, color: "#57606a")
    svg.legend(x: 20, y: 78, items: UpdateBench.methods.map { ($0, colors[$0] ?? "#000000") })
    let plot = width - left - right
    for (group, churn) in churns.enumerated() {
      let y0 = top + Double(group) * groupHeight
      svg.text(20, y0 + 16, String(format: "churn %g%%", churn * 100), size: 13, weight: "bold")
      let full = Double(rows.first { $0.churn == churn && $0.method == "full" }?.downloadBytes ?? 1)
      for (index, method) in UpdateBench.methods.enumerated() {
        guard let row = rows.first(where: { $0.churn == churn && $0.method == method }) else {
          continue
        }
        let y = y0 + 22 + Double(index) * (barHeight + 4)
        let share = Double(row.downloadBytes) / max(full, 1)
        svg.text(left - 8, y + 13, method, size: 12, anchor: "end")
        svg.rect(
          left, y, max(plot * min(share, 1), 1), barHeight, fill: colors[method] ?? "#000000")
        let applied = method == "full" ? "" : String(format: ", apply %.2f s", row.applySeconds)
        svg.text(
          left + plot * min(share, 1) + 6, y + 13,
          String(format: "%@ (%.1f%%)%@", byteText(row.downloadBytes), share * 100, applied),
          size: 12)
      }
    }
    return svg.finish()
  }

  static func byteText(_ bytes: Int) -> String {
    bytes >= 1 << 20
      ? String(format: "%.2f MiB", Double(bytes) / 1_048_576)
      : String(format: "%.1f KiB", Double(bytes) / 1024)
  }
}
