import BenchMeasuring
import Foundation

/// `calldir history report`: one self-contained HTML file (inline SVG and CSS, no script, no
/// network) that a person reads in a minute: the changes found, a trend per metric and strategy
/// with its change points marked at their commits, the last commits, and the environments.
/// Small as history grows: a trend is one polyline (about 12 bytes a commit), so 500 commits ×
/// 50 series stay near 0.4 MB.
public enum HistoryReport {
  /// Trend size, in CSS pixels.
  static let width = 720.0
  static let height = 140.0
  static let margin = (left: 64.0, right: 12.0, top: 12.0, bottom: 24.0)
  /// The longest series whose points get a marker each (longer ones would weigh the page down:
  /// 500 commits × 50 series of markers is over a megabyte).
  static let maximumMarkedPoints = 60

  /// The report's HTML.
  /// - Parameters:
  ///   - commits: the history's commits, oldest first.
  ///   - series: each metric and strategy's figures over the commits.
  ///   - changes: the change points found in them.
  ///   - lastCommits: how many of the newest commits the table lists.
  public static func html(
    commits: [BenchHistory.Commit], series: [BenchHistory.Series], changes: [ChangePoint],
    lastCommits: Int = 20
  ) -> String {
    var page = """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8">
      <title>calldir bench history</title>
      <style>
      body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:980px}
      h1{font-size:20px}h2{font-size:16px;margin-top:28px}
      table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:left}
      td.n{text-align:right;font-variant-numeric:tabular-nums}
      .up{color:#b00020}.down{color:#1b7f3b}.muted{color:#777}
      svg{display:block;margin:4px 0 12px}
      </style></head><body>
      <h1>calldir bench history</h1>

      """
    let first = commits.first.map { String($0.sha.prefix(12)) } ?? "–"
    let last = commits.last.map { String($0.sha.prefix(12)) } ?? "–"
    page += "<p>\(commits.count) commits (\(first) … \(last)), \(series.count) series. "
    page += "Change points: exact steps for deterministic counts, optimal partitioning for noisy "
    page += "figures (the BenchReporting documentation, “CI history”).</p>\n"
    page += changesTable(changes)
    page += "<h2>Trends</h2>\n"
    for one in series {
      let marked = changes.filter { $0.metric == one.metric && $0.strategy == one.strategy }
      page += "<h3>\(escape(one.metric)) — \(escape(one.strategy))"
      page +=
        one.isDeterministic
        ? " <span class=muted>(deterministic)</span>"
        : " <span class=muted>(each commit's fastest repeat)</span>"
      page += "</h3>\n" + trend(one, changes: marked, commits: commits) + "\n"
    }
    page += recentTable(commits.suffix(lastCommits), series: series)
    page += environmentsTable(commits)
    page += "</body></html>\n"
    return page
  }

  private static func changesTable(_ changes: [ChangePoint]) -> String {
    guard !changes.isEmpty else { return "<h2>Changes</h2><p>None found.</p>\n" }
    var html = "<h2>Changes</h2>\n<table><tr><th>metric</th><th>strategy</th><th>where</th>"
    html += "<th>change</th><th>before → after</th><th></th></tr>\n"
    for change in changes {
      let style = change.isRegression ? "up" : "down"
      html += "<tr><td>\(escape(change.metric))</td><td>\(escape(change.strategy))</td>"
      html += "<td>\(escape(change.place))</td>"
      html +=
        "<td class=\"n \(style)\">\(String(format: "%+.2f%%", change.relativeChange * 100))</td>"
      html += "<td class=n>\(BenchHistoryFormat.figure(change.before, metric: change.metric)) → "
      html += "\(BenchHistoryFormat.figure(change.after, metric: change.metric))</td>"
      html += "<td>\(change.environmentChanged ? "environment changed" : "")</td></tr>\n"
    }
    return html + "</table>\n"
  }

