/// One region's numbering rules from libphonenumber's metadata (a territory such as `RU`, or a
/// non-geographic entity such as +800, whose id is `001`). Automata and patterns are indexes into
/// ``NumberingTables``. A class: the normalizer passes regions around for every number, and a
/// reference is one retain where this many fields were a copy each.
package final class RegionRules: Sendable {
  /// ISO 3166 code (`RU`), or `001` for a non-geographic calling code.
  package let id: String
  /// The country calling code (`7`).
  package let callingCode: Int
  /// Bit n set when a national number of n digits is possible.
  let possibleLengths: UInt32
  /// Bit n set when n digits are a number only dialable locally (without its area code).
  let localOnlyLengths: UInt32
  /// The automaton of the region's general national number pattern.
  let general: Int
  /// The automaton of every valid number (any type's pattern and lengths); nil when none is.
  let valid: Int?
  /// The automaton of leading digits that tell this region's numbers from others of its code.
  let leadingDigits: Int?
  /// The international prefix (`00`, `810`, `011`), nil when there is none.
  let internationalPrefix: PrefixPattern?
  /// The national prefix for parsing (`8`, `0`, Argentina's `0?(?:(11|…)15)?`).
  let nationalPrefixForParsing: PrefixPattern?
  /// The transform of a national prefix match: digits, and bytes 1...9 naming capture groups
  /// (`9\1` is `[9, 1]`, `9` written as its ASCII code); empty when the match is only removed.
  let transform: [UInt8]
  /// The national (trunk) prefix as written (`8` in Russia), empty when there is none.
  package let nationalPrefix: String
  /// The international prefix people dial (`810`, `011`, `0011`), empty when the pattern names
  /// no single one.
  package let preferredInternationalPrefix: String

  init(
    id: String, callingCode: Int, possibleLengths: UInt32,
    localOnlyLengths: UInt32, general: Int, valid: Int?, leadingDigits: Int?,
    internationalPrefix: PrefixPattern?, nationalPrefixForParsing: PrefixPattern?,
    transform: [UInt8], nationalPrefix: String, preferredInternationalPrefix: String
  ) {
    self.id = id
    self.callingCode = callingCode
    self.possibleLengths = possibleLengths
    self.localOnlyLengths = localOnlyLengths
    self.general = general
    self.valid = valid
    self.leadingDigits = leadingDigits
    self.internationalPrefix = internationalPrefix
    self.nationalPrefixForParsing = nationalPrefixForParsing
    self.transform = transform
    self.nationalPrefix = nationalPrefix
    self.preferredInternationalPrefix = preferredInternationalPrefix
  }

  /// The possible national lengths, ascending.
  package var nationalLengths: [Int] { (0..<32).filter { possibleLengths & (1 << $0) != 0 } }

  /// libphonenumber's verdict on a national number's length alone.
  func lengthVerdict(_ length: Int) -> LengthVerdict {
    guard length < 32 else { return .tooLong }
    if localOnlyLengths & (1 << length) != 0 { return .localOnly }
    guard possibleLengths != 0 else { return .tooShort }
    let shortest = possibleLengths.trailingZeroBitCount
    let longest = 31 - possibleLengths.leadingZeroBitCount
    if length < shortest { return .tooShort }
    if length > longest { return .tooLong }
    return possibleLengths & (1 << length) != 0 ? .possible : .invalidLength
  }
}

/// What a national number's length says (libphonenumber's `ValidationResult`).
enum LengthVerdict {
  case possible, localOnly, tooShort, tooLong, invalidLength
}
