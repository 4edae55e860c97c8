/// Comparisons without case of a plan's values with a filter's terms, made for rows read by the
/// million: ASCII text is folded byte by byte as it is compared, with no lowercased copy;
/// other text (Cyrillic regions, accented names) is lowercased as Swift lowercases it.
enum CaseFolding {
  /// `byte` with ASCII's A–Z made a–z.
  @inline(__always)
  static func folded(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
  }

  /// Whether `text` is `lowercased` (a term already lowercased), without case.
  static func equal(_ text: String, _ lowercased: String) -> Bool {
    guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.lowercased() == lowercased }
    return text.utf8.count == lowercased.utf8.count
      && zip(text.utf8, lowercased.utf8).allSatisfy { folded($0) == $1 }
  }

  /// Whether `text` holds `lowercased` (a term already lowercased), without case.
  static func contains(_ text: String, _ lowercased: String) -> Bool {
    let haystack = text.utf8
    guard haystack.allSatisfy({ $0 < 0x80 }) else { return text.lowercased().contains(lowercased) }
    let needle = lowercased.utf8
    guard !needle.isEmpty else { return false }  // as String.contains("") answers
    var start = haystack.startIndex
    while let end = haystack.index(start, offsetBy: needle.count, limitedBy: haystack.endIndex) {
      if zip(haystack[start..<end], needle).allSatisfy({ folded($0) == $1 }) { return true }
      start = haystack.index(after: start)
    }
    return false
  }
}
