import ByteCoding

/// Turns numbers as people write them into CallKit numbers, by libphonenumber's rules for every
/// region (its metadata compiled into the generated numbering tables):
/// `8 (495) 123-45-67 доб. 12` with default country RU → `74951234567`; `0755-12345678` with
/// CN → `8675512345678`.
///
/// The steps are libphonenumber's `parse`, in its order (the generator's model of them agrees
/// with libphonenumber on every example number of the metadata, in every written form):
/// 1. Read the digits (`WrittenNumber`): leading text skipped, digits of every script read,
///    separators ignored, a vanity number's letters read as keypad digits, an extension
///    dropped; anything else with digits after it refused.
/// 2. Find the country: a number written with `+`, or with the default country's own
///    international prefix (`810` in Russia, `011` in North America, `00` in most places), names
///    its calling code; a number starting with the default country's code is read as such when
///    it is not a possible national number with it and is one without. Otherwise it is national.
///    Without a default country, every number is read as international, `+` or not.
/// 3. Strip the national prefix by the region's national-prefix-for-parsing pattern and
///    transform (Argentina's `0…15`, Russia's `8`, Britain's `0` in `+44 (0)20 …`), unless that
///    leaves a number too short for the region.
/// 4. Check it: ``Validation/possible`` lengths only (local-only lengths refused: CallKit needs
///    the whole number), or ``Validation/valid``: a number of some type of its region.
public struct PhoneNormalizer: Sendable {
  /// How much of a number is checked.
  public enum Validation: String, CaseIterable, Sendable {
    /// The national number has a length its region allows (libphonenumber's
    /// `isPossibleNumber`, less local-only lengths).
    case possible
    /// The national number matches a number type's pattern of its region
    /// (libphonenumber's `isValidNumber`): stricter, and it refuses numbers in ranges the
    /// metadata does not know yet.
    case valid
  }

  /// The region national numbers belong to; nil when there is none and every number is read
  /// as international, with or without its `+` (CallKit's digits).
  package let region: RegionRules?
  /// How much of a number is checked.
  public let validation: Validation
  private let tables: NumberingTables

  /// libphonenumber's shortest and longest national significant number.
  static let minimumNationalDigits = 2
  static let maximumNationalDigits = 17
  /// The most digits a CallKit number (an `Int64`) is given: every 18-digit number fits.
  public static let maximumDigits = 18

  /// A normalizer for `country` (ISO code, case-insensitive), or without a country when nil.
  /// - Throws: ``NormalizationError/unknownCountry(_:)``.
  /// - Parameters:
  ///   - country: the country national numbers belong to (ISO code), or nil for numbers
  ///     written in international form only.
  ///   - validation: how much of a number is checked: its region's possible lengths, or a
  ///     number type's pattern.
  public init(country: String?, validation: Validation = .possible) throws(NormalizationError) {
    try self.init(country: country, validation: validation, tables: .shared)
  }

  /// A normalizer for `country` that reads `tables` (a thread's own copy, for the compiler's
  /// threads, or the shared ones).
  /// - Throws: ``NormalizationError/unknownCountry(_:)``.
  package init(
    country: String?, validation: Validation = .possible, tables: NumberingTables
  ) throws(NormalizationError) {
    self.tables = tables
    if let country {
      guard let region = tables.region(country.uppercased()) else {
        throw .unknownCountry(country)
      }
      self.region = region
    } else {
      self.region = nil
    }
    self.validation = validation
  }

  /// A normalizer for `country` (ISO code, case-insensitive).
  /// - Throws: ``NormalizationError/unknownCountry(_:)``.
  public init(country: String) throws(NormalizationError) {
    try self.init(country: Optional(country))
  }

  /// A normalizer without a country: `+7 (495) 123-45-67` and `74951234567` are read; a national
  /// form (`8 495 …`) is read as international digits too, so give a country to read those.
  public init() {
    self.tables = .shared
    self.region = nil
    self.validation = .possible
  }

