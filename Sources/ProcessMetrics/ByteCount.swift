/// Sizes written the way people write them: `5MiB`, `512KiB`, `1.5GiB`, `5MB`, `1048576`.
public enum ByteCount {
  /// Binary (KiB, MiB, GiB, and the bare K, M, G) and decimal (KB, MB, GB) units.
  static let units: [(suffix: String, factor: Double)] = [
    ("KiB", 1024), ("MiB", 1024 * 1024), ("GiB", 1024 * 1024 * 1024),
    ("KB", 1000), ("MB", 1_000_000), ("GB", 1_000_000_000),
    ("K", 1024), ("M", 1024 * 1024), ("G", 1024 * 1024 * 1024), ("B", 1),
  ]

  /// Parses a size into bytes.
  /// - Throws: ``ByteCountError`` naming the text when it is not a size.
  public static func parse(_ text: String) throws(ByteCountError) -> Int {
    let trimmed = trimmingSpaces(Substring(text))
    var number = trimmed
    var factor = 1.0
    for unit in units where trimmed.hasSuffix(unit.suffix) {
      number = trimmed.dropLast(unit.suffix.count)
      factor = unit.factor
      break
    }
    guard let value = Double(trimmingSpaces(number)), value.isFinite,
      value >= 0, value * factor < Double(Int.max),
      number.allSatisfy({ $0.isNumber || $0 == "." || $0 == " " })
    else { throw ByteCountError(text: text) }
    return Int((value * factor).rounded())
  }

  /// A size for people: `1.2 MiB`, `640 KiB`, `512 B`.
  public static func format(_ bytes: Int) -> String {
    let magnitude = Double(abs(bytes))
    let sign = bytes < 0 ? "-" : ""
    if magnitude >= 1024 * 1024 * 1024 { return sign + decimal(magnitude / 1_073_741_824) + " GiB" }
    if magnitude >= 1024 * 1024 { return sign + decimal(magnitude / 1_048_576) + " MiB" }
    if magnitude >= 1024 { return sign + decimal(magnitude / 1024) + " KiB" }
    return "\(bytes) B"
  }

  private static func trimmingSpaces(_ text: Substring) -> Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = text.firstIndex(where: { !isSpace($0) }),
      let last = text.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return text[first...last]
  }

  private static func decimal(_ value: Double) -> String {
    value >= 100 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
  }
}

/// Text that is not a size.
public struct ByteCountError: Error, CustomStringConvertible {
  /// The text given.
  public let text: String
  public var description: String {
    "invalid size '\(text)': expected a number with an optional unit, such as 512KiB, 5MiB or 5MB"
  }
}
