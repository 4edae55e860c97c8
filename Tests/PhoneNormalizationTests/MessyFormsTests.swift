import Foundation
import PhoneNormalization
import Testing

/// Numbers written messily, each with libphonenumber's reading: every region's example numbers
/// in digits of every script, full-width and ideographic separators, labels before the number,
/// extensions in several languages, RFC 3966 URIs, the "(0)" trunk prefix, vanity letters and
/// numbers read in another region (`Vectors/messy.tsv`, written by
/// `Scripts/generate-messy-forms.py`).
@Suite("Messy written forms, as libphonenumber reads them")
struct MessyFormsTests {
  static let vectors = VectorFile.read("messy.tsv")

  /// What calldir makes of every vector, beside libphonenumber's answer.
  struct Tally {
    var agree = 0
    var total = 0
    /// Both read a number, and not the same one: never allowed.
    var differentNumbers: [String] = []
    /// calldir refuses what libphonenumber reads, or the other way round.
    var otherDisagreements: [String] = []
  }

  static func tally(_ validation: PhoneNormalizer.Validation) throws -> Tally {
    var tally = Tally()
    for vector in vectors {
      let normalizer = try PhoneNormalizer(country: vector.country, validation: validation)
      let ours = try? normalizer.normalize(vector.written)
      let expected = validation == .possible ? vector.possible : vector.valid
      tally.total += 1
      let line =
        "\(vector.country ?? "-") '\(vector.written)': libphonenumber \(expected.map(String.init) ?? "rejects"), calldir \(ours.map(String.init) ?? "rejects")"
      if ours == expected {
        tally.agree += 1
      } else if let ours, let expected, ours != expected {
        tally.differentNumbers.append(line)
      } else {
        tally.otherDisagreements.append(line)
      }
    }
    return tally
  }

  @Test(arguments: PhoneNormalizer.Validation.allCases)
  func messyFormsAgreeWithLibphonenumber(validation: PhoneNormalizer.Validation) throws {
    #expect(Self.vectors.count > 5_000)
    let tally = try Self.tally(validation)
    #expect(tally.differentNumbers.isEmpty, "\(tally.differentNumbers.prefix(20))")
    // The target: at least 99.5% agreement; what is left is listed and documented (4 forms
    // with possible: vanity numbers written with non-ASCII digits, which libphonenumber drops).
    #expect(tally.otherDisagreements.count <= 4, "\(tally.otherDisagreements)")
    #expect(
      tally.agree * 1000 >= tally.total * 995,
      "\(tally.agree) of \(tally.total) agree: \(tally.otherDisagreements.prefix(30))")
  }

  @Test func everyScriptAndEveryRegionIsCovered() {
    let countries = Set(Self.vectors.compactMap(\.country))
    #expect(Set(NumberingTables.shared.regionIDs).subtracting(countries).count < 5)
    // Arabic-Indic, Persian, Devanagari, Bengali, Thai and full-width digits all appear.
    for zero: UInt32 in [0x660, 0x6F0, 0x966, 0x9E6, 0xE50, 0xFF10] {
      let digit = Character(Unicode.Scalar(zero + 5)!)
      #expect(
        Self.vectors.contains { $0.written.contains(digit) }, "no U+\(String(zero, radix: 16))")
    }
  }
}
