import ByteCoding
import Datasets
import Foundation
import TestSupport
import Testing

@testable import DirectoryCompiler

/// A plan's row read on its bytes (issue 67, item 3: a million rows a file) reads as the row
/// decoded whole, split and trimmed did; dates read on their bytes as they did through strings.
@Suite("Plan rows read on their bytes")
struct PlanFieldsTests {
  /// The fields of `line` as the general path makes them: the line split by
  /// `PatternFile.fields`, each field trimmed.
  func splitWhole(_ line: [UInt8], delimiter: UInt8) throws -> [String] {
    try line.withUnsafeBufferPointer { bytes in
      try unsafe PatternFile.fields(
        of: ByteView(bytes), delimiter: delimiter, quoting: Quoting.none, at: "line"
      ).map(PlanFormat.trimmingBlanks)
    }
  }

  /// Random lines of padded ASCII, Cyrillic, empty fields, bare quotes and blanks: both
  /// readings agree on each, for tabs and semicolons.
  @Test(arguments: [UInt8(ascii: "\t"), UInt8(ascii: ";")])
  func aRowReadOnItsBytesIsTheRowReadWhole(delimiter: UInt8) throws {
    var random = SplitMix64(seed: 67)
    let pieces = [
      "", " ", "  ", "\t", "201-200", "ООО \"Т2 Мобайл\"", "Краснодарский край", "é", "\"", "AS ",
    ]
    for _ in 0..<2_000 {
      let count = Int.random(in: 1...9, using: &random)
      let fields = (0..<count).map { _ in
        (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random)!
        }
        .joined()
      }
      let line = Array(fields.joined(separator: String(UnicodeScalar(delimiter))).utf8)
      let fast = PlanRows.trimmedFields(of: line[...], delimiter: delimiter)
      #expect(fast == (try splitWhole(line, delimiter: delimiter)), "\(fields)")
    }
  }

  /// A field that is not UTF-8 makes the fast reading give up, so the line is read whole:
  /// refused in Russia's UTF-8, read as ISO-8859-1 in NANPA's file.
  @Test func aLineThatIsNotUTF8IsLeftToTheWholeLineReading() throws {
    let line: [UInt8] = Array("NJ\t201-200\t9102\tSOCI".utf8) + [0xC9] + Array("TE\tX".utf8)
    #expect(PlanRows.trimmedFields(of: line[...], delimiter: UInt8(ascii: "\t")) == nil)
    let folder = try TemporaryFolder()
    let path = folder.path("allutlzd.txt")
    let header = "State\tNPA-NXX\tOCN\tCompany\tRateCenter\tEffectiveDate\tUse\n"
    let row: [UInt8] =
      Array("NJ\t201-200\t9102\tSOCI".utf8) + [0xC9]
      + Array("TE\tJERSEYCITY\t01/02/2000\tAS\n".utf8)
    try Data(Array(header.utf8) + row).write(to: URL(fileURLWithPath: path))
    let contents = try NumberingPlan.read(path, format: .nanpa)
    #expect(contents.ranges.map(\.operator) == ["SOCIÉTE"])
    #expect(contents.ranges.map(\.allocated) == ["2000-01-02"])
  }

  /// NANPA's dates (`M/D/YYYY`, one or two digits) and ARCEP's (`DD/MM/YYYY`), and shapes that
  /// are neither: an empty part, a two-digit year, a month past 12, letters.
  @Test(
    arguments: [
      ("1/5/2021", "2021-01-05"), ("01/21/2021", "2021-01-21"), ("12/31/1999", "1999-12-31"),
      ("1//5/2021", nil), ("/1/5/2021", nil), ("1/5/21", nil), ("13/01/2021", nil),
      ("1/5/2021/", nil), ("1/32/2021", nil), ("a/5/2021", nil), ("", nil), ("1/5/20211", nil),
      ("001/5/2021", nil),
    ] as [(String, String?)])
  func nanpaDatesReadAsMonthDayYear(text: String, iso: String?) {
    #expect(PlanFormat.isoDate(fromMonthDayYear: text) == iso)
  }

  @Test(
    arguments: [
      ("21/01/2021", "2021-01-21"), ("01/12/0999", "0999-12-01"), ("1/01/2021", nil),
      ("21/1/2021", nil), ("21/13/2021", nil), ("00/01/2021", nil), ("21/01/2021 ", nil),
    ] as [(String, String?)])
  func arcepDatesReadAsDayMonthYear(text: String, iso: String?) {
    #expect(PlanFormat.isoDate(fromDayMonthYear: text) == iso)
  }
}
