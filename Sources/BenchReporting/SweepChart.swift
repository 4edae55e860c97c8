import BenchMeasuring
import Foundation
import ProcessMetrics

/// A sweep drawn as people read scaling: each metric against N on log-log axes, one line per
/// strategy, with its fitted exponent in the legend. Straight lines are powers of N: a flat
/// line is constant, a 45° line linear.
public enum SweepChart {
  static let panelWidth = 300.0
  static let panelHeight = 230.0
  static let margin = 62.0
  static let colors = ["#1f6feb", "#2da44e", "#8c959f", "#bf8700", "#cf222e", "#8250df"]
  /// Each series' line pattern, with its marker shape: mmap and buffered often measure the same,
  /// and a solid line drawn over another hid it.
  static let dashes: [String?] = [nil, "7 4", "2 3", "9 3 2 3"]

  /// The chart of `runs` (each size with its records), titled `title`.
  public static func svg(runs: [(size: Int, records: [RunRecord])], title: String) -> String {
    let analysis = SweepAnalysis(runs)
    let bySize = runs.map { ($0.size, StrategySummary.all($0.records)) }
    let strategies = analysis.rows.map(\.strategy)
    let panels:
      [(
        title: String, unit: (Double) -> String, binary: Bool,
        metric: (StrategySummary) -> Double?
      )] = [
        ("load time", { seconds($0) }, false, \.medianLoadSeconds),
        // Bytes in the tables' binary units, with ticks at powers of two.
        (
          "footprint (RssAnon + RssShmem)", { ByteCount.format(Int($0)) }, true,
          \.medianFootprintBytes
        ),
        ("instructions per entry", { String(format: "%.0f", $0) }, false, \.instructionsPerEntry),
      ]
    let width = margin + Double(panels.count) * (panelWidth + margin) + 20
    let legendHeight = 20.0 * Double(strategies.count)
    var svg = SVGWriter(width: width, height: 92 + panelHeight + 60 + legendHeight)
    svg.text(margin, 30, title, size: 18, weight: "600")
    let sizes = runs.map(\.size)
    svg.text(
      margin, 52,
      "\(sizes.count) sizes, \(CountText.decimal(Double(sizes.min() ?? 0))) to \(CountText.decimal(Double(sizes.max() ?? 0))) entries; medians; log-log axes",
      size: 13, color: "#57606a")
    let top = 92.0
    for (index, panel) in panels.enumerated() {
      let left = margin + Double(index) * (panelWidth + margin)
      var values: [Double] = []
      for (_, summaries) in bySize {
        values += summaries.compactMap(panel.metric).filter { $0 > 0 }
      }
      svg.text(left, top - 12, panel.title, size: 13, weight: "600")
      guard
        let axes = LogLogPanel(
          left: left, top: top, width: panelWidth, height: panelHeight, sizes: sizes,
          values: values)
      else {
        svg.text(left, top + 20, "not measured", size: 12, color: "#57606a")
        continue
      }
      let (x, y) = (axes.x, axes.y)
      axes.drawAxes(
        &svg, sizes: sizes, binary: panel.binary, unit: panel.unit, xTitle: "entries (N)")
      for (strategyIndex, strategy) in strategies.enumerated() {
        let color = colors[strategyIndex % colors.count]
        let points = bySize.compactMap { size, summaries -> (Double, Double)? in
          guard let summary = summaries.first(where: { $0.strategy == strategy }),
            let value = panel.metric(summary), value > 0
          else { return nil }
          return (x(Double(size)), y(value))
        }
        let dash = dashes[strategyIndex % dashes.count]
        let shape = MarkerShape.allCases[strategyIndex % MarkerShape.allCases.count]
        for (from, to) in zip(points, points.dropFirst()) {
          svg.line(from.0, from.1, to.0, to.1, color: color, width: 2, dash: dash)
        }
        for point in points { svg.marker(shape, point.0, point.1, size: 7, color: color) }
      }
    }
    var legendY = top + panelHeight + 64
    for (index, row) in analysis.rows.enumerated() {
      let color = colors[index % colors.count]
      // The legend shows each series' line pattern and marker, as the panels draw them.
      svg.line(
        margin - 4, legendY - 4, margin + 18, legendY - 4, color: color, width: 2,
        dash: dashes[index % dashes.count])
      svg.marker(
        MarkerShape.allCases[index % MarkerShape.allCases.count], margin + 7, legendY - 4,
        size: 7, color: color)
      let exponents = [
        ("time", row.loadTime), ("footprint", row.footprint),
        ("instr/entry", row.instructionsPerEntry),
      ].map { name, value in
        // No "-0.00": a flat line's exponent rounds to 0.
        value.map { String(format: "%@ N^%.2f", name, abs($0) < 0.005 ? 0 : $0) } ?? "\(name) –"
      }
      svg.text(
        margin + 26, legendY, "\(row.strategy): \(exponents.joined(separator: ", "))", size: 12)
      legendY += 20
    }
    return svg.finish()
  }

  /// The gridlines of a log axis from 10^`low` to 10^`high`: each decade, or (`binary`, for
  /// bytes) each power of two, every other one when there would be more than eight.
  static func ticks(fromDecade low: Double, toDecade high: Double, binary: Bool) -> [Double] {
    guard binary else { return stride(from: low, through: high, by: 1).map { pow(10, $0) } }
    let lowPower = ceil(low * log2(10))
    let highPower = floor(high * log2(10))
    guard lowPower <= highPower else { return [] }
    let step = highPower - lowPower > 8 ? 2.0 : 1.0
    return stride(from: lowPower, through: highPower, by: step).map { pow(2, $0) }
  }

  static func seconds(_ value: Double) -> String {
    if value >= 1 { return String(format: "%.0f s", value) }
    if value >= 1e-3 { return String(format: "%.0f ms", value * 1e3) }
    return String(format: "%.0f µs", value * 1e6)
  }
}
