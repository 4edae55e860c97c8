import BenchMeasuring
import Foundation
import ProcessMetrics

/// Draws a bench CSV as a self-contained SVG (no scripts, no external fonts): throughput per
/// strategy on a log scale with the articles' figures as reference lines, and footprint peak per
/// strategy against the memory limit.
public enum BenchChart {
  /// The Chinese article: about 1,000,000 entries in 30 s on an iPhone 6S Plus.
  public static let chineseArticleEntriesPerSecond = 1_000_000.0 / 30
  /// 2GIS: 2,000,000 numbers in about 10 s on a 2017 iPhone.
  public static let twoGISEntriesPerSecond = 2_000_000.0 / 10

  static let width = 980.0
  static let leftMargin = 190.0
  static let rightMargin = 150.0
  static let rowHeight = 34.0
  static let ourColor = "#1f6feb"
  static let baselineColor = "#8c959f"
  static let limitColor = "#cf222e"

  /// What an A/B run's chart states above its panels: which build is A and which is B, each
  /// strategy's load-time ratio with its interval, and the gate's verdict.
  public struct ABVerdict: Sendable {
    /// The `--against` build's folder (A).
    public var against: String
    /// The comparison the gate read.
    public var comparison: ABComparison
    /// Whether the run was gated (`--gate`); an ungated run states no verdict.
    public var gated: Bool
    /// The gate's failures; none when it passed.
    public var failures: [String]

    public init(against: String, comparison: ABComparison, gated: Bool, failures: [String]) {
      (self.against, self.comparison, self.gated, self.failures) = (
        against, comparison, gated, failures
      )
    }
  }

  /// The chart for `records` (their `load` rows); an A/B run's with `ab`, so a failed gate
  /// cannot look like a pass.
  public static func svg(records: [RunRecord], title: String, ab: ABVerdict? = nil) -> String {
    let summaries = StrategySummary.all(records)
    let loads = records.filter { $0.run == .load }
    let plotWidth = width - leftMargin - rightMargin
    let panelHeight = Double(max(summaries.count, 1)) * rowHeight + 86
    let abHeight = ab == nil ? 0.0 : 44
    let height = 90 + abHeight + panelHeight * 2 + 40
    var svg = SVGWriter(width: width, height: height)
    svg.text(20, 30, title, size: 18, weight: "bold")
    let first = loads.first
    let subtitle = [
      first.map { "\($0.entries) entries" } ?? "",
      "\(loads.map(\.repeatIndex).max() ?? 0) repeats",
      first.map { "commit \($0.commit.isEmpty ? "–" : $0.commit)" } ?? "",
      first.map { "host \($0.host)" } ?? "",
      first.map(\.timestamp) ?? "",
    ].filter { !$0.isEmpty }.joined(separator: " · ")
    svg.text(20, 52, subtitle, size: 12, color: "#57606a")
    svg.legend(
      x: width - 330, y: 46,
      items: [("calldir strategy", ourColor), ("article baseline", baselineColor)])

    if let ab { abLines(&svg, ab) }
    // Panel 1: throughput, log scale; panel 2: footprint against the memory limit.
    let throughputBottom = throughputPanel(
      &svg, summaries: summaries, top: 90 + abHeight, plotWidth: plotWidth)
    footprintPanel(&svg, summaries: summaries, top: throughputBottom + 60, plotWidth: plotWidth)
    return svg.finish()
  }

  /// The A/B lines under the subtitle: what A and B are with each strategy's time ratio and
  /// interval, then the verdict, red when the gate failed.
  private static func abLines(_ svg: inout SVGWriter, _ ab: ABVerdict) {
    let ratios = ab.comparison.rows.map { row in
      row.timeRatio.map {
        String(format: "%@ B/A %.3f (95%% %.3f–%.3f)", row.strategy, $0.ratio, $0.low, $0.high)
      } ?? "\(row.strategy) B/A –"
    }
    let folder = ab.against.count > 40 ? "…" + ab.against.suffix(39) : ab.against
    svg.text(
      20, 76,
      "A: the build in \(folder) · B: this build · load time " + ratios.joined(separator: " · "),
      size: 12, color: "#24292f")
    let verdict: (text: String, color: String) =
      !ab.gated
      ? ("not gated (no --gate)", "#57606a")
      : ab.failures.isEmpty
        ? ("gate passed", "#1a7f37")
        : (
          "gate FAILED: " + ab.failures[0]
            + (ab.failures.count > 1 ? " (+\(ab.failures.count - 1) more)" : ""), limitColor
        )
    let line = verdict.text.count > 140 ? String(verdict.text.prefix(139)) + "…" : verdict.text
    svg.text(20, 96, line, size: 13, weight: "bold", color: verdict.color)
  }

