import ByteCoding

/// One character of a written number as the reader classes it: a digit of any script, a plus
/// sign, a separator libphonenumber skips, an ASCII letter, or anything else. The classes come
/// from ``GeneratedWrittenCharacters`` (Unicode's decimal digits, libphonenumber's punctuation),
/// so no list is kept by hand.
enum WrittenCharacter: Equatable {
  /// A decimal digit of any script (Unicode category Nd), as its value 0 to 9.
  case digit(UInt8)
  /// '+' or the full-width '＋'.
  case plus
  /// A character skipped between digits: spaces, dashes, dots, slashes, brackets, and their
  /// full-width and ideographic forms.
  case separator
  /// An ASCII letter, uppercased: a vanity number's letter or an extension label's.
  case letter(UInt8)
  /// Anything else (the scalar is kept for messages and labels).
  case other(UInt32)

  /// The character starting at byte `index` of `text` and its length in bytes. Bytes that are
  /// not UTF-8 read as one `other` byte each, so a scan always moves on.
  @inline(__always)
  static func read(_ text: ByteView, at index: Int) -> (Self, Int) {
    let byte = text[index]
    if byte < 0x80 { return (ascii(byte), 1) }
    let (scalar, length) = decode(text, at: index)
    return (nonASCII(scalar), length)
  }

  @inline(__always)
  private static func ascii(_ byte: UInt8) -> Self {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return .digit(byte &- UInt8(ascii: "0"))
    case UInt8(ascii: "+"): return .plus
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): return .letter(byte)
    case UInt8(ascii: "a")...UInt8(ascii: "z"): return .letter(byte &- 0x20)
    default:
      return asciiSeparators[Int(byte)] ? .separator : .other(UInt32(byte))
    }
  }

  private static let asciiSeparators: [Bool] = (0..<128).map {
    GeneratedWrittenCharacters.asciiSeparators.contains(UInt8($0))
  }

  private static func nonASCII(_ scalar: UInt32) -> Self {
    if let value = decimalDigitValue(scalar) { return .digit(value) }
    if GeneratedWrittenCharacters.plusSigns.contains(scalar) { return .plus }
    if contains(GeneratedWrittenCharacters.separators, scalar) { return .separator }
    return .other(scalar)
  }

  /// The value of a Unicode decimal digit, nil for any other scalar.
  static func decimalDigitValue(_ scalar: UInt32) -> UInt8? {
    let zeros = GeneratedWrittenCharacters.decimalDigitZeros
    // The last run whose zero is at or below the scalar.
    var low = 0
    var high = zeros.count
    while low < high {
      let middle = (low + high) / 2
      if zeros[middle] <= scalar { low = middle + 1 } else { high = middle }
    }
    guard low > 0, scalar - zeros[low - 1] < 10 else { return nil }
    return UInt8(scalar - zeros[low - 1])
  }

  private static func contains(_ sorted: [UInt32], _ scalar: UInt32) -> Bool {
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] == scalar { return true }
      if sorted[middle] < scalar { low = middle + 1 } else { high = middle }
    }
    return false
  }

  /// The scalar starting at byte `index` and its length; (U+FFFD, 1) for a byte that does not
  /// start a well-formed, shortest-form sequence (so an overlong '5' is not a digit).
  static func decode(_ text: ByteView, at index: Int) -> (UInt32, Int) {
    let lead = text[index]
    let length: Int
    let minimum: UInt32
    var scalar: UInt32
    switch lead {
    case 0x00..<0x80: return (UInt32(lead), 1)
    case 0xC2...0xDF: (length, minimum, scalar) = (2, 0x80, UInt32(lead & 0x1F))
    case 0xE0...0xEF: (length, minimum, scalar) = (3, 0x800, UInt32(lead & 0x0F))
    case 0xF0...0xF4: (length, minimum, scalar) = (4, 0x1_0000, UInt32(lead & 0x07))
    default: return (0xFFFD, 1)
    }
    guard index + length <= text.count else { return (0xFFFD, 1) }
    for offset in 1..<length {
      let byte = text[index + offset]
      guard byte & 0xC0 == 0x80 else { return (0xFFFD, 1) }
      scalar = scalar << 6 | UInt32(byte & 0x3F)
    }
    guard scalar >= minimum, scalar <= 0x10_FFFF, !(0xD800...0xDFFF).contains(scalar) else {
      return (0xFFFD, 1)
    }
    return (scalar, length)
  }

  /// `scalar` lowercased where an extension label may be written in capitals: ASCII, full-width
  /// Latin and basic Cyrillic letters, and 'Ó' (as libphonenumber's case-insensitive labels).
  static func folded(_ scalar: UInt32) -> UInt32 {
    switch scalar {
    case 0x41...0x5A, 0xFF21...0xFF3A, 0x0410...0x042F: scalar + 0x20
    case 0xD3: 0xF3
    default: scalar
    }
  }

  /// The keypad digit of an uppercase ASCII letter (libphonenumber's ALPHA_MAPPINGS).
  static func keypadDigit(_ upper: UInt8) -> UInt8 {
    keypad[Int(upper &- UInt8(ascii: "A"))]
  }

  // Safe: the static string's buffer is copied into an array while the closure runs.
  private static let keypad: [UInt8] = GeneratedWrittenCharacters.keypadDigits.withUTF8Buffer {
    unsafe $0.map { $0 &- UInt8(ascii: "0") }
  }
}
