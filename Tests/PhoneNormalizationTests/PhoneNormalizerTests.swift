import PhoneNormalization
import Testing

@Suite("Written numbers become CallKit numbers, per country")
struct PhoneNormalizerTests {
  func normalize(_ text: String, _ country: String) throws -> Int64 {
    try PhoneNormalizer(country: country).normalize(text)
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
      ("00 7 383 123 45 67", 73_831_234_567),
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
      ("86196852102", 86_196_852_102),  // the article's file: already CallKit digits
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
      ("12345", "CN", "wrong length"),
      ("(115) 555-1212", "US", "invalid NANP number"),
      ("0123456789", "US", "leading zero"),
      ("+999 1234", "RU", "too short"),
      ("+999 1234 5678 9012 345", "RU", "too long"),
    ] as [(String, String, String)])
  func impossibleNumbersAreRejectedWithTheirReason(text: String, country: String, reason: String) {
    do {
      let number = try normalize(text, country)
      Issue.record("\(text) → \(number), expected \(reason)")
    } catch let error as NormalizationError {
      #expect(error.reason.rawValue == reason, "\(text): \(error)")
    } catch {
      Issue.record("\(error)")
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
