import Foundation

/// The shapes a line chart marks its points with, one per series.
package enum MarkerShape: CaseIterable {
  case square, circle, triangle, diamond
}

/// A minimal SVG writer: just the elements the chart uses, with text escaped.
package struct SVGWriter {
  private var body = ""
  let width: Double
  let height: Double

  package init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  package mutating func text(
    _ x: Double, _ y: Double, _ content: String, size: Double, weight: String = "normal",
    anchor: String = "start", color: String = "#24292f"
  ) {
    // A white halo keeps labels readable where they cross grid or reference lines.
    body +=
      "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(f(size))\" font-weight=\"\(weight)\" text-anchor=\"\(anchor)\" fill=\"\(color)\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">\(escaped(content))</text>\n"
  }

  package mutating func line(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, color: String, width: Double = 1,
    dash: String? = nil
  ) {
    let dashAttribute = dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
    body +=
      "<line x1=\"\(f(x1))\" y1=\"\(f(y1))\" x2=\"\(f(x2))\" y2=\"\(f(y2))\" stroke=\"\(color)\" stroke-width=\"\(f(width))\"\(dashAttribute)/>\n"
  }

  package mutating func rect(
    _ x: Double, _ y: Double, _ width: Double, _ height: Double, fill: String
  ) {
    body +=
      "<rect x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(max(width, 1)))\" height=\"\(f(height))\" fill=\"\(fill)\" rx=\"2\"/>\n"
  }

  /// A point marker of `shape` centred on (`x`, `y`), about `size` px across: strategies whose
  /// lines coincide stay told apart by their markers.
  package mutating func marker(
    _ shape: MarkerShape, _ x: Double, _ y: Double, size: Double, color: String
  ) {
    let half = size / 2
    switch shape {
    case .square:
      rect(x - half, y - half, size, size, fill: color)
    case .circle:
      body +=
        "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"\(f(half + 1))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
    case .triangle:
      polygon([(x, y - half - 1), (x + half + 1, y + half), (x - half - 1, y + half)], fill: color)
    case .diamond:
      polygon(
        [(x, y - half - 1), (x + half + 1, y), (x, y + half + 1), (x - half - 1, y)], fill: color)
    }
  }

  private mutating func polygon(_ points: [(Double, Double)], fill: String) {
    let list = points.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ")
    body += "<polygon points=\"\(list)\" fill=\"\(fill)\"/>\n"
  }

  package mutating func legend(x: Double, y: Double, items: [(String, String)]) {
    var offset = x
    for (label, color) in items {
      rect(offset, y - 10, 14, 12, fill: color)
      text(offset + 20, y, label, size: 12)
      // 160 px per item, more for a long label (about 6.8 px a character at 12 px), so a label
      // never runs into the next item's swatch.
      offset += max(160, 20 + Double(label.count) * 6.8 + 24)
    }
  }

  package func finish() -> String {
    """
    <svg xmlns="http://www.w3.org/2000/svg" width="\(f(width))" height="\(f(height))" viewBox="0 0 \(f(width)) \(f(height))" font-family="-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif">
    <rect width="100%" height="100%" fill="#ffffff"/>
    \(body)</svg>

    """
  }

  private func f(_ value: Double) -> String { MarkupText.coordinate(value) }

  private func escaped(_ text: String) -> String { MarkupText.escaped(text) }
}