  /// The CallKit number for `text`.
  /// - Throws: ``NormalizationError`` saying why the text is not a number of a known shape.
  public func normalize(_ text: some StringProtocol) throws(NormalizationError) -> Int64 {
    // Safe: each view of the text's bytes is read only inside its closure, while the storage
    // lives; the normalizer reads it through bounds-checked subscripts.
    if let result = text.utf8.withContiguousStorageIfAvailable({ bytes in
      Result { () throws(NormalizationError) in try normalize(utf8: unsafe ByteView(bytes)) }
    }) {
      return try result.get()
    }
    let bytes = Array(text.utf8)
    return try unsafe bytes.withUnsafeBufferPointer { bytes throws(NormalizationError) in
      try normalize(utf8: unsafe ByteView(bytes))
    }
  }

  /// The CallKit number for `text` (a concrete overload: a compile calls this for every row,
  /// and the generic one is not specialized across modules).
  /// - Throws: ``NormalizationError`` saying why the text is not a number of a known shape.
  public func normalize(_ text: String) throws(NormalizationError) -> Int64 {
    var text = text
    // Safe: the view of the string's bytes is read only inside the closure.
    return try text.withUTF8 { bytes in
      Result { () throws(NormalizationError) in try normalize(utf8: unsafe ByteView(bytes)) }
    }.get()
  }

  /// The CallKit number for a written number's UTF-8 bytes (a line of a dump, as read).
  /// - Throws: ``NormalizationError`` saying why the text is not a number of a known shape.
  package func normalize(utf8: ByteView) throws(NormalizationError) -> Int64 {
    let written = try WrittenNumber(utf8: utf8)
    guard let letters = written.vanityLetters else { return try normalize(written) }
    do {
      return try normalize(written)
    } catch {
      throw .vanity(
        letters: String(decoding: utf8.rebased(letters), as: UTF8.self),
        error)
    }
  }

  private func normalize(_ written: WrittenNumber) throws(NormalizationError) -> Int64 {
    guard !written.overflowed else { throw .tooLong(digits: DigitString.capacity + 1) }
    guard written.digits.count > 0 else { throw .noDigits }
    var (code, national) = try countryCode(written.digits, plus: written.plus, default: region)
    let rules: RegionRules
    if code == 0, let region {
      rules = region
      code = region.callingCode
    } else if let main = tables.mainRegion(callingCode: code) {
      rules = main  // as libphonenumber: a code's numbers are read by its main region's rules
    } else {
      throw .unknownCallingCode(written.digits.text)
    }
    guard national.count >= Self.minimumNationalDigits else {
      throw .tooShort(digits: national.count)
    }
    let stripped = stripNationalPrefix(national, rules)
    switch rules.lengthVerdict(stripped.count) {
    case .tooShort, .localOnly, .invalidLength: break  // the prefix was part of the number
    case .possible, .tooLong: national = stripped
    }
    guard national.count <= Self.maximumNationalDigits else {
      throw .tooLong(digits: national.count)
    }
    try check(national, code: code)
    // Calling code, then the national digits: at most 3 + 15 digits fit an Int64.
    let codeDigits = DigitString(code).count
    guard codeDigits + national.count <= Self.maximumDigits, let value = national.int64Value
    else { throw .tooLong(digits: codeDigits + national.count) }
    var scale: Int64 = 1
    for _ in 0..<national.count { scale &*= 10 }
    return Int64(code) &* scale &+ value
  }

  private func check(_ national: DigitString, code: Int) throws(NormalizationError) {
    guard let main = tables.mainRegion(callingCode: code) else {
      throw .unknownCallingCode(String(code))
    }
    // The user's own country when it shares the calling code (KZ's numbers were said to have
    // "wrong length for RU", issue 65, item 6); else the code's main country.
    let name =
      region.map { $0.callingCode == code && $0.id != "001" } == true
      ? region!.id : main.id == "001" ? "+\(code)" : main.id
    switch validation {
    case .valid:
      guard isValid(national, code: code) else {
        throw .invalid(country: name, number: "+\(code) \(national.text)")
      }
    case .possible:
      switch main.lengthVerdict(national.count) {
      case .possible: return
      case .localOnly: throw .localOnly(country: name, digits: national.count)
      case .tooShort, .tooLong, .invalidLength:
        throw .wrongLength(country: name, digits: national.count, expected: main.nationalLengths)
      }
    }
  }

