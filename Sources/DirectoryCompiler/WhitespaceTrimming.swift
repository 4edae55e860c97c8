extension String {
  /// The string without leading and trailing whitespace as Foundation's `.whitespaces` means it
  /// (tab and Unicode's space separators: space, no-break space, the typographic spaces).
  /// Foundation's `trimmingCharacters(in:)` bridges through NSString and was over a third of a
  /// compile's instructions; this returns the string itself when there is nothing to trim.
  func trimmingWhitespace() -> String {
    let scalars = unicodeScalars
    guard let first = scalars.first, let last = scalars.last else { return self }
    if !Self.isWhitespace(first) && !Self.isWhitespace(last) { return self }
    guard let start = scalars.firstIndex(where: { !Self.isWhitespace($0) }) else { return "" }
    let end = scalars.lastIndex(where: { !Self.isWhitespace($0) })!
    return String(scalars[start...end])
  }

  /// Tab and Unicode's space separators (general category Zs, a set Unicode keeps stable),
  /// listed: looking the category up was most of the cost of trimming a Cyrillic label.
  private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x20, 0x09, 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: true
    default: false
    }
  }
}
