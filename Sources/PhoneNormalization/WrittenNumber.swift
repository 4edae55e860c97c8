import ByteCoding

/// The digits of a number as people write it, and whether it was written with `+`: the grammar
/// of `normalize`, `compile` and `host lookup` alike, libphonenumber's where it says what a
/// number is.
///
/// Reading:
/// 1. Leading text (`Tel:`, `Тел.:`, `電話：`, `tel:`, a BOM, quotes) is skipped up to the first
///    digit or plus sign.
/// 2. Digits of every script (Unicode's decimal digits: ASCII, full-width, Arabic-Indic,
///    Persian, Devanagari, Bengali, Thai, …) read as their values; '+' and '＋' mark an
///    international number; libphonenumber's separators are skipped (spaces, the ideographic
///    space, dashes, dots, slashes, brackets, their full-width forms, `~`).
/// 3. ASCII letters inside the number: three or more, after at least three digits, make a
///    vanity number and read as keypad digits (`1-800-FLOWERS`), as libphonenumber reads them;
///    fewer are refused when digits follow them, and dropped as a comment when none do. A
///    vanity number with digits of another script is refused: libphonenumber drops those
///    digits and reads a shorter number.
/// 4. The number ends at an extension (``WrittenExtension``), at RFC 3966 parameters (a
///    `;phone-context=+…` is the number's prefix), or at any other character. What follows
///    must hold no digit: a character the reader does not take with digits after it refuses the
///    number rather than shortening it into another one.
struct WrittenNumber {
  /// The digits read, as values 0 to 9 (a vanity number's letters as their keypad digits).
  var digits = DigitString()
  /// True when the number started with `+` (or took an RFC 3966 global context).
  var plus = false
  /// True when there were more digits than ``DigitString/capacity``.
  var overflowed = false
  /// The byte range of a vanity number's letters, for messages; nil when none were read.
  var vanityLetters: Range<Int>?

  /// Reads the UTF-8 bytes of a written number (a buffer, not a generic string: this runs for
  /// every number of a dump, and a generic collection walk costs several times more).
  /// - Throws: ``NormalizationError/noDigits``, ``NormalizationError/unexpectedCharacter(_:position:)``
  ///   and ``NormalizationError/lettersInNumber(_:position:)``.
  init(utf8 text: ByteView) throws(NormalizationError) {
    if readsPlainDigits(text) { return }
    var cursor = 0
    // 1. Leading text.
    while cursor < text.count {
      let (character, length) = WrittenCharacter.read(text, at: cursor)
      if case .digit = character { break }
      if character == .plus { break }
      cursor += length
    }
    guard cursor < text.count else { throw .noDigits }
    while cursor < text.count, case (.plus, let length) = WrittenCharacter.read(text, at: cursor) {
      plus = true
      cursor += length
    }
    // 2-4. The number.
    var letters = 0
    var firstLetter = -1
    var lastLetterEnd = -1
    var digitsAtFirstLetter = 0
    var digitAfterLetter = false
    var vanity = DigitString()
    var digitsOutsideASCII = false
    // The American "- 503#" extension: where the current run of digits started, and whether
    // only dashes and spaces came before it.
    var runStart = 0
    var runAfterDashOrSpace = false
    var previous = Previous.start
    scan: while cursor < text.count {
      let (character, length) = WrittenCharacter.read(text, at: cursor)
      switch character {
      case .digit(let value):
        if previous != .digit {
          runStart = digits.count
          runAfterDashOrSpace = previous == .dashesOrSpaces
        }
        previous = .digit
        if text[cursor] >= 0x80 { digitsOutsideASCII = true }
        if !digits.append(value) || !vanity.append(value) { overflowed = true }
        if letters > 0 { digitAfterLetter = true }
      case .separator:
        let byte = text[cursor]
        if byte == UInt8(ascii: "~") || byte == 0xEF, WrittenExtension.follows(text, at: cursor) {
          break scan
        }
        let dashOrSpace = byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ")
        switch previous {
        case .dashesOrSpaces where dashOrSpace: break
        case .dashesOrSpaces, .separators: previous = .separators
        default: previous = dashOrSpace ? .dashesOrSpaces : .separators
        }
      case .letter(let upper):
        if WrittenExtension.follows(text, at: cursor) { break scan }
        if letters == 0 {
          firstLetter = cursor
          digitsAtFirstLetter = digits.count
        }
        letters += 1
        lastLetterEnd = cursor + length
        previous = .letter
        if !vanity.append(WrittenCharacter.keypadDigit(upper)) { overflowed = true }
      case .plus, .other:
        if text[cursor] == UInt8(ascii: ";"),
          let context = WrittenExtension.parameters(text, at: cursor)
        {
          if !plus, context.count > 0 {
            guard let joined = context.appending(digits, from: 0),
              let joinedVanity = context.appending(vanity, from: 0)
            else { throw .tooLong(digits: context.count + digits.count) }
            (digits, vanity, plus) = (joined, joinedVanity, true)
            digitsAtFirstLetter += context.count
          }
          break scan
        }
        if WrittenExtension.follows(text, at: cursor) { break scan }
        if text[cursor] == UInt8(ascii: "#"), runAfterDashOrSpace, previous == .digit,
          (1...6).contains(digits.count - runStart), !Self.holdsDigit(text, from: cursor + 1)
        {
          // "415-555-1212 - 503#": the last group was an extension.
          let extensionDigits = digits.count - runStart
          digits = digits.dropping(last: extensionDigits)
          vanity = vanity.dropping(last: extensionDigits)
          break scan
        }
        guard !Self.holdsDigit(text, from: cursor) else {
          throw .unexpectedCharacter(
            Self.character(text, at: cursor), position: Self.position(text, cursor))
        }
        break scan
      }
      cursor += length
    }
    guard letters > 0 else { return }
    if letters >= Self.vanityLetters && digitsAtFirstLetter >= Self.digitsBeforeVanityLetters
      && !digitsOutsideASCII
    {
      digits = vanity
      vanityLetters = firstLetter..<lastLetterEnd
    } else if digitAfterLetter || letters >= Self.vanityLetters {
      throw .lettersInNumber(
        Self.character(text, at: firstLetter), position: Self.position(text, firstLetter))
    }
    // Fewer letters with no digit after them: a comment, dropped.
  }

