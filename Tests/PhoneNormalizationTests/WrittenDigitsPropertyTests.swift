import PhoneNormalization
import Testing

/// Numbers written in every script read as their ASCII form does, and every accepted number
/// keeps ``WrittenDigitsProperty``: its national digits are the digits written, in order, after
/// the documented prefixes.
@Suite("Every written number read right or refused")
struct WrittenDigitsPropertyTests {
  /// The zero of every run of Unicode decimal digits, from the standard library's properties
  /// (independent of the generated tables the reader uses).
  static let zeros: [UInt32] = (0x30...0x1_FFFF).filter { value in
    guard let scalar = Unicode.Scalar(value) else { return false }
    return scalar.properties.numericType == .decimal && scalar.properties.numericValue == 0
  }

  static func inScript(_ text: String, zero: UInt32) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { scalar in
          guard let value = scalar.properties.numericValue, scalar.isASCII,
            scalar.properties.numericType == .decimal
          else { return scalar }
          return Unicode.Scalar(zero + UInt32(value))!
        }))
  }

  @Test func everyRegionsExamplesReadAlikeInEveryScript() throws {
    #expect(Self.zeros.count >= 60)
    var rows = 0
    var accepted = 0
    for vector in VectorFile.read("examples.tsv") {
      let normalizer = try PhoneNormalizer(country: vector.country)
      let ascii = try? normalizer.normalize(vector.written)
      for zero in Self.zeros {
        let written = Self.inScript(vector.written, zero: zero)
        let ours = try? normalizer.normalize(written)
        rows += 1
        #expect(
          ours == ascii, "'\(written)' (\(vector.country ?? "-")) U+\(String(zero, radix: 16))")
        guard let ours else { continue }
        accepted += 1
        #expect(WrittenDigitsProperty.violation(written: written, number: ours) == nil)
      }
    }
    // 9,000 forms in 66 scripts (the closing note quotes these counts).
    #expect(rows > 500_000 && accepted > 400_000, "\(rows) rows, \(accepted) accepted")
  }

  @Test func everyAcceptedMessyFormKeepsItsWrittenDigits() throws {
    var accepted = 0
    for vector in VectorFile.read("messy.tsv") {
      for validation in PhoneNormalizer.Validation.allCases {
        let normalizer = try PhoneNormalizer(country: vector.country, validation: validation)
        guard let number = try? normalizer.normalize(vector.written) else { continue }
        accepted += 1
        let violation = WrittenDigitsProperty.violation(written: vector.written, number: number)
        #expect(violation == nil, "\(violation ?? "")")
      }
    }
    #expect(accepted > 10_000)
  }

  /// The property itself fails on the readings the old reader gave (a digit dropped, a number
  /// cut short, a digit from the middle skipped).
  @Test(
    arguments: [
      ("+49 30 1234567８", 49_301_234_567),
      ("+971 50 123 456٧", 97_150_123_456),
      ("+7 495 123 45 67", 7_495_123_456),
      ("+7 495 123 45 67", 7_495_124_567),
    ] as [(String, Int64)])
  func thePropertyCatchesAShortenedOrAlteredNumber(written: String, number: Int64) {
    #expect(WrittenDigitsProperty.violation(written: written, number: number) != nil)
  }

  @Test(
    arguments: [
      ("+49 30 1234567８", "DE", 493_012_345_678),
      ("+971 50 123 456٧", "AE", 971_501_234_567),
      ("＋８６ １０ ２０００ １５２５", "RU", 861_020_001_525),
      ("٠٥٠ ١٢٣ ٤٥٦٧", "AE", 971_501_234_567),
      ("۰۹۱۲ ۳۴۵ ۶۷۸۹", "IR", 989_123_456_789),
      ("०९८७६५ ४३२१०", "IN", 919_876_543_210),
      ("০১৭১২-৩৪৫৬৭৮", "BD", 8_801_712_345_678),
      ("๐๘๑ ๒๓๔ ๕๖๗๘", "TH", 66_812_345_678),
      ("電話：（０１０）２０００－１５２５", "CN", 861_020_001_525),
      ("Тел.: 8 (495) 123-45-67 доб. 12", "RU", 74_951_234_567),
      ("1-800-FLOWERS", "US", 18_003_569_377),
      ("+1 800 MY APPLE", "US", 18_006_927_753),
      ("tel:+1-415-555-1212;ext=12", "US", 14_155_551_212),
      ("tel:555-1212;phone-context=+1-415", "RU", 14_155_551_212),
      ("415-555-1212 - 503#", "US", 14_155_551_212),
      ("+44 (0)20 7946 0958 anexo 12", "GB", 442_079_460_958),
      ("+1 415 555 1212,,12", "US", 14_155_551_212),
    ] as [(String, String, Int64)])
  func everyScriptVanityAndExtensionIsRead(written: String, country: String, expected: Int64)
    throws
  {
    #expect(try PhoneNormalizer(country: country).normalize(written) == expected)
  }

  @Test(
    arguments: [
      ("+7 495 123_4567", "unexpected character"),
      ("+7 495 1234567, +7 495 7654321", "unexpected character"),
      ("+1 415 55a 1212", "letters in number"),
      ("+1 415 555 1212 Bob", "letters in number"),  // a vanity number, too long
      ("+1 ८०० FLOWERS", "letters in number"),  // libphonenumber would drop the digits
      ("12-FLOWERS", "letters in number"),  // fewer than 3 digits before the letters
    ] as [(String, String)])
  func aCharacterTheReaderDoesNotTakeRefusesTheNumber(written: String, reason: String) {
    do {
      let number = try PhoneNormalizer(country: "US").normalize(written)
      Issue.record("'\(written)' → \(number), expected \(reason)")
    } catch {
      #expect(error.reason.rawValue == reason, "\(written): \(error)")
    }
  }
}