  /// The throughput panel from `top` down: each strategy's median rate as a bar with its
  /// min–max whisker on a log scale, and the articles' rates as dashed lines.
  /// - Returns: the panel's axis bottom.
  private static func throughputPanel(
    _ svg: inout SVGWriter, summaries: [StrategySummary], top: Double, plotWidth: Double
  ) -> Double {
    svg.text(
      20, top, "Throughput: entries/s (median, bar; min–max, whisker; log scale)", size: 14,
      weight: "bold")
    // Only positive, finite rates have a place on a log scale: a run of 0 entries (rate 0) made
    // the decades start at -infinity and the axis loop never end.
    let rates =
      (summaries.compactMap(\.minimumEntriesPerSecond)
      + summaries.compactMap(\.maximumEntriesPerSecond)).filter { $0.isFinite && $0 > 0 }
    let lowDecade = floor(log10(min(rates.min() ?? 1e4, chineseArticleEntriesPerSecond) * 0.8))
    let highDecade = ceil(log10(max(rates.max() ?? 1e7, twoGISEntriesPerSecond) * 1.2))
    func xRate(_ rate: Double) -> Double {
      leftMargin + (log10(max(rate, 1)) - lowDecade) / (highDecade - lowDecade) * plotWidth
    }
    // Room above the bars for the two reference labels, one row each.
    let axisTop = top + 36
    let axisBottom = axisTop + Double(summaries.count) * rowHeight
    var decade = lowDecade
    while decade <= highDecade {
      let x = xRate(pow(10, decade))
      svg.line(x, axisTop, x, axisBottom, color: "#d0d7de")
      svg.text(
        x, axisBottom + 16, CountText.decimal(pow(10, decade)), size: 11, anchor: "middle",
        color: "#57606a")
      decade += 1
    }
    let references = [
      (chineseArticleEntriesPerSecond, "Chinese article: 1M in 30 s (iPhone 6S Plus)"),
      (twoGISEntriesPerSecond, "2GIS: 2M in 10 s (2017 iPhone)"),
    ]
    // Value labels are drawn last, over the reference lines, which lie over the bars.
    var valueLabels: [(x: Double, y: Double, text: String)] = []
    for (index, summary) in summaries.enumerated() {
      let y = axisTop + Double(index) * rowHeight
      let color = summary.isBaseline ? baselineColor : ourColor
      svg.text(leftMargin - 10, y + rowHeight / 2 + 4, summary.strategy, size: 13, anchor: "end")
      guard let median = summary.medianEntriesPerSecond else {
        svg.text(
          leftMargin + 6, y + rowHeight / 2 + 4,
          "no completed run (\(summary.failures.joined(separator: ", ")))", size: 12,
          color: limitColor)
        continue
      }
      svg.rect(leftMargin, y + 7, xRate(median) - leftMargin, rowHeight - 14, fill: color)
      if let low = summary.minimumEntriesPerSecond, let high = summary.maximumEntriesPerSecond {
        let middle = y + rowHeight / 2
        svg.line(xRate(low), middle, xRate(high), middle, color: "#24292f", width: 1.5)
        svg.line(xRate(low), middle - 6, xRate(low), middle + 6, color: "#24292f", width: 1.5)
        svg.line(xRate(high), middle - 6, xRate(high), middle + 6, color: "#24292f", width: 1.5)
      }
      // A value label never straddles a reference line: it moves past the line instead.
      let label = CountText.rate(median) + "/s"
      let labelX = ChartLabels.clear(
        of: references.map { xRate($0.0) },
        startingAt: max(xRate(summary.maximumEntriesPerSecond ?? median), xRate(median)) + 8,
        width: ChartLabels.estimatedWidth(label, size: 12))
      valueLabels.append((labelX, y + rowHeight / 2 + 4, label))
    }
    // The articles' figures as reference lines.
    for (row, (rate, label)) in references.enumerated() {
      let x = xRate(rate)
      let labelY = axisTop - 22 + Double(row) * 14
      svg.line(x, labelY + 3, x, axisBottom, color: "#9a6700", width: 1.5, dash: "5,4")
      svg.text(x + 4, labelY, label, size: 11, color: "#9a6700")
    }
    for label in valueLabels { svg.text(label.x, label.y, label.text, size: 12) }

    return axisBottom
  }

