/// The property every accepted number keeps: its national digits are the digits written, in
/// order, after the documented prefixes are removed. Nothing is dropped from inside a number,
/// and a number is never cut short: digits that follow the national digits must be set apart
/// by something that is not a separator (an extension label, `;`, `,`, `#`, a comment).
///
/// Checked by the property tests over generated numbers in every script and region, by the
/// `normalize` fuzz target and on the compiler's output. The reading here is independent of
/// `WrittenNumber`'s tables: digits by the standard library's Unicode properties.
package enum WrittenDigitsProperty {
  /// Why `number`, read from `written`, breaks the property; nil when it keeps it.
  /// The documented prefixes: nothing, a national prefix (at most ``nationalPrefixDigits``),
  /// or the calling code after at most ``internationalPrefixDigits`` of an international
  /// prefix, then at most two national prefixes. Numbers of a calling code whose regions rewrite the national prefix (Argentina's
  /// `0…15`) are checked for their length only.
  package static func violation(written: String, number: Int64) -> String? {
    // RFC 3966 writes a local number's prefix after it (`tel:555-1212;phone-context=+1-415`):
    // the digits written, in order, are the context's, then the number's. The number runs from
    // its first digit or plus sign (leading text such as `tel:` is not part of it) to the first
    // `;` after that.
    let scalars = Array(written.unicodeScalars)
    if let start = scalars.firstIndex(where: {
      $0.properties.numericType == .decimal || $0 == "+" || $0 == "＋"
    }),
      let parameters = scalars[start...].firstIndex(of: ";")
    {
      let rest = String(String.UnicodeScalarView(scalars[parameters...]))
      if let context = rest.split(separator: ";").first(where: {
        $0.lowercased().hasPrefix("phone-context=+")  // parameter names ignore case
      }) {
        let local = String(String.UnicodeScalarView(scalars[start..<parameters]))
        let reordered = context.dropFirst("phone-context=".count) + " " + local
        if violation(reading: String(reordered), number: number) == nil { return nil }
      }
    }
    return violation(reading: written, number: number)
  }

  private static func violation(reading written: String, number: Int64) -> String? {
    guard let (code, national) = CallingCode.split(number) else {
      return "\(number) has no calling code"
    }
    let nationalDigits = national.utf8.map { $0 &- UInt8(ascii: "0") }
    let codeDigits = String(code).utf8.map { $0 &- UInt8(ascii: "0") }
    let readings = [
      reading(written, lettersAsKeypad: false), reading(written, lettersAsKeypad: true),
    ]
    if tables.regions(callingCode: Int(code)).contains(where: { !$0.transform.isEmpty }) {
      return nil  // the national prefix is rewritten, not removed
    }
    for (digits, setApart) in readings {
      for start in 0...max(0, digits.count - nationalDigits.count)
      where digits[start...].starts(with: nationalDigits) {
        let end = start + nationalDigits.count
        guard end == digits.count || setApart[end] else { continue }
        let prefix = Array(digits[..<start])
        if prefix.count <= nationalPrefixDigits { return nil }
        // The calling code after at most an international prefix, and after it at most two
        // national prefixes (`+44 (0)20`, `0011 46 0…`): libphonenumber strips one when it
        // takes a number that starts with the region's own calling code, and one again when it
        // parses what is left (China's `86 0 11151 2345678`: `0`, then the carrier `11151`).
        for trunk in 0...min(2 * nationalPrefixDigits, prefix.count) {
          let beforeTrunk = prefix.dropLast(trunk)
          if beforeTrunk.count <= internationalPrefixDigits + codeDigits.count,
            beforeTrunk.suffix(codeDigits.count).elementsEqual(codeDigits)
          {
            return nil
          }
        }
      }
    }
    return
      "\(number): its national digits \(nationalDigits.map(String.init).joined()) are not the digits written in '\(written)', in order, after a documented prefix"
  }

  /// The longest national prefix removed (Brazil's `0` and a two-digit carrier code, Colombia's
  /// `4` and its carrier, with a margin).
  package static let nationalPrefixDigits = 5
  /// The longest international prefix (Australia's `14xx0011`, less than 9 digits).
  package static let internationalPrefixDigits = 9

  private static let tables = NumberingTables.shared

  /// The digits of the text (any script), and for each position whether a character other
  /// than a separator stands between it and the digit before: the digits after a number's end
  /// must be set apart so. Letters after the first digit are keypad digits when asked.
  private static func reading(_ text: String, lettersAsKeypad: Bool) -> ([UInt8], [Bool]) {
    var digits: [UInt8] = []
    var setApart: [Bool] = []
    var marked = false
    // Where the current run of digits started: `- 503#` makes that run an extension.
    var runStart: Int?
    for scalar in text.unicodeScalars {
      if scalar.value == 0x23 || scalar.value == 0xFF03, let start = runStart {
        setApart[start] = true
      }
      let isDigit = scalar.properties.numericType == .decimal
      runStart = isDigit ? (runStart ?? digits.count) : nil
      if isDigit, let value = scalar.properties.numericValue {
        digits.append(UInt8(value))
        setApart.append(marked)
        marked = false
      } else if lettersAsKeypad, !digits.isEmpty, let digit = keypad(scalar) {
        // A letter after the number may start a label (`1-800-FLOWERS ext. 12`, `…etext8`): the
        // property guards written digits, so a letter never counts as one cut off.
        digits.append(digit)
        setApart.append(true)
        marked = false
      } else if !isSeparator(scalar) {
        marked = true
      }
    }
    setApart.append(true)  // past the last digit
    return (digits, setApart)
  }

  private static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
    let properties = scalar.properties
    if properties.isWhitespace || properties.isDefaultIgnorableCodePoint { return true }
    switch properties.generalCategory {
    case .dashPunctuation, .openPunctuation, .closePunctuation: return true
    default: break
    }
    // The full stop and solidus, and the symbols libphonenumber skips as separators; not the
    // tilde, which is also an extension label (`~ 06`).
    return [0x2E, 0x2F, 0xFF0E, 0xFF0F, 0x2053, 0x223C, 0x2212, 0x30FC, 0xAD]
      .contains(scalar.value)
  }

  private static func keypad(_ scalar: Unicode.Scalar) -> UInt8? {
    guard scalar.isASCII, let byte = UInt8(exactly: scalar.value & ~0x20),
      (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    else { return nil }
    return WrittenCharacter.keypadDigit(byte)
  }
}
