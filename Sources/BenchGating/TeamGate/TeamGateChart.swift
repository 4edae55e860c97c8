import BenchMeasuring
import BenchReporting
import Foundation

/// The gate's chart: every gated metric on one scale, its figure over what is allowed (1 is
/// the limit), marked pass or fail, calldir's A/B first (load time with its 95% interval,
/// instructions and allocations per entry), then each data budget with the room left under its
/// limit and, from a history, the time to it. A metric that failed is drawn like every other,
/// in red, so no failure is left off the page.
public enum TeamGateChart {
  static let width = 1400.0
  static let labelWidth = 310.0
  static let rightMargin = 610.0
  static let rowHeight = 30.0
  static let passColor = "#1a7f37"
  static let failColor = "#cf222e"

  /// One row: a figure over its limit, with an interval for a ratio measured with one.
  struct Row {
    var label: String
    var value: Double
    var interval: (low: Double, high: Double)?
    var text: String
    var passed: Bool
  }

  /// The SVG for `result`.
  public static func svg(_ result: TeamGateResult, title: String) -> String {
    let rows = codeRows(result) + dataRows(result)
    let plotWidth = width - labelWidth - rightMargin
    let height = 120 + Double(rows.count) * rowHeight + 60
    let scaleMax = max(
      1.5, rows.map { min($0.interval?.high ?? $0.value, 4) }.max() ?? 1)
    func x(_ value: Double) -> Double {
      labelWidth + min(max(value, 0), scaleMax) / scaleMax * plotWidth
    }
    var svg = SVGWriter(width: width, height: height)
    let verdict = result.verdict
    svg.text(20, 30, title, size: 18, weight: "bold")
    svg.text(
      20, 56,
      verdict.passed
        ? "gate passed: calldir \(result.comparison == nil ? "not compared (A/B skipped)" : "within its thresholds"), data within every budget"
        : "gate FAILED: " + verdict.failures[0]
          + (verdict.failures.count > 1 ? " (+\(verdict.failures.count - 1) more)" : ""),
      size: 13, weight: "bold", color: verdict.passed ? passColor : failColor)
    svg.text(
      20, 78, "each figure over what is allowed: past the red line (1) fails", size: 12,
      color: "#57606a")
    let top = 100.0
    let limitX = x(1)
    svg.line(
      limitX, top - 6, limitX, top + Double(rows.count) * rowHeight, color: failColor, width: 1.5,
      dash: "5,3")
    svg.text(limitX, top - 10, "limit", size: 11, anchor: "middle", color: failColor)
    for (index, row) in rows.enumerated() {
      let y = top + Double(index) * rowHeight
      let color = row.passed ? passColor : failColor
      svg.text(labelWidth - 10, y + 19, row.label, size: 12, anchor: "end")
      svg.rect(labelWidth, y + 8, x(row.value) - labelWidth, 14, fill: color)
      if let interval = row.interval {
        svg.line(x(interval.low), y + 15, x(interval.high), y + 15, color: "#24292f", width: 2)
        svg.line(x(interval.low), y + 9, x(interval.low), y + 21, color: "#24292f", width: 2)
        svg.line(x(interval.high), y + 9, x(interval.high), y + 21, color: "#24292f", width: 2)
      }
      svg.text(
        labelWidth + plotWidth + 10, y + 19, (row.passed ? "pass · " : "FAIL · ") + row.text,
        size: 12, weight: row.passed ? "normal" : "bold", color: color)
    }
    let axis = top + Double(rows.count) * rowHeight + 8
    svg.line(labelWidth, axis, labelWidth + plotWidth, axis, color: "#8c959f")
    var tick = 0.0
    while tick <= scaleMax + 1e-9 {
      svg.line(x(tick), axis, x(tick), axis + 5, color: "#8c959f")
      svg.text(
        x(tick), axis + 18, GateSettings.format(tick), size: 11, anchor: "middle", color: "#57606a")
      tick += scaleMax > 2 ? 1 : 0.25
    }
    return svg.finish()
  }

  static func codeRows(_ result: TeamGateResult) -> [Row] {
    guard let comparison = result.comparison else { return [] }
    let thresholds = result.settings.thresholds
    var rows: [Row] = []
    for row in comparison.rows {
      if let time = row.timeRatio {
        let limit = 1 + thresholds.maximumRegression
        rows.append(
          Row(
            label: "calldir \(row.strategy): load time B/A", value: time.ratio / limit,
            interval: (time.low / limit, time.high / limit),
            text: String(
              format: "%.3f [%.3f, %.3f], limit %.3f", time.ratio, time.low, time.high, limit),
            passed: time.low <= limit))
      }
      if let counts = row.instructions, counts.a > 0 {
        let limit = 1 + thresholds.maximumCountRegression
        rows.append(
          Row(
            label: "calldir \(row.strategy): instructions/entry B/A",
            value: counts.b / counts.a / limit,
            interval: nil,
            text: String(
              format: "%+.2f%%, limit +%@%%", (counts.b / counts.a - 1) * 100,
              GateSettings.format(thresholds.maximumCountRegression * 100)),
            passed: counts.b / counts.a <= limit))
      }
      if let counts = row.allocations {
        let limit = counts.a + 0.001
        rows.append(
          Row(
            label: "calldir \(row.strategy): allocations/entry",
            value: limit > 0 ? counts.b / limit : 0,
            interval: nil, text: String(format: "%.4f → %.4f", counts.a, counts.b),
            passed: counts.b <= limit))
      }
    }
    return rows
  }

  static func dataRows(_ result: TeamGateResult) -> [Row] {
    result.budgetChecks.map {
      Row(
        label: "data: " + $0.name, value: $0.share, interval: nil,
        text:
          "\($0.figure), allowed \($0.budget.replacingOccurrences(of: "≤ ", with: "")) · room left \($0.roomLeft)"
          + ($0.trend.map {
            $0.secondsToLimit == nil ? " · not growing" : " · limit \($0.timeToLimit)"
          } ?? ""),
        passed: $0.passed)
    }
  }
}
