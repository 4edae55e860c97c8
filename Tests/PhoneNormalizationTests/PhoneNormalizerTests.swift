import PhoneNormalization
import Testing

@Suite("Written numbers become CallKit numbers, per country")
struct PhoneNormalizerTests {
  func normalize(
    _ text: String, _ country: String?, _ validation: PhoneNormalizer.Validation = .possible
  ) throws -> Int64 {
    try PhoneNormalizer(country: country, validation: validation).normalize(text)
  }

  @Test(
    arguments: [
      ("8 (495) 123-45-67", 74_951_234_567),
      ("+7 495 123 45 67", 74_951_234_567),
      ("84951234567", 74_951_234_567),
      ("74951234567", 74_951_234_567),
      ("4951234567", 74_951_234_567),
      ("8-916-123-45-67 доб. 123", 79_161_234_567),
      ("+7 (916) 123.45.67 ext. 12", 79_161_234_567),
      ("тел.: 8 812 123 45 67", 78_121_234_567),
      ("810 86 755 1234 5678", 8_675_512_345_678),
      ("+1 (415) 555-1212", 14_155_551_212),
    ] as [(String, Int64)])
  func russia(text: String, expected: Int64) throws {
    #expect(try normalize(text, "RU") == expected)
  }

  @Test func kazakhstanSharesPlus7AndTrunk8() throws {
    #expect(try normalize("8 (727) 250-00-00", "KZ") == 77_272_500_000)
    #expect(try normalize("+7 727 2500000", "KZ") == 77_272_500_000)
  }

  @Test(
    arguments: [
      ("18512348497", 8_618_512_348_497),  // the article's mobile 185XXXXX8497
      ("0755-12345678", 8_675_512_345_678),  // the article's landline
      ("010-12345678", 861_012_345_678),
      ("+86 21 1234 5678", 862_112_345_678),
      ("8613912345678", 8_613_912_345_678),
      ("0086 139 1234 5678", 8_613_912_345_678),
      // The article's file holds CallKit digits; written in China, libphonenumber reads an
      // 11-digit national number (see withoutACountryEveryNumberIsInternational for the digits).
      ("86196852102", 8_686_196_852_102),
      ("18612345678", 8_618_612_345_678),  // a 186 mobile is not +86 12345678
    ] as [(String, Int64)])
  func china(text: String, expected: Int64) throws {
    #expect(try normalize(text, "CN") == expected)
  }

  @Test(
    arguments: [
      ("(415) 555-1212", 14_155_551_212),
      ("1-415-555-1212 x12", 14_155_551_212),
      ("+1 415.555.1212", 14_155_551_212),
      ("011 44 20 7946 0958", 442_079_460_958),
    ] as [(String, Int64)])
  func unitedStates(text: String, expected: Int64) throws {
    #expect(try normalize(text, "US") == expected)
    #expect(try normalize(text, "CA") == expected)
  }

  @Test(
    arguments: [
      ("020 7946 0958", "GB", 442_079_460_958),
      ("+44 (0)20 7946 0958", "GB", 442_079_460_958),
      ("07700 900123", "GB", 447_700_900_123),
      ("030 12345678", "DE", 493_012_345_678),
      ("+49 (0)30 1234567", "DE", 49_301_234_567),
      ("0049 89 123456", "DE", 4_989_123_456),
    ] as [(String, String, Int64)])
  func britainAndGermany(text: String, country: String, expected: Int64) throws {
    #expect(try normalize(text, country) == expected)
  }

  @Test(
    arguments: [
      ("", "RU", "no digits"),
      ("доб. ", "RU", "no digits"),
      ("8 495 123 45", "RU", "wrong length"),
      ("+7 495 123 45 678 9", "RU", "wrong length"),
      ("12345", "CN", "local number"),
      ("555-1212", "US", "local number"),
      ("+999 1234", "RU", "unknown calling code"),
      ("+999 1234 5678 9012 345", "RU", "unknown calling code"),
      ("+7 1", "RU", "too short"),
      ("+7 4951234567 4951234567 4951234567 4951234567 49512345", "RU", "too long"),
    ] as [(String, String, String)])
  func impossibleNumbersAreRejectedWithTheirReason(text: String, country: String, reason: String) {
    expectRejected(text, country, .possible, reason)
  }

