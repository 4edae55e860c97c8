/// Why a written number could not be normalized.
public enum NormalizationError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The country is not an ISO 3166 code libphonenumber's metadata has.
  case unknownCountry(String)
  /// The text has no digit.
  case noDigits
  /// The digits after `+` or an international prefix start with no assigned calling code.
  case unknownCallingCode(String)
  /// Fewer digits than any number: after `+`, an international prefix, or as a national number.
  case tooShort(digits: Int)
  /// More digits than any number can have.
  case tooLong(digits: Int)
  /// The national number's length is not one its region allows.
  case wrongLength(country: String, digits: Int, expected: [Int])
  /// A length only dialable locally, without an area code: not a whole number for CallKit.
  case localOnly(country: String, digits: Int)
  /// With `--validate valid`: no number type of the region matches.
  case invalid(country: String, number: String)
  /// A character the reader does not take (not a digit, separator or extension) with digits
  /// after it, at a 1-based character position: read, it would make another number.
  case unexpectedCharacter(String, position: Int)
  /// Letters inside the digits that do not make a vanity number (three or more letters after
  /// at least three digits, as `1-800-FLOWERS`): the first letter and its position.
  case lettersInNumber(String, position: Int)
  /// A vanity number whose letters, read as keypad digits, make no number: the letters, and why.
  indirect case vanity(letters: String, NormalizationError)

  /// The kind of error without its details, for counting rejected lines by kind; its raw value
  /// is the short text reports print.
  package enum Reason: String, Hashable, Sendable, CaseIterable {
    case unknownCountry = "unknown country"
    case noDigits = "no digits"
    case unknownCallingCode = "unknown calling code"
    case tooShort = "too short"
    case tooLong = "too long"
    case wrongLength = "wrong length"
    case localOnly = "local number"
    case invalid = "not a valid number"
    case unexpectedCharacter = "unexpected character"
    case lettersInNumber = "letters in number"
  }

  /// The kind of error, without its details.
  package var reason: Reason {
    switch self {
    case .unknownCountry: .unknownCountry
    case .noDigits: .noDigits
    case .unknownCallingCode: .unknownCallingCode
    case .tooShort: .tooShort
    case .tooLong: .tooLong
    case .wrongLength: .wrongLength
    case .localOnly: .localOnly
    case .invalid: .invalid
    case .unexpectedCharacter: .unexpectedCharacter
    case .lettersInNumber, .vanity: .lettersInNumber
    }
  }

  public var description: String {
    switch self {
    case .unknownCountry(let country):
      "unknown country '\(country)': give an ISO 3166 code such as RU, US or GB (`calldir normalize --help` lists them)"
    case .noDigits: "no digits"
    case .unknownCallingCode(let digits): "no country has a calling code starting \(digits)"
    case .tooShort(let digits): "too short: \(digits) digits"
    case .tooLong(let digits): "too long: \(digits) digits"
    case .wrongLength(let country, let digits, let expected):
      "wrong length for \(country): \(digits) digits, expected \(Self.list(expected))"
    case .localOnly(let country, let digits):
      "\(digits) digits is a local number in \(country): write it with its area code"
    case .invalid(let country, let number): "\(number) is not a valid number of \(country)"
    case .unexpectedCharacter(let character, let position):
      "unexpected '\(character)' at character \(position), with digits after it: not a digit, separator or extension (refused rather than read as another number)"
    case .lettersInNumber(let letter, let position):
      "letters inside the digits ('\(letter)' at character \(position)): only a vanity number is read (3 or more letters after 3 digits, as 1-800-FLOWERS)"
    case .vanity(let letters, let error):
      "read as a vanity number ('\(letters)' as keypad digits): \(error)"
    }
  }

  private static func list(_ lengths: [Int]) -> String {
    guard let last = lengths.last else { return "none" }
    if lengths.count == 1 { return String(last) }
    return lengths.dropLast().map(String.init).joined(separator: ", ") + " or \(last)"
  }
}