  /// One series as an SVG line over the history's commits, change points as labelled lines.
  static func trend(
    _ series: BenchHistory.Series, changes: [ChangePoint], commits: [BenchHistory.Commit]
  ) -> String {
    let values = series.points.map(\.figure.trendValue)
    guard let low = values.min(), let high = values.max(), !commits.isEmpty else { return "" }
    let span = high > low ? high - low : max(abs(high) * 0.01, 1e-12)
    let plotWidth = width - margin.left - margin.right
    let plotHeight = height - margin.top - margin.bottom
    let positions = Dictionary(
      commits.enumerated().map { ($1.sha, $0) }, uniquingKeysWith: { first, _ in first })
    let steps = Double(max(commits.count - 1, 1))
    func x(_ sha: String) -> Double {
      margin.left + plotWidth * Double(positions[sha] ?? 0) / steps
    }
    func y(_ value: Double) -> Double {
      guard high > low else { return margin.top + plotHeight / 2 }  // one value: level, mid-way
      return margin.top + plotHeight * (1 - (value - low) / span)
    }
    var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" "
    svg += "height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
    svg += "<rect x=\"\(margin.left)\" y=\"\(margin.top)\" width=\"\(plotWidth)\" "
    svg += "height=\"\(plotHeight)\" fill=\"#fafafa\" stroke=\"#ddd\"/>"
    for change in changes {
      let left = x(change.firstCommit.sha)
      let right = x(change.lastCommit.sha)
      let color = change.isRegression ? "#b00020" : "#1b7f3b"
      if right > left {
        svg += "<rect x=\"\(format(left))\" y=\"\(margin.top)\" width=\"\(format(right - left))\" "
        svg += "height=\"\(plotHeight)\" fill=\"\(color)\" opacity=\"0.12\"/>"
      }
      let at = x(change.commit.sha)
      svg += "<line x1=\"\(format(at))\" x2=\"\(format(at))\" y1=\"\(margin.top)\" "
      svg += "y2=\"\(margin.top + plotHeight)\" stroke=\"\(color)\" stroke-dasharray=\"3 2\"/>"
      // In the right half the label ends at the line, so one at the newest commit (where a
      // regression is flagged) stays inside the chart instead of being cut at its edge.
      let endsAtLine = at > margin.left + plotWidth / 2
      svg += "<text x=\"\(format(endsAtLine ? at - 3 : at + 3))\" y=\"\(margin.top + 11)\" "
      svg += "font-size=\"10\"\(endsAtLine ? " text-anchor=\"end\"" : "") "
      svg += "fill=\"\(color)\">\(escape(String(change.commit.sha.prefix(7)))) "
      svg += "\(String(format: "%+.1f%%", change.relativeChange * 100))</text>"
    }
    let points = series.points.map {
      "\(format(x($0.commit.sha))),\(format(y($0.figure.trendValue)))"
    }
    svg += "<polyline fill=\"none\" stroke=\"#1f5fbf\" stroke-width=\"1.3\" points=\""
    svg += points.joined(separator: " ") + "\"/>"
    // A marker on each point of a short series: one point draws no line at all.
    if series.points.count <= maximumMarkedPoints {
      for point in points {
        let xy = point.split(separator: ",")
        svg += "<circle cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"2.5\" fill=\"#1f5fbf\"/>"
      }
    }
    let axis = { BenchHistoryFormat.axis($0, metric: series.metric) }
    if high > low {
      svg += "<text x=\"\(margin.left - 4)\" y=\"\(margin.top + 9)\" font-size=\"10\" "
      svg += "text-anchor=\"end\">\(escape(axis(high)))</text>"
      svg += "<text x=\"\(margin.left - 4)\" y=\"\(margin.top + plotHeight)\" font-size=\"10\" "
      svg += "text-anchor=\"end\">\(escape(axis(low)))</text>"
    } else {
      // One value (or one point): one label, level with it.
      svg += "<text x=\"\(margin.left - 4)\" y=\"\(format(y(low) + 3))\" font-size=\"10\" "
      svg += "text-anchor=\"end\">\(escape(axis(low)))</text>"
    }
    let bottom = height - 8
    svg += "<text x=\"\(margin.left)\" y=\"\(bottom)\" font-size=\"10\">"
    svg += "\(escape(String(commits.first!.sha.prefix(7))))</text>"
    svg += "<text x=\"\(width - margin.right)\" y=\"\(bottom)\" font-size=\"10\" "
    svg += "text-anchor=\"end\">\(escape(String(commits.last!.sha.prefix(7))))</text>"
    return svg + "</svg>"
  }

  private static func recentTable(
    _ commits: ArraySlice<BenchHistory.Commit>, series: [BenchHistory.Series]
  ) -> String {
    // The load time of each strategy, the figure a reader looks for first.
    let loads = series.filter { $0.metric == "load_s" }
    var html = "<h2>Last \(commits.count) commits</h2>\n<table><tr><th>#</th><th>commit</th>"
    html += "<th>branch</th><th>subject</th>"
    for one in loads { html += "<th>\(escape(one.strategy)) load s</th>" }
    html += "</tr>\n"
    for commit in commits.reversed() {
      html += "<tr><td class=n>\(commit.position)</td><td>\(escape(String(commit.sha.prefix(12))))"
      html +=
        "</td><td>\(escape(commit.branch))</td><td>\(escape(String(commit.subject.prefix(90))))</td>"
      for one in loads {
        let value = one.points.first { $0.commit.sha == commit.sha }?.figure.median
        html += "<td class=n>\(value.map(BenchHistoryFormat.number) ?? "–")</td>"
      }
      html += "</tr>\n"
    }
    return html + "</table>\n"
  }

  private static func environmentsTable(_ commits: [BenchHistory.Commit]) -> String {
    var html =
      "<h2>Environments</h2>\n<table><tr><th>from</th><th>commits</th><th>fingerprint</th></tr>\n"
    var runs: [(first: BenchHistory.Commit, count: Int)] = []
    for commit in commits {
      if let last = runs.last, last.first.environment == commit.environment {
        runs[runs.count - 1].count += 1
      } else {
        runs.append((commit, 1))
      }
    }
    for run in runs {
      html +=
        "<tr><td>\(escape(String(run.first.sha.prefix(12))))</td><td class=n>\(run.count)</td>"
      html += "<td>\(escape(run.first.environment))</td></tr>\n"
    }
    return html + "</table>\n"
  }

  static func format(_ value: Double) -> String { MarkupText.coordinate(value) }

  /// Text made safe inside HTML elements and attributes.
  static func escape(_ text: String) -> String { MarkupText.escaped(text) }
}
