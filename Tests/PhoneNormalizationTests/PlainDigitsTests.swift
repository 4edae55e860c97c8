import PhoneNormalization
import Testing

/// A number written as bare ASCII digits (after at most one `+`) is read by a shortcut, the form
/// most dumps hold; the full reader must agree with it. Here every example's digits are read
/// bare and with a space after the first digit (which takes the full reader), in every
/// validation, and both give the same number or the same error.
@Suite("Bare digits read as the full reader reads them")
struct PlainDigitsTests {
  /// `+` when written, then the digits, with `separator` after the first digit.
  static func bare(_ written: String, separator: String = "") -> String? {
    let digits = written.unicodeScalars.filter {
      $0.isASCII && $0.properties.numericType == .decimal
    }
    guard let first = digits.first else { return nil }
    let plus = written.unicodeScalars.first { $0 == "+" || $0.properties.numericType == .decimal }
    return (plus == "+" ? "+" : "") + String(first) + separator
      + String(String.UnicodeScalarView(digits.dropFirst()))
  }

  static func outcome(_ normalizer: PhoneNormalizer, _ text: String) -> String {
    do {
      return String(try normalizer.normalize(text))
    } catch {
      return "\(error)"
    }
  }

  @Test func bareDigitsReadAsWithASeparator() throws {
    var compared = 0
    var accepted = 0
    var plus = 0
    for vector in VectorFile.read("examples.tsv") + VectorFile.read("messy.tsv") {
      guard let bare = Self.bare(vector.written),
        let separated = Self.bare(vector.written, separator: " ")
      else { continue }
      for validation in PhoneNormalizer.Validation.allCases {
        let normalizer = try PhoneNormalizer(country: vector.country, validation: validation)
        let (fast, full) = (Self.outcome(normalizer, bare), Self.outcome(normalizer, separated))
        #expect(fast == full, "'\(bare)' and '\(separated)' (\(vector.country ?? "-"))")
        compared += 1
        if Int64(fast) != nil { accepted += 1 }
        if bare.hasPrefix("+") { plus += 1 }
      }
    }
    #expect(
      compared > 10_000 && accepted > 5_000 && plus > 1_000, "\(compared), \(accepted), \(plus)")
  }

  @Test func longerThanTheReaderHoldsIsRefusedAlike() throws {
    let normalizer = try PhoneNormalizer(country: "RU")
    for count in [47, 48, 49, 60] {
      let digits = String(repeating: "7", count: count)
      #expect(
        Self.outcome(normalizer, digits) == Self.outcome(normalizer, "7 " + digits.dropFirst()))
      #expect(
        Self.outcome(normalizer, "+" + digits)
          == Self.outcome(normalizer, "+7 " + digits.dropFirst()))
    }
    for text in ["+", "++7", "+7+", "7+", ""] {
      #expect(throws: NormalizationError.self, "'\(text)'") { try normalizer.normalize(text) }
    }
  }
}
