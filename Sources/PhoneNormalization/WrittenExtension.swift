import ByteCoding

/// What may follow a written number and is not part of it: an extension, written as
/// libphonenumber's parser accepts one (its EXTN_PATTERNS_FOR_PARSING), or RFC 3966 parameters
/// (`;ext=12`, `;isub=…`, `;phone-context=+1-415`).
///
/// Extension forms, each followed by at most a comment without digits:
/// - `;ext=` and 1 to 20 digits (RFC 3966);
/// - an explicit label (`ext`, `extn`, `extension`, `extensión`, `ｅｘｔ`, `доб`, `anexo`) and 1 to
///   20 digits; an ambiguous one (`x`, `#`, `~`, `int`, their full-width forms) and 1 to 9; the
///   label optionally followed by `:` or `.` and spaces, commas or dashes; `#` may end it;
/// - `;` or `,,` (auto-dialling) and 1 to 15 digits, or commas and 1 to 9;
/// - `- 503#` (the American "digits and a hash"), which ``WrittenNumber`` handles itself since
///   its digits were already read.
enum WrittenExtension {
  /// True when the text from byte `start` on is an extension (and digit-free text after it).
  static func follows(_ text: ByteView, at start: Int) -> Bool {
    if let end = literal(rfcPrefix, text, at: start) {
      return digitsThenComment(text, at: end, limit: 20, hash: false)
    }
    // Auto-dialling: ";" or ",," (up to 15 digits), or commas (up to 9).
    var cursor = skip(text, at: start, while: { $0 == 0x20 || $0 == 0xA0 || $0 == 0x09 })
    if let end = literal([0x3B], text, at: cursor) ?? literal([0x2C, 0x2C], text, at: cursor),
      afterLabel(text, at: end, limit: 15)
    {
      return true
    }
    if literal([0x2C], text, at: cursor) != nil {
      let end = skip(text, at: cursor, while: { $0 == 0x2C })
      if afterLabel(text, at: end, limit: 9) { return true }
    }
    // A label, after spaces and commas.
    cursor = skip(text, at: start, while: { $0 == 0x20 || $0 == 0xA0 || $0 == 0x09 || $0 == 0x2C })
    for label in explicitLabels {
      if let end = literal(label, text, at: cursor), afterLabel(text, at: end, limit: 20) {
        return true
      }
    }
    for label in ambiguousLabels {
      if let end = literal(label, text, at: cursor), afterLabel(text, at: end, limit: 9) {
        return true
      }
    }
    return false
  }

