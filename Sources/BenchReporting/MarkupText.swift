import BenchMeasuring

/// Text made safe inside SVG and HTML, elements and attributes alike: the five markup
/// characters escaped, and control characters (which XML 1.0 does not allow, even escaped)
/// shown as U+FFFD. A label holding one made a chart invalid XML (issue 39, item 13).
enum MarkupText {
  static func escaped(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&#39;"
      case _
      where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
        || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
        escaped += "\u{FFFD}"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// A coordinate or a size as SVG writes it, one decimal; a value that is not finite (a bug
  /// upstream: rows are checked when read) is drawn at 0 rather than as `nan`.
  static func coordinate(_ value: Double) -> String {
    value.isFinite ? String(format: "%.1f", value) : "0.0"
  }
}