  /// The footprint panel from `top` down: each strategy's median footprint peak as a bar with
  /// its min–max whisker, against the memory limit, on a linear scale.
  private static func footprintPanel(
    _ svg: inout SVGWriter, summaries: [StrategySummary], top: Double, plotWidth: Double
  ) {
    svg.text(
      20, top,
      "Footprint peak: RssAnon + RssShmem (median, bar; min–max, whisker) vs the memory limit",
      size: 14, weight: "bold")
    let limit = Double(summaries.first?.memoryLimitBytes ?? 0)
    let footprints = summaries.compactMap(\.maximumFootprintBytes).map(Double.init)
    let scaleMax = max(limit, footprints.max() ?? 0) * 1.15
    func xBytes(_ bytes: Double) -> Double { leftMargin + bytes / max(scaleMax, 1) * plotWidth }
    let footprintTop = top + 20
    let footprintBottom = footprintTop + Double(summaries.count) * rowHeight
    let step = niceStep(scaleMax / 6)
    var tick = 0.0
    while tick <= scaleMax {
      let x = xBytes(tick)
      svg.line(x, footprintTop, x, footprintBottom, color: "#d0d7de")
      svg.text(
        x, footprintBottom + 16, ByteCount.format(Int(tick)), size: 11, anchor: "middle",
        color: "#57606a")
      tick += step
    }
    for (index, summary) in summaries.enumerated() {
      let y = footprintTop + Double(index) * rowHeight
      let color = summary.isBaseline ? baselineColor : ourColor
      svg.text(leftMargin - 10, y + rowHeight / 2 + 4, summary.strategy, size: 13, anchor: "end")
      guard let median = summary.medianFootprintBytes else { continue }
      svg.rect(leftMargin, y + 7, xBytes(median) - leftMargin, rowHeight - 14, fill: color)
      if let low = summary.minimumFootprintBytes, let high = summary.maximumFootprintBytes {
        let middle = y + rowHeight / 2
        svg.line(
          xBytes(Double(low)), middle, xBytes(Double(high)), middle, color: "#24292f", width: 1.5)
        svg.line(
          xBytes(Double(low)), middle - 6, xBytes(Double(low)), middle + 6, color: "#24292f",
          width: 1.5)
        svg.line(
          xBytes(Double(high)), middle - 6, xBytes(Double(high)), middle + 6, color: "#24292f",
          width: 1.5)
      }
      var label = ByteCount.format(Int(median))
      if !summary.failures.isEmpty { label += " (\(summary.failures.joined(separator: ", ")))" }
      svg.text(
        xBytes(Double(summary.maximumFootprintBytes ?? Int(median))) + 8, y + rowHeight / 2 + 4,
        label, size: 12)
    }
    if limit > 0 {
      let x = xBytes(limit)
      svg.line(x, footprintTop - 6, x, footprintBottom, color: limitColor, width: 2, dash: "6,4")
      svg.text(
        x + 4, footprintTop - 8, "memory limit \(ByteCount.format(Int(limit)))", size: 11,
        color: limitColor)
    }
  }

  /// 1, 2 or 5 times a power of two's worth of bytes (256 KiB, 512 KiB, 1 MiB, …).
  static func niceStep(_ raw: Double) -> Double {
    var step = 1024.0
    while step < raw { step *= 2 }
    return step
  }
}
