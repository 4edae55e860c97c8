/// Labels every chart writes the same way.
public enum ChartLabels {
  /// A count in one style for every axis: 50k, 1.5M, 10 MB (decimal prefixes, no trailing
  /// zeros).
  public static func decimal(_ value: Double, unit: String = "") -> String {
    let (scaled, prefix): (Double, String) =
      switch value {
      case 1e9...: (value / 1e9, "G")
      case 1e6...: (value / 1e6, "M")
      case 1e3...: (value / 1e3, "k")
      default: (value, "")
      }
    var number = String(format: "%.2f", scaled)
    while number.hasSuffix("0") { number.removeLast() }
    if number.hasSuffix(".") { number.removeLast() }
    return unit.isEmpty ? number + prefix : "\(number) \(prefix)\(unit)"
  }

  /// About how wide `text` is drawn at `size` px in the charts' sans-serif fonts: 0.57 em a
  /// character (digits and lower case are 0.5–0.6 em), erring wide.
  static func estimatedWidth(_ text: String, size: Double) -> Double {
    Double(text.count) * size * 0.57
  }

  /// Where a label `width` px wide that would start at `x` starts so that no vertical line in
  /// `lines` runs through it: past the last line it would cross, 6 px clear.
  static func clear(of lines: [Double], startingAt x: Double, width: Double) -> Double {
    var start = x
    for line in lines.sorted() where line >= start - 3 && line <= start + width + 3 {
      start = line + 6
    }
    return start
  }
}
