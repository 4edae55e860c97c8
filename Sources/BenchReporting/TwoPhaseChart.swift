import BenchMeasuring
import Foundation
import ProcessMetrics

/// Two-phase runs drawn as what a user waits for: per repeat, a timeline from the Settings switch
/// (0 s) to the seed set committed (the extension is enabled and a lookup answers) and on to the
/// full set committed, then the incremental sync after it, against the time-to-enabled target.
/// Throughput bars would hide that phase one exists to be short.
public enum TwoPhaseChart {
  static let width = 980.0
  static let leftMargin = 150.0
  static let rightMargin = 40.0
  static let rowHeight = 26.0
  static let seedColor = "#1f6feb"
  static let fullColor = "#54aeff"
  static let chunkColor = "#8250df"
  static let incrementalColor = "#2da44e"
  static let targetColor = "#cf222e"

  /// The chart of `records` (the rows of `bench two-phase`), titled `title`, with the median
  /// time-to-enabled target in seconds.
  public static func svg(records: [RunRecord], title: String, targetSeconds: Double?) -> String {
    let containers = records.map(\.strategy).reduce(into: [String]()) {
      if !$0.contains($1) { $0.append($1) }
    }
    let repeats = records.map(\.repeatIndex).max() ?? 0
    let rows = containers.flatMap { container in (1...max(repeats, 1)).map { (container, $0) } }
    func row(_ container: String, _ repeatIndex: Int, _ phase: String) -> RunRecord? {
      records.first {
        $0.strategy == container && $0.repeatIndex == repeatIndex && $0.phase == phase
      }
    }
    // Each row: enabled at t1, phase two at t2, the chunks past the cap until t3, then the
    // incremental sync's wall time after t3.
    func allInstalled(_ container: String, _ repeatIndex: Int) -> Double? {
      records.first {
        $0.strategy == container && $0.repeatIndex == repeatIndex && $0.timeToAllSeconds != nil
      }?.timeToAllSeconds
    }
    var longest = targetSeconds ?? 0
    for (container, index) in rows {
      let full = row(container, index, "full")?.timeToFullSeconds ?? 0
      let all = max(full, allInstalled(container, index) ?? full)
      longest = max(longest, all + (row(container, index, "incremental")?.wallSeconds ?? 0))
    }
    let step = Self.niceStep(max(longest, 0.001) / 6)
    let axisEnd = (longest / step).rounded(.up) * step
    let plotWidth = width - leftMargin - rightMargin
    func x(_ seconds: Double) -> Double { leftMargin + seconds / axisEnd * plotWidth }
    let top = 104.0
    let height = top + Double(rows.count) * rowHeight + 70
    var svg = SVGWriter(width: width, height: height)
    svg.text(20, 30, title, size: 18, weight: "bold")
    svg.text(20, 52, subtitle(records), size: 12, color: "#57606a")
    // The chunks' item only where a run went past the cap: a legend names what is drawn.
    let hasChunks = records.contains { $0.phase == "chunk" }
    svg.legend(
      x: 20, y: 78,
      items: [
        ("until enabled (seed set)", seedColor), ("until the full set", fullColor),
        hasChunks ? ("chunks past the cap", chunkColor) : nil,
        ("incremental sync", incrementalColor),
      ].compactMap { $0 })
    let bottom = top + Double(rows.count) * rowHeight
    for tick in stride(from: 0, through: axisEnd + step / 2, by: step) {
      svg.line(x(tick), top - 6, x(tick), bottom, color: "#d0d7de", dash: "3 3")
      svg.text(
        x(tick), bottom + 16, String(format: step < 0.1 ? "%.2f s" : "%.1f s", tick),
        size: 11, anchor: "middle")
    }
    svg.text(
      leftMargin + plotWidth / 2, bottom + 34, "seconds since the Settings switch", size: 11,
      anchor: "middle", color: "#57606a")
    for (offset, (container, index)) in rows.enumerated() {
      let y = top + Double(offset) * rowHeight
      let label = containers.count > 1 ? "\(container) #\(index)" : "repeat \(index)"
      svg.text(leftMargin - 8, y + 15, label, size: 12, anchor: "end")
      guard let seed = row(container, index, "seed"), let enabled = seed.timeToEnabledSeconds
      else {
        svg.text(leftMargin + 4, y + 15, "no seed phase", size: 11, color: targetColor)
        continue
      }
      if seed.status != .ok {
        svg.text(
          leftMargin + 4, y + 15, "seed \(seed.status.rawValue)", size: 11, color: targetColor)
        continue
      }
      svg.rect(x(0), y + 5, x(enabled) - x(0), 14, fill: seedColor)
      if let fullRow = row(container, index, "full"), fullRow.status == .ok,
        let full = fullRow.timeToFullSeconds
      {
        svg.rect(x(enabled), y + 5, x(full) - x(enabled), 14, fill: fullColor)
        let all = max(full, allInstalled(container, index) ?? full)
        if all > full { svg.rect(x(full), y + 5, x(all) - x(full), 14, fill: chunkColor) }
        if let incremental = row(container, index, "incremental"), incremental.status == .ok {
          svg.rect(
            x(all), y + 5, x(all + incremental.wallSeconds) - x(all), 14,
            fill: incrementalColor)
        }
      }
    }
    if let targetSeconds, targetSeconds <= axisEnd {
      svg.line(x(targetSeconds), top - 10, x(targetSeconds), bottom, color: targetColor, width: 2)
      svg.text(
        x(targetSeconds) + 4, top - 12, String(format: "target: enabled in %.1f s", targetSeconds),
        size: 11, color: targetColor)
    }
    return svg.finish()
  }

  /// 1, 2 or 5 times a power of ten, at least `raw`: ticks people read at a glance.
  static func niceStep(_ raw: Double) -> Double {
    let power = pow(10, floor(log10(raw)))
    return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= raw } ?? 10 * power
  }

  /// What was loaded, with real counts: each container's phases (medians), repeats, commit.
  /// A sweep (`--regions 3,300`) names each container's figures, not the first one's.
  static func subtitle(_ records: [RunRecord]) -> String {
    var containers: [String] = []
    for record in records where !containers.contains(record.strategy) {
      containers.append(record.strategy)
    }
    let parts = containers.map { container in
      let own = records.filter { $0.strategy == container }
      func entries(_ phase: String) -> String {
        let counts = own.filter { $0.phase == phase && $0.status == .ok }.map(\.entries)
        return counts.max().map { CountText.decimal(Double($0)) } ?? "–"
      }
      let name =
        container.hasPrefix("two-phase-r")
        ? "\(container.dropFirst("two-phase-r".count)) regions" : container
      // Several extensions: the counts are each one's.
      let extensions = TwoPhaseReport.extensionCount(own)
      let each = extensions > 1 ? "\(extensions) extensions, each at most: " : ""
      // A sweep's line holds every container's figures, so each is said in fewer words.
      guard containers.count == 1 else {
        return
          "\(name): \(each)seed \(entries("seed")), full \(entries("full")), incremental \(entries("incremental"))"
      }
      return each
        + "seed set \(entries("seed")) entries · full set \(entries("full")) · incremental \(entries("incremental")) changes"
    }
    let first = records.first
    return
      (parts + [
        "\(records.map(\.repeatIndex).max() ?? 0) repeats",
        first.map { "commit \($0.commit.isEmpty ? "–" : $0.commit)" } ?? "",
        first.map { "host \($0.host)" } ?? "",
      ]).filter { !$0.isEmpty }.joined(separator: " · ")
  }
}
