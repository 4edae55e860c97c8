// Safe: the views made here wrap buffers lent by `withUnsafeBytes` or
// `withContiguousStorageIfAvailable`, and are used only inside the closure that lends them.

/// Checks and trims UTF-8 text held as bytes, without making a `String` of it: the compiler's
/// rows stay bytes from the input file to the base, and making a `String` per field (to check
/// it, or to trim it) was a fifth of a compile's instructions.
@usableFromInline package enum UTF8Validation {
  /// Whether the bytes `view` shows are well-formed UTF-8 (no overlong forms, surrogates or
  /// values past U+10FFFF), as `String(validating:as:)` decides.
  @usableFromInline package static func isValid(_ view: ByteView) -> Bool {
    // ASCII and two-byte characters first (Latin, Cyrillic, Greek, Hebrew, Arabic: most
    // labels are written in them); the general check from the first other lead byte. The
    // standard library's validator took 450 instructions a Cyrillic row of a dump (callgrind).
    var index = 0
    let count = view.count
    while index < count {
      let lead = view[index]
      if lead < 0x80 {
        // Eight ASCII bytes at a time where they run on (digits, Latin text): one checked load
        // for eight checked reads.
        if count - index >= 8,
          view.loadLittleEndian(UInt64.self, at: index) & 0x8080_8080_8080_8080 == 0
        {
          index += 8
        } else {
          index += 1
        }
      } else if lead >= 0xC2 && lead <= 0xDF && index + 1 < count && view[index + 1] & 0xC0 == 0x80
      {
        index += 2
      } else {
        break
      }
    }
    if index == count { return true }
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      // The standard library's validator, without building the string (2.5 times faster), on
      // the rest only: the prefix checked above ends before a lead byte.
      return unsafe view.withContiguousStorageIfAvailable {
        unsafe (try? UTF8Span(validating: $0.extracting(index...).span)) != nil
      } ?? false
    }
    // Before iOS 26 and macOS 26 the standard library validates only while it builds a string
    // (`String(validating:as:)`, itself iOS 18 and macOS 15): a scan by hand, Unicode's
    // well-formed byte sequences (table 3-7), builds none.
    return isWellFormed(view, from: index)
  }

  /// Unicode's table 3-7 of well-formed UTF-8 byte sequences, from `start` on.
  static func isWellFormed(_ units: ByteView, from start: Int) -> Bool {
    var index = start
    while index < units.count {
      let lead = units[index]
      let length: Int
      var second: ClosedRange<UInt8> = 0x80...0xBF
      switch lead {
      case 0x00...0x7F:
        index += 1
        continue
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, second) = (3, 0xA0...0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: (length, second) = (3, 0x80...0x9F)
      case 0xF0: (length, second) = (4, 0x90...0xBF)
      case 0xF1...0xF3: length = 4
      case 0xF4: (length, second) = (4, 0x80...0x8F)
      default: return false
      }
      guard index + length <= units.count, second.contains(units[index + 1]) else { return false }
      for offset in 2..<length where !(0x80...0xBF).contains(units[index + offset]) {
        return false
      }
      index += length
    }
    return true
  }

  /// ``trimmingWhitespace(_:)-(ByteView)`` of a string's bytes, as a string.
  @usableFromInline package static func trimmingWhitespace(_ text: String) -> String {
    var text = text
    return text.withUTF8 {
      unsafe String(decoding: trimmingWhitespace(ByteView($0)), as: UTF8.self)
    }
  }

  /// `bytes` without leading and trailing whitespace: tab and Unicode's space separators
  /// (general category Zs, a set Unicode keeps stable: space, no-break space, the typographic
  /// spaces), as Foundation's `.whitespaces` means it. `bytes` must be valid UTF-8.
  @usableFromInline package static func trimmingWhitespace(_ bytes: ByteView) -> ByteView {
    // Most fields start and end with a printable ASCII byte (0x21...0x7F: no whitespace).
    if let first = bytes.first, let last = bytes.last, first &- 0x21 < 0x5F, last &- 0x21 < 0x5F {
      return bytes
    }
    var start = 0
    var end = bytes.count
    while start < end, let width = whitespaceWidth(bytes, startingAt: start) { start += width }
    while end > start, let width = whitespaceWidth(bytes, endingAt: end) { end -= width }
    return bytes.rebased(start..<end)
  }

  /// The byte length of the whitespace character starting at `index`, or nil.
  private static func whitespaceWidth(_ bytes: ByteView, startingAt index: Int)
    -> Int?
  {
    let lead = bytes[index]
    if lead == 0x20 || lead == 0x09 { return 1 }
    let width = lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
    guard width > 1, index + width <= bytes.count else { return nil }
    return isWhitespace(scalar(bytes, from: index, width: width)) ? width : nil
  }

  /// The byte length of the whitespace character ending just before `end`, or nil.
  private static func whitespaceWidth(_ bytes: ByteView, endingAt end: Int) -> Int? {
    let last = bytes[end - 1]
    if last == 0x20 || last == 0x09 { return 1 }
    // The Zs characters past ASCII are two bytes (U+00A0) or three (the rest).
    for width in 2...3 where end - width >= 0 {
      let lead = bytes[end - width]
      if (width == 2 && lead & 0xE0 == 0xC0) || (width == 3 && lead & 0xF0 == 0xE0) {
        return isWhitespace(scalar(bytes, from: end - width, width: width)) ? width : nil
      }
    }
    return nil
  }

  private static func scalar(_ bytes: ByteView, from index: Int, width: Int)
    -> UInt32
  {
    var value = UInt32(bytes[index]) & (width == 2 ? 0x1F : 0x0F)
    for offset in 1..<width { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
    return value
  }

  private static func isWhitespace(_ value: UInt32) -> Bool {
    switch value {
    case 0x20, 0x09, 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: true
    default: false
    }
  }
}

extension String {
  /// The string the bytes `view` shows spell, or nil when they are not well-formed UTF-8: what
  /// `String(validating:as:)` does, which is iOS 18 and macOS 15 (calldir builds for iOS 16 and
  /// macOS 13). Validated by ``UTF8Validation/isValid(_:)``, then decoded without repairs.
  @usableFromInline package init?(validatingUTF8Bytes view: ByteView) {
    guard UTF8Validation.isValid(view) else { return nil }
    self.init(decoding: view, as: UTF8.self)
  }

  /// ``init(validatingUTF8Bytes:)-(ByteView)`` over any bytes: in place when they are
  /// contiguous (an array, a slice of a buffer), else through a copy.
  @usableFromInline package init?(validatingUTF8Bytes bytes: some Collection<UInt8>) {
    let inPlace = bytes.withContiguousStorageIfAvailable {
      unsafe String(validatingUTF8Bytes: ByteView($0))
    }
    guard let text = inPlace ?? String(validatingUTF8Bytes: Array(bytes)) else { return nil }
    self = text
  }

  /// ``init(validatingUTF8Bytes:)-(ByteView)`` over an array's bytes.
  @usableFromInline package init?(validatingUTF8Bytes bytes: [UInt8]) {
    guard
      let text = unsafe bytes.withUnsafeBytes({ unsafe String(validatingUTF8Bytes: ByteView($0)) })
    else {
      return nil
    }
    self = text
  }
}
