/// Turns numbers as people write them into CallKit numbers: `8 (495) 123-45-67 доб. 12` with
/// default country RU → `74951234567`; `185XXXXX8497` and `0755-12345678` with CN →
/// `86185XXXXX8497` and `8675512345678` (the Chinese article's examples).
///
/// Steps: find where the number starts (a digit or `+`); read digits and separators (spaces,
/// dashes, dots, slashes, parentheses) until anything else, which starts an extension (`доб. 12`,
/// `ext. 12`, `x12`) and is dropped; then read it as international (`+CC`, an international
/// prefix of the default country such as `00` or `810`) or national (trunk prefix dropped, the
/// default country's code added), and check its length against the country's plan.
public struct PhoneNormalizer: Sendable {
  /// The country national numbers belong to; nil when there is none and every number is read
  /// as international, with or without its `+` (CallKit's digits).
  public let plan: NumberingPlan?

  /// A normalizer for `country` (ISO code, case-insensitive).
  /// - Throws: ``NormalizationError/unknownCountry(_:)``.
  public init(country: String) throws(NormalizationError) {
    guard let plan = NumberingPlan.all[country.uppercased()] else {
      throw .unknownCountry(country)
    }
    self.plan = plan
  }

  /// A normalizer without a country: `+7 (495) 123-45-67` and `74951234567` are read; a national
  /// form (`8 495 …`) is read as international digits too, so give a country to read those.
  public init() {
    self.plan = nil
  }

  /// A normalizer for `country` when one is given, else the one without a country.
  /// - Throws: ``NormalizationError/unknownCountry(_:)``.
  public init(country: String?) throws(NormalizationError) {
    if let country { try self.init(country: country) } else { self.init() }
  }

  /// E.164: at most 15 digits with the country code.
  public static let maximumDigits = 15

  /// The CallKit number for `text`.
  /// - Throws: ``NormalizationError`` saying why the text is not a number of a known shape.
  public func normalize(_ text: some StringProtocol) throws(NormalizationError) -> Int64 {
    var digits: [UInt8] = []
    digits.reserveCapacity(20)
    var international = false
    var started = false
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if value >= 0x30 && value <= 0x39 {
        digits.append(UInt8(value))
        started = true
        continue
      }
      if !started {
        if scalar == "+" {
          international = true
          started = true
        } else if scalar == "(" {
          started = true
        }
        continue  // Leading text ("tel:", a BOM, quotes) is skipped.
      }
      switch scalar {
      case " ", "-", ".", "/", "(", ")", "\u{00A0}", "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}",
        "\u{2014}", "\t":
        continue
      default:
        break
      }
      break  // Anything else starts an extension or a comment: the number ends here.
    }
    guard !digits.isEmpty else { throw .noDigits }
    var number = String(decoding: digits, as: UTF8.self)
    guard let plan else { return try Self.checkInternational(number) }
    if !international {
      for prefix in plan.internationalPrefixes where number.hasPrefix(prefix) {
        number.removeFirst(prefix.count)
        international = true
        break
      }
    }
    if international { return try Self.checkInternational(number) }
    return try Self.checkNational(number, plan: plan)
  }

  private static func checkNational(_ written: String, plan: NumberingPlan)
    throws(NormalizationError) -> Int64
  {
    var national = written
    let code = String(plan.callingCode)
    if let trunk = plan.trunkPrefix, national.hasPrefix(trunk),
      plan.nationalLengths.contains(national.count - trunk.count)
    {
      national.removeFirst(trunk.count)
    } else if national.hasPrefix(code), plan.nationalLengths.contains(national.count - code.count) {
      // Written with the country code but no `+` (`74951234567`, the Chinese article's
      // `86196852102`): already CallKit's. Preferred even when the digits would also make a
      // national number of valid length: national numbers here are written with their trunk
      // prefix (8, 0, 1) or start with a digit no country code of these plans starts with (a CN
      // mobile's 1).
      return try checkInternational(national)
    }
    guard national.first != "0" else { throw .leadingZero(national) }
    guard plan.nationalLengths.contains(national.count) else {
      throw .wrongLength(
        country: plan.country, digits: national.count, expected: plan.nationalLengths)
    }
    if plan.callingCode == 1 { try checkNANP(national) }
    return Int64(code + national)!
  }

  /// Checks a number that starts with its country code.
  static func checkInternational(_ number: String) throws(NormalizationError) -> Int64 {
    guard number.first != "0" else { throw .leadingZero(number) }
    guard number.count <= maximumDigits else { throw .tooLong(digits: number.count) }
    for code in NumberingPlan.knownCallingCodes where number.hasPrefix(code) {
      let plan = NumberingPlan.plan(forCallingCode: Int64(code)!)!
      var national = String(number.dropFirst(code.count))
      // "+44 (0)20 …": the trunk 0 written after the country code, as is common in the UK and
      // Germany, is not dialled.
      if let trunk = plan.trunkPrefix, trunk == "0", national.hasPrefix(trunk),
        plan.nationalLengths.contains(national.count - 1)
      {
        national.removeFirst()
      }
      guard plan.nationalLengths.contains(national.count) else {
        throw .wrongLength(
          country: "+\(code)", digits: national.count, expected: plan.nationalLengths)
      }
      if code == "1" { try checkNANP(national) }
      return Int64(code + national)!
    }
    guard number.count >= 8 else { throw .tooShort(digits: number.count) }
    return Int64(number)!
  }

  /// North American numbers: area code and exchange both start with 2–9.
  static func checkNANP(_ national: String) throws(NormalizationError) {
    let bytes = Array(national.utf8)
    guard bytes[0] >= UInt8(ascii: "2"), bytes[3] >= UInt8(ascii: "2") else {
      throw .invalidNANP(national)
    }
  }
}