  /// Reads the form dumps mostly hold, ASCII digits after at most one `+` (`+74951234567`),
  /// without the scan below, which decodes each character of every script (a number of a
  /// dump took a thousand instructions); false, reading nothing, for any other text. Both read
  /// such text alike (`WrittenNumberTests` checks it against the same numbers written with
  /// separators).
  private mutating func readsPlainDigits(_ text: ByteView) -> Bool {
    let startsWithPlus = !text.isEmpty && text[0] == UInt8(ascii: "+")
    let first = startsWithPlus ? 1 : 0
    guard first < text.count, text.count - first <= DigitString.capacity else { return false }
    let bare = text.rebased(from: first)
    for byte in bare where byte &- UInt8(ascii: "0") >= 10 { return false }
    (digits, plus) = (DigitString(asciiDigits: bare), startsWithPlus)
    return true
  }

  /// What the scan read last, for the "- 503#" extension.
  private enum Previous { case start, digit, letter, dashesOrSpaces, separators }

  /// libphonenumber reads a number as a vanity number when it holds at least three letters
  /// (VALID_ALPHA_PHONE_PATTERN) after at least three digits (VALID_PHONE_NUMBER).
  static let vanityLetters = 3
  static let digitsBeforeVanityLetters = 3

  /// True when the text from byte `start` on holds a decimal digit of any script.
  static func holdsDigit(_ text: ByteView, from start: Int) -> Bool {
    var cursor = start
    while cursor < text.count {
      let (character, length) = WrittenCharacter.read(text, at: cursor)
      if case .digit = character { return true }
      cursor += length
    }
    return false
  }

  /// The character at byte `index` as text, for messages.
  static func character(_ text: ByteView, at index: Int) -> String {
    let (scalar, _) = WrittenCharacter.decode(text, at: index)
    return Unicode.Scalar(scalar).map { String(Character($0)) } ?? "\u{FFFD}"
  }

  /// The 1-based character (scalar) position of byte `index`, for messages.
  static func position(_ text: ByteView, _ index: Int) -> Int {
    var count = 1
    for offset in 0..<index where text[offset] & 0xC0 != 0x80 { count += 1 }
    return count
  }
}
