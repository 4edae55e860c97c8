import BenchMeasuring
import Foundation

/// One panel of a chart of cost against N on log-log axes, as the sweep and the compile scale
/// draw them: the decades that hold the values (at least one wide, so flat lines look flat),
/// gridlines at each decade or power of two, and a tick under each size.
struct LogLogPanel {
  let left: Double
  let top: Double
  let width: Double
  let height: Double
  private let xRange: (low: Double, high: Double)
  private let yRange: (low: Double, high: Double)

  /// The panel at (`left`, `top`), `width` × `height`, for `sizes` and `values`; nil when the
  /// values are empty or the sizes span no range.
  init?(
    left: Double, top: Double, width: Double, height: Double, sizes: [Int], values: [Double]
  ) {
    guard let low = values.min(), let high = values.max(), let nLow = sizes.min(),
      let nHigh = sizes.max(), nHigh > nLow
    else { return nil }
    var yLow = floor(log10(low))
    var yHigh = ceil(log10(high))
    if yHigh - yLow < 1 { (yLow, yHigh) = (yLow, yLow + 1) }
    (self.left, self.top, self.width, self.height) = (left, top, width, height)
    xRange = (log10(Double(nLow)), log10(Double(nHigh)))
    yRange = (yLow, yHigh)
  }

  /// The x of size `n`.
  func x(_ n: Double) -> Double {
    left + (log10(n) - xRange.low) / (xRange.high - xRange.low) * width
  }

  /// The y of value `v`.
  func y(_ v: Double) -> Double {
    top + height - (log10(v) - yRange.low) / (yRange.high - yRange.low) * height
  }

  /// The axes, the value gridlines labelled with `unit` (powers of two when `binary`), each
  /// size's tick and label, and `xTitle` under them.
  func drawAxes(
    _ svg: inout SVGWriter, sizes: [Int], binary: Bool, unit: (Double) -> String,
    xTitle: String
  ) {
    svg.line(left, top + height, left + width, top + height, color: "#57606a")
    svg.line(left, top, left, top + height, color: "#57606a")
    for value in SweepChart.ticks(fromDecade: yRange.low, toDecade: yRange.high, binary: binary) {
      svg.line(left, y(value), left + width, y(value), color: "#d0d7de", dash: "3 3")
      svg.text(left - 6, y(value) + 4, unit(value), size: 11, anchor: "end")
    }
    for size in sizes {
      svg.line(
        x(Double(size)), top + height, x(Double(size)), top + height + 4, color: "#57606a")
      svg.text(
        x(Double(size)), top + height + 18, CountText.decimal(Double(size)), size: 11,
        anchor: "middle")
    }
    svg.text(
      left + width / 2, top + height + 36, xTitle, size: 11, anchor: "middle", color: "#57606a")
  }
}
