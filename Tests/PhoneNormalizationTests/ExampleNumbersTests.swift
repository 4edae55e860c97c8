import Foundation
import PhoneNormalization
import Testing

/// libphonenumber's own example numbers, every type of every region, written in national,
/// international, E.164 and international-prefix forms (the region's own prefix, and from the
/// US, Russia and Germany), with what libphonenumber makes of each: `Vectors/examples.tsv`,
/// written by `Scripts/generate-phone-metadata.py` from the pinned metadata.
@Suite("Every region's example numbers, in every written form, as libphonenumber reads them")
struct ExampleNumbersTests {
  static let vectors = VectorFile.read("examples.tsv")

  @Test(arguments: PhoneNormalizer.Validation.allCases)
  func everyWrittenFormAgreesWithLibphonenumber(validation: PhoneNormalizer.Validation) throws {
    #expect(Self.vectors.count > 8_000)
    var disagreements: [String] = []
    for vector in Self.vectors {
      let normalizer = try PhoneNormalizer(country: vector.country, validation: validation)
      let ours = try? normalizer.normalize(vector.written)
      let expected = validation == .possible ? vector.possible : vector.valid
      if ours != expected {
        disagreements.append(
          "\(vector.country ?? "-") '\(vector.written)': libphonenumber \(expected.map(String.init) ?? "rejects"), calldir \(ours.map(String.init) ?? "rejects")"
        )
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.count) disagree: \(disagreements.prefix(20))")
  }

  @Test func everyRegionHasExampleNumbers() {
    let countries = Set(Self.vectors.compactMap(\.country))
    let regions = NumberingTables.shared.regionIDs
    #expect(regions.count >= 240)
    #expect(Set(regions).subtracting(countries).isEmpty)
  }
}
