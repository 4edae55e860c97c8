import DirectoryContainer
import Foundation
import PhoneNormalization
import TestSupport
import Testing

@testable import DirectoryCompiler

/// Dumps that mix countries: a country per input (`FILE:CC`) and a country column per row,
/// beside the default; every number read by libphonenumber's rules for its own country.
@Suite("compile reads each input's and each row's own country")
struct MixedCountryTests {
  let helpers = CompilerTests()

  @Test func aCountryColumnAndAnInputsCountryBesideTheDefault() throws {
    let folder = try TemporaryFolder()
    let rows = folder.path("rows.tsv")
    try Data(
      """
      number\tlabel\tcountry
      8 (495) 123-45-67\tMoscow\tRU
      020 7946 0958\tLondon\tgb
      (415) 555-1212\tSan Francisco\tUS
      0755-12345678\tShenzhen\t
      0755-12345678\tNowhere\tXX

      """.utf8
    ).write(to: URL(fileURLWithPath: rows))
    let german = folder.path("german.tsv")
    try Data("number\tlabel\n030 12345678\tBerlin\n+44 (0)20 7946 0000\tLondon 2\n".utf8).write(
      to: URL(fileURLWithPath: german))
    let (report, manifest, box) = try helpers.compile(
      [(rows, .tsv), (german, .tsv)], folder: folder
    ) {
      $0.country = "CN"  // rows without a country of their own, in a file without one
      $0.inputCountries = [german: "DE"]
    }
    #expect(
      try helpers.entries(box, manifest, role: .region) == [
        "14155551212 San Francisco", "442079460000 London 2", "442079460958 London",
        "493012345678 Berlin", "74951234567 Moscow", "8675512345678 Shenzhen",
      ])
    #expect(report.rejected[.number(.unknownCountry)]?.count == 1, "\(report.rejected)")
  }

  @Test func validationValidRefusesWhatPossibleAccepts() throws {
    let folder = try TemporaryFolder()
    let rows = folder.path("us.tsv")
    try Data("number\tlabel\n(415) 555-1212\tgood\n(115) 555-1212\tbad area code\n".utf8).write(
      to: URL(fileURLWithPath: rows))
    for (validation, kept) in [
      (PhoneNormalizer.Validation.possible, 2), (.valid, 1),
    ] {
      let out = try TemporaryFolder()
      let (report, manifest, box) = try helpers.compile([(rows, .tsv)], folder: out) {
        $0.country = "US"
        $0.validation = validation
      }
      #expect(try helpers.entries(box, manifest, role: .region).count == kept, "\(validation)")
      #expect(report.rejectedCount == 2 - kept)
    }
  }
}