/// Why a written number could not be normalized.
public enum NormalizationError: Error, Equatable, Sendable, CustomStringConvertible {
  case unknownCountry(String)
  case noDigits
  case leadingZero(String)
  case wrongLength(country: String, digits: Int, expected: ClosedRange<Int>)
  case tooLong(digits: Int)
  case tooShort(digits: Int)
  case invalidNANP(String)

  /// The kind of error without its details, for counting rejected lines by kind; its raw value
  /// is the short text reports print.
  public enum Reason: String, Hashable, Sendable, CaseIterable {
    case unknownCountry = "unknown country"
    case noDigits = "no digits"
    case leadingZero = "leading zero"
    case wrongLength = "wrong length"
    case tooLong = "too long"
    case tooShort = "too short"
    case invalidNANP = "invalid NANP number"
  }

  /// The kind of error, without its details.
  public var reason: Reason {
    switch self {
    case .unknownCountry: .unknownCountry
    case .noDigits: .noDigits
    case .leadingZero: .leadingZero
    case .wrongLength: .wrongLength
    case .tooLong: .tooLong
    case .tooShort: .tooShort
    case .invalidNANP: .invalidNANP
    }
  }

  public var description: String {
    switch self {
    case .unknownCountry(let country):
      "unknown country '\(country)' (known: \(NumberingPlan.all.keys.sorted().joined(separator: ", ")))"
    case .noDigits: "no digits"
    case .leadingZero(let number): "\(number): a national number cannot start with 0"
    case .wrongLength(let country, let digits, let expected):
      expected.count == 1
        ? "wrong length for \(country): \(digits) digits, expected \(expected.lowerBound)"
        : "wrong length for \(country): \(digits) digits, expected \(expected.lowerBound) to \(expected.upperBound)"
    case .tooLong(let digits): "too long: \(digits) digits, E.164 allows 15"
    case .tooShort(let digits): "too short: \(digits) digits with the country code"
    case .invalidNANP(let number):
      "invalid NANP number \(number): area code and exchange start with 2-9"
    }
  }
}