  /// The digits of an RFC 3966 `;phone-context=+…` when the text from byte `start` on is a list
  /// of parameters (`;name=value`, the name letters, digits and dashes) naming one that starts
  /// with '+'; an empty string of digits for parameters without such a context; nil when the
  /// text is not a parameter list.
  static func parameters(_ text: ByteView, at start: Int) -> DigitString? {
    var context = DigitString()
    var sawContext = false
    var cursor = start
    while cursor < text.count {
      guard text[cursor] == 0x3B else { return nil }
      let nameStart = cursor + 1
      let nameEnd = skip(text, at: nameStart, while: isParameterNameByte)
      guard nameEnd > nameStart, nameEnd < text.count, text[nameEnd] == 0x3D else { return nil }
      let valueEnd = skip(text, at: nameEnd + 1, while: { $0 != 0x3B })
      if literal(phoneContextName, text, at: nameStart) == nameEnd {
        // One context: a second would make two prefixes.
        guard !sawContext else { return nil }
        sawContext = true
      }
      if literal(phoneContextName, text, at: nameStart) == nameEnd,
        nameEnd + 1 < valueEnd, text[nameEnd + 1] == UInt8(ascii: "+")
      {
        for index in (nameEnd + 2)..<valueEnd {
          let byte = text[index]
          if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            guard context.append(byte &- UInt8(ascii: "0")) else { return nil }
          } else if !visualSeparators.contains(byte) {
            return nil  // not a global number: RFC 3966 allows digits and visual separators
          }
        }
      }
      cursor = valueEnd
    }
    return context
  }

  // MARK: - Pieces of the grammar

  /// After a label: an optional ':', '.' or '．', then spaces, commas or dashes, then the digits.
  private static func afterLabel(_ text: ByteView, at start: Int, limit: Int)
    -> Bool
  {
    var cursor = start
    if cursor < text.count {
      let (scalar, length) = WrittenCharacter.decode(text, at: cursor)
      if scalar == 0x3A || scalar == 0x2E || scalar == 0xFF0E { cursor += length }
    }
    cursor = skip(text, at: cursor, while: { [0x20, 0xA0, 0x09, 0x2C, 0x2D].contains($0) })
    return digitsThenComment(text, at: cursor, limit: limit, hash: true)
  }

  /// 1 to `limit` digits of any script, an optional '#' or '＃', then no digit to the end.
  private static func digitsThenComment(
    _ text: ByteView, at start: Int, limit: Int, hash: Bool
  ) -> Bool {
    var cursor = start
    var count = 0
    while cursor < text.count, case (.digit, let length) = WrittenCharacter.read(text, at: cursor) {
      count += 1
      cursor += length
    }
    guard (1...limit).contains(count) else { return false }
    if hash, cursor < text.count {
      let (scalar, length) = WrittenCharacter.decode(text, at: cursor)
      if scalar == 0x23 || scalar == 0xFF03 { cursor += length }
    }
    return !WrittenNumber.holdsDigit(text, from: cursor)
  }

  /// The end of `label` when the text at `start` spells it, letters compared case-insensitively.
  private static func literal(_ label: [UInt32], _ text: ByteView, at start: Int)
    -> Int?
  {
    var cursor = start
    for expected in label {
      guard cursor < text.count else { return nil }
      let (scalar, length) = WrittenCharacter.decode(text, at: cursor)
      guard WrittenCharacter.folded(scalar) == expected else { return nil }
      cursor += length
    }
    return cursor
  }

  private static func skip(
    _ text: ByteView, at start: Int, while accepted: (UInt32) -> Bool
  ) -> Int {
    var cursor = start
    while cursor < text.count {
      let (scalar, length) = WrittenCharacter.decode(text, at: cursor)
      guard accepted(scalar) else { break }
      cursor += length
    }
    return cursor
  }

  private static func isParameterNameByte(_ scalar: UInt32) -> Bool {
    (0x30...0x39).contains(scalar) || (0x41...0x5A).contains(scalar)
      || (0x61...0x7A).contains(scalar) || scalar == 0x2D
  }

  private static func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

  private static let rfcPrefix = scalars(";ext=")
  private static let phoneContextName = scalars("phone-context")
  /// RFC 3966's visual separators in a global number: '-', '.', '(' and ')'.
  private static let visualSeparators: [UInt8] = [0x2D, 0x2E, 0x28, 0x29]

  /// libphonenumber's explicit labels, `e?xt(?:ensi(?:o\u0301?|ó))?n?`, `ｅ?ｘｔｎ?`, `доб`,
  /// `anexo`, spelled out (lowercase: the text is folded before comparing).
  private static let explicitLabels: [[UInt32]] = {
    var labels: [String] = []
    for start in ["", "e"] {
      for middle in ["", "ensio", "ensio\u{301}", "ensió"] {
        for end in ["", "n"] { labels.append(start + "xt" + middle + end) }
      }
    }
    for start in ["", "ｅ"] {
      for end in ["", "ｎ"] { labels.append(start + "ｘｔ" + end) }
    }
    labels += ["доб", "anexo"]
    // Longest first: "extn 12" must not stop at "ext" and miss the digits.
    return labels.map(scalars).sorted { $0.count > $1.count }
  }()

  /// libphonenumber's ambiguous labels, `[xｘ#＃~～]|int|ｉｎｔ`.
  private static let ambiguousLabels: [[UInt32]] =
    ["int", "ｉｎｔ", "x", "ｘ", "#", "＃", "~", "～"].map(scalars)
}