  /// The calling code and national number when the number names its country, (0, digits) when
  /// it does not (libphonenumber's `maybeExtractCountryCode`).
  private func countryCode(_ digits: DigitString, plus: Bool, default region: RegionRules?)
    throws(NormalizationError) -> (Int, DigitString)
  {
    guard let region, !plus else {
      guard digits.count > Self.minimumNationalDigits else { throw .tooShort(digits: digits.count) }
      if let split = splitCallingCode(digits) { return split }
      // "+0011 61 …": a plus written before the default country's own international prefix.
      guard let region else { throw .unknownCallingCode(digits.text) }
      let (code, national) = try countryCode(digits, plus: false, default: region)
      guard code != 0 else { throw .unknownCallingCode(digits.text) }
      return (code, national)
    }
    if let prefix = region.internationalPrefix, let match = tables.lookingAt(prefix, in: digits),
      match.end == digits.count || digits[match.end] != 0  // no calling code starts with 0
    {
      let rest = digits.suffix(from: match.end)
      guard rest.count > Self.minimumNationalDigits else { throw .tooShort(digits: rest.count) }
      guard let split = splitCallingCode(rest) else { throw .unknownCallingCode(rest.text) }
      return split
    }
    let code = DigitString(region.callingCode)
    if digits.hasPrefix(code) {
      let national = stripNationalPrefix(digits.suffix(from: code.count), region)
      if !tables.fullMatch(region.general, digits) && tables.fullMatch(region.general, national)
        || region.lengthVerdict(digits.count) == .tooLong
      {
        return (region.callingCode, national)
      }
    }
    return (0, digits)
  }

  /// The calling code `digits` start with (codes are prefix-free, 1 to 3 digits) and the rest.
  private func splitCallingCode(_ digits: DigitString) -> (Int, DigitString)? {
    guard digits.count > 0, digits[0] != 0 else { return nil }
    var code = 0
    for length in 1...min(3, digits.count) {
      code = code * 10 + Int(digits[length - 1])
      if tables.isCallingCode(code) { return (code, digits.suffix(from: length)) }
    }
    return nil
  }

  /// `number` without its national prefix (libphonenumber's
  /// `maybeStripNationalPrefixAndCarrierCode`): the prefix pattern's match is removed, or
  /// replaced by the region's transform; kept when removing it would turn a number of the
  /// region's general pattern into one that is not.
  private func stripNationalPrefix(_ number: DigitString, _ rules: RegionRules) -> DigitString {
    guard number.count > 0, let pattern = rules.nationalPrefixForParsing,
      let match = tables.lookingAt(pattern, in: number)
    else { return number }
    let viable = tables.fullMatch(rules.general, number)
    guard !rules.transform.isEmpty, match.span(pattern.groups) != nil else {
      if viable && !tables.fullMatch(rules.general, number, from: match.end) { return number }
      return number.suffix(from: match.end)
    }
    var transformed = DigitString()
    for byte in rules.transform {
      if byte < 10 {
        for index in match.span(Int(byte)) ?? 0..<0 { _ = transformed.append(number[index]) }
      } else {
        _ = transformed.append(byte &- UInt8(ascii: "0"))
      }
    }
    guard let result = transformed.appending(number, from: match.end) else { return number }
    if viable && !tables.fullMatch(rules.general, result) { return number }
    return result
  }

  /// libphonenumber's `isValidNumber`: the region of the code that claims the number (by its
  /// leading digits, else by matching) has a number type the national number matches.
  private func isValid(_ national: DigitString, code: Int) -> Bool {
    for rules in tables.regions(callingCode: code) {
      if let leading = rules.leadingDigits {
        if tables.matchEnds(leading, in: national, from: 0) != 0 {
          return rules.valid.map { tables.fullMatch($0, national) } ?? false
        }
      } else if let valid = rules.valid, tables.fullMatch(valid, national) {
        return true
      }
    }
    return false
  }
}
