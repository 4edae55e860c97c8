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

  /// The kind of error without its details, for counting rejected lines by kind; its raw value
  /// is the short text reports print.
  public enum Reason: String, Hashable, Sendable, CaseIterable {
    case unknownCountry = "unknown country"
    case noDigits = "no digits"
    case unknownCallingCode = "unknown calling code"
    case tooShort = "too short"
    case tooLong = "too long"
    case wrongLength = "wrong length"
    case localOnly = "local number"
    case invalid = "not a valid number"
  }

  /// The kind of error, without its details.
  public var reason: Reason {
    switch self {
    case .unknownCountry: .unknownCountry
    case .noDigits: .noDigits
    case .unknownCallingCode: .unknownCallingCode
    case .tooShort: .tooShort
    case .tooLong: .tooLong
    case .wrongLength: .wrongLength
    case .localOnly: .localOnly
    case .invalid: .invalid
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
    }
  }

  private static func list(_ lengths: [Int]) -> String {
    guard let last = lengths.last else { return "none" }
    if lengths.count == 1 { return String(last) }
    return lengths.dropLast().map(String.init).joined(separator: ", ") + " or \(last)"
  }
}
