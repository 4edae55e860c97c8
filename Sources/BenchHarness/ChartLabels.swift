/// Labels every chart writes the same way.
enum ChartLabels {
  /// A count in one style for every axis: 50k, 1.5M, 10 MB (decimal prefixes, no trailing
  /// zeros).
  static func decimal(_ value: Double, unit: String = "") -> String {
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
}