  /// Possible lengths, but no number type of the region: refused only with `valid`.
  @Test(
    arguments: [
      ("(115) 555-1212", "US"), ("0123456789", "US"), ("8 (095) 123-45-67", "RU"),
      ("011 7 495 765 43 21", "RU"),
    ] as [(String, String)])
  func invalidNumbersAreRejectedWhenValidating(text: String, country: String) {
    #expect((try? normalize(text, country, .possible)) != nil, "\(text) is possible")
    expectRejected(text, country, .valid, "not a valid number")
  }

  func expectRejected(
    _ text: String, _ country: String, _ validation: PhoneNormalizer.Validation, _ reason: String
  ) {
    do {
      let number = try normalize(text, country, validation)
      Issue.record("\(text) → \(number), expected \(reason)")
    } catch let error as NormalizationError {
      #expect(error.reason.rawValue == reason, "\(text): \(error)")
    } catch {
      Issue.record("\(error)")
    }
  }

  /// International forms are read with `+` or the default country's own international prefixes
  /// (libphonenumber's metadata: 810 in Russia and Kazakhstan, 011 in North America, 00 in
  /// China, Britain and Germany); any other country's prefix is not one.
  @Test(
    arguments: [
      ("011 7 495 765 43 21", ["US", "CA"], 74_957_654_321, ["CN", "GB"]),
      ("0086 10 8765 4321", ["DE", "GB", "CN"], 861_087_654_321, ["US"]),
      ("810 86 10 8765 4321", ["RU", "KZ"], 861_087_654_321, ["CN", "US", "GB"]),
      ("00 7 383 123 45 67", ["DE", "CN", "GB"], 73_831_234_567, ["RU", "KZ", "US"]),
      ("0011 44 20 7946 0958", ["AU"], 442_079_460_958, ["GB", "US"]),
      ("010 1 415 555 1212", ["JP"], 14_155_551_212, ["US", "CN"]),
    ] as [(String, [String], Int64, [String])])
  func internationalFormsFollowEachCountrysOwnPrefixes(
    text: String, readBy: [String], expected: Int64, notBy: [String]
  ) {
    for country in readBy {
      #expect((try? normalize(text, country, .valid)) == expected, "\(text) in \(country)")
    }
    for country in notBy {
      #expect((try? normalize(text, country, .valid)) == nil, "\(text) in \(country)")
    }
  }

  @Test func argentinasMobilePrefixIsTransformed() throws {
    // 0 (trunk) 11 (Buenos Aires) 15 (mobile) → +54 9 11 …: the national prefix transform.
    #expect(try normalize("0 11 15 1234 5678", "AR", .valid) == 5_491_112_345_678)
    #expect(try normalize("011 54 9 11 1234 5678", "US", .valid) == 5_491_112_345_678)
  }

  @Test func everyRegionOfLibphonenumberIsKnown() throws {
    let tables = NumberingTables.shared
    #expect(tables.regionIDs.count >= 240)
    for id in ["RU", "KZ", "CN", "US", "CA", "GB", "DE", "AR", "AU", "JP", "IT", "BR", "IN"] {
      #expect(tables.region(id) != nil, "\(id)")
      #expect(throws: Never.self) { try PhoneNormalizer(country: id.lowercased()) }
    }
  }

  @Test func anUnknownCountryIsNamed() {
    #expect(throws: NormalizationError.unknownCountry("XX")) { try PhoneNormalizer(country: "XX") }
  }

  @Test func withoutACountryEveryNumberIsInternational() throws {
    let normalizer = PhoneNormalizer()
    #expect(try normalizer.normalize("74951234567") == 74_951_234_567)
    #expect(try normalizer.normalize("+7 (495) 123-45-67") == 74_951_234_567)
    #expect(try normalizer.normalize("+86 755 1234.5678") == 8_675_512_345_678)
    #expect(try normalizer.normalize("+44 (0)20 7946 0018") == 442_079_460_018)
    #expect(try normalizer.normalize("86196852102") == 86_196_852_102)
    for bad in ["", "+", "abc", "+7 495 x", "0", "123456789012345678901"] {
      #expect(throws: NormalizationError.self, "\(bad)") { try normalizer.normalize(bad) }
    }
  }

  @Test(
    arguments: [
      (74_951_234_567, 7, "4951234567"), (8_675_512_345_678, 86, "75512345678"),
      (12_025_550_123, 1, "2025550123"), (380_441_234_567, 380, "441234567"),
      (442_079_460_018, 44, "2079460018"),
    ] as [(Int64, Int64, String)])
  func callingCodesArePrefixFree(number: Int64, code: Int64, national: String) {
    let split = CallingCode.split(number)
    #expect(split?.code == code)
    #expect(split?.national == national)
  }
}
