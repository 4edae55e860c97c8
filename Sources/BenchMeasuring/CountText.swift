import Foundation

/// Counts written one way everywhere the harness prints or draws them.
public enum CountText {
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

  /// A rate in entries per second as the tables print it: 1.25 M, 310.5 k, 950; "–" for none.
  public static func rate(_ value: Double?) -> String {
    guard let value else { return "–" }
    if value >= 1e6 { return String(format: "%.2f M", value / 1e6) }
    if value >= 1e3 { return String(format: "%.1f k", value / 1e3) }
    return String(format: "%.0f", value)
  }
}
