/// What the normalizer knows of a country's numbering: its calling code, the trunk prefix dialled
/// before national numbers, the international prefixes dialled before a country code, and the
/// lengths a national number may have (without the trunk prefix).
///
/// Hand-written rules rather than a library: libphonenumber (the reference data set) has no Swift
/// package in this project's mirror (PhoneNumberKit, its Swift port, is not available here), and
/// its full metadata would also be far more than the compiler needs. These rules are the ones the
/// issue and the Chinese article state; the tests pin each one.
public struct NumberingPlan: Sendable, Equatable {
  /// ISO 3166 code (`RU`).
  public let country: String
  /// The country calling code (`7`).
  public let callingCode: Int64
  /// Dialled before a national number inside the country (`8` in Russia, `0` in China), if any.
  public let trunkPrefix: String?
  /// Dialled before a country code when calling abroad from this country (`00`, `810`, `011`).
  public let internationalPrefixes: [String]
  /// Allowed lengths of the national significant number (without trunk prefix).
  public let nationalLengths: ClosedRange<Int>

  /// The plans the normalizer knows, by ISO code.
  public static let all: [String: NumberingPlan] = [
    "RU": NumberingPlan(
      country: "RU", callingCode: 7, trunkPrefix: "8", internationalPrefixes: ["810", "00"],
      nationalLengths: 10...10),
    "KZ": NumberingPlan(
      country: "KZ", callingCode: 7, trunkPrefix: "8", internationalPrefixes: ["810", "00"],
      nationalLengths: 10...10),
    "CN": NumberingPlan(
      country: "CN", callingCode: 86, trunkPrefix: "0", internationalPrefixes: ["00"],
      nationalLengths: 9...11),
    "US": NumberingPlan(
      country: "US", callingCode: 1, trunkPrefix: "1", internationalPrefixes: ["011"],
      nationalLengths: 10...10),
    "CA": NumberingPlan(
      country: "CA", callingCode: 1, trunkPrefix: "1", internationalPrefixes: ["011"],
      nationalLengths: 10...10),
    "GB": NumberingPlan(
      country: "GB", callingCode: 44, trunkPrefix: "0", internationalPrefixes: ["00"],
      nationalLengths: 9...10),
    "DE": NumberingPlan(
      country: "DE", callingCode: 49, trunkPrefix: "0", internationalPrefixes: ["00"],
      nationalLengths: 6...13),
  ]

  /// The plan used to check a number written in international form with this calling code.
  static func plan(forCallingCode code: Int64) -> NumberingPlan? {
    switch code {
    case 7: all["RU"]
    case 86: all["CN"]
    case 1: all["US"]
    case 44: all["GB"]
    case 49: all["DE"]
    default: nil
    }
  }

  /// Country calling codes are 1 to 3 digits; these are the ones starting an international
  /// number that the plans above check (others are accepted on E.164's lengths alone).
  static let knownCallingCodes: [String] = ["1", "7", "86", "44", "49"]
}
