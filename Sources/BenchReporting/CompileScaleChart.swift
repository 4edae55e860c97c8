import BenchMeasuring
import Foundation
import ProcessMetrics

/// A compile scale (``/BenchMeasuring/CompileScale``) as people read scaling: wall time and peak RSS against the
/// dump's rows on log-log axes, the compile beside `sort -u`, each line's fitted exponent in the
/// legend and the memory budget drawn across the memory panel.
public enum CompileScaleChart {
  static let panelWidth = 360.0
  static let panelHeight = 240.0
  static let margin = 70.0
  /// compile, then sort -u (the colours and lines of the other charts' first two series).
  static let series: [(tool: String, color: String, dash: String?, shape: MarkerShape)] = [
    ("compile", "#1f6feb", nil, .square), ("sort -u", "#8c959f", "7 4", .circle),
  ]

  /// The chart of `scale` at a memory budget of `budgetBytes`, titled `title`.
  public static func svg(_ scale: CompileScale, budgetBytes: Int, title: String) -> String {
    let panels:
      [(title: String, binary: Bool, unit: (Double) -> String, value: (CompileBench.Run) -> Double)] =
        [
          ("wall time (median)", false, { SweepChart.seconds($0) }, { $0.wallSeconds }),
          (
            "peak RSS (median)", true, { ByteCount.format(Int($0)) },
            { Double($0.maxResidentBytes) }
          ),
        ]
    let width = margin + Double(panels.count) * (panelWidth + margin) + 20
    var svg = SVGWriter(
      width: width, height: 92 + panelHeight + 60 + 20 * Double(series.count) + 10)
    svg.text(margin, 30, title, size: 18, weight: "600")
    let rows = scale.points.map(\.rows)
    svg.text(
      margin, 52,
      "\(rows.count) sizes, \(CountText.decimal(Double(rows.min() ?? 0))) to \(CountText.decimal(Double(rows.max() ?? 0))) rows; --memory and sort -S \(ByteCount.format(budgetBytes)); log-log axes",
      size: 13, color: "#57606a")
    let top = 92.0
    for (index, panel) in panels.enumerated() {
      let left = margin + Double(index) * (panelWidth + margin)
      svg.text(left, top - 12, panel.title, size: 13, weight: "600")
      var values = scale.points.flatMap { point in
        series.map { point.median($0.tool, panel.value) }
      }.filter { $0 > 0 && $0.isFinite }
      if panel.binary { values.append(Double(budgetBytes)) }
      guard
        let axes = LogLogPanel(
          left: left, top: top, width: panelWidth, height: panelHeight, sizes: rows,
          values: values)
      else {
        svg.text(left, top + 20, "needs two sizes", size: 12, color: "#57606a")
        continue
      }
      let (x, y) = (axes.x, axes.y)
      axes.drawAxes(
        &svg, sizes: rows, binary: panel.binary, unit: panel.unit, xTitle: "rows of the dump (N)")
      if panel.binary {
        let budget = y(Double(budgetBytes))
        svg.line(left, budget, left + panelWidth, budget, color: "#cf222e", dash: "5 3")
        svg.text(
          left + panelWidth - 4, budget - 6, "budget \(ByteCount.format(budgetBytes))", size: 11,
          anchor: "end", color: "#cf222e")
      }
      for line in series {
        let points = scale.points.compactMap { point -> (Double, Double)? in
          let value = point.median(line.tool, panel.value)
          return value > 0 && value.isFinite ? (x(Double(point.rows)), y(value)) : nil
        }
        for (from, to) in zip(points, points.dropFirst()) {
          svg.line(from.0, from.1, to.0, to.1, color: line.color, width: 2, dash: line.dash)
        }
        for point in points { svg.marker(line.shape, point.0, point.1, size: 7, color: line.color) }
      }
    }
    var legendY = top + panelHeight + 64
    for line in series {
      svg.line(
        margin - 4, legendY - 4, margin + 18, legendY - 4, color: line.color, width: 2,
        dash: line.dash)
      svg.marker(line.shape, margin + 7, legendY - 4, size: 7, color: line.color)
      let exponents = [
        ("wall time", scale.exponent(line.tool) { $0.wallSeconds }),
        ("peak RSS", scale.exponent(line.tool) { Double($0.maxResidentBytes) }),
      ].map { name, value in
        value.map { String(format: "%@ N^%.2f", name, abs($0) < 0.005 ? 0 : $0) } ?? "\(name) –"
      }
      var text = "\(line.tool): \(exponents.joined(separator: ", "))"
      if line.tool == "compile" {
        let ratios = scale.points.map { String(format: "%.2f×", $0.wallRatio) }
        text += "; time ÷ sort -u: \(ratios.joined(separator: ", "))"
      }
      svg.text(margin + 26, legendY, text, size: 12)
      legendY += 20
    }
    return svg.finish()
  }
}
