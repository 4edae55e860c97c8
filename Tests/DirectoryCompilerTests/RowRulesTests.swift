import BaseFormat
import DirectoryContainer
import Foundation
import PhoneNormalization
import TestSupport
import Testing

@testable import DirectoryCompiler

/// What a row may hold: ranks that are whole numbers, labels that are one line of text,
/// blocking lists without labels, and numbers whose digits are the digits written.
@Suite("calldir compile: ranks, labels and numbers read right or refused")
struct RowRulesTests {
  func compile(
    _ file: String, _ bytes: String, format: InputFormat, folder: TemporaryFolder,
    configure: (inout CompileOptions) -> Void = { _ in }
  ) throws -> (CompileReport, String) {
    let input = folder.path(file)
    try Data(bytes.utf8).write(to: URL(fileURLWithPath: input))
    let out = folder.path("box")
    var options = CompileOptions(inputs: [(input, format)], output: out)
    options.seedSize = 0
    configure(&options)
    return (try Compiler(options: options).run(), out)
  }

  @Test func ranksThatAreNotWholeNumbersAreRejectedRows() throws {
    let folder = try TemporaryFolder()
    let tsv = """
      number\tlabel\trank
      8 495 111 22 33\tgood\t10
      8 495 111 22 34\tword\thigh
      8 495 111 22 35\texponent\t1e3
      8 495 111 22 36\tfraction\t2.5
      8 495 111 22 37\tnone\t

      """
    let (report, _) = try compile("ranks.tsv", tsv, format: .tsv, folder: folder)
    #expect(report.rejected[.badRank]?.count == 3, "\(report.rejected)")
    #expect(report.accepted == 2)
    let jsonl = """
      {"number": "8 495 111 22 33", "label": "a", "rank": 10}
      {"number": "8 495 111 22 34", "label": "b", "rank": 1e3}
      {"number": "8 495 111 22 35", "label": "c", "rank": 2.5}
      {"number": "8 495 111 22 36", "label": "d", "rank": "high"}
      {"number": "8 495 111 22 37", "label": "e", "rank": true}
      {"number": "8 495 111 22 38", "label": "f", "rank": "7"}

      """
    let (json, _) = try compile("ranks.jsonl", jsonl, format: .jsonl, folder: folder)
    #expect(json.rejected[.badRank]?.count == 4, "\(json.rejected)")
    #expect(json.accepted == 2)
    #expect(throws: (any Error).self) {
      _ = try compile("ranks.tsv", tsv, format: .tsv, folder: try TemporaryFolder()) {
        $0.strict = true
      }
    }
  }

  @Test func labelsWithAControlCharacterOrLineBreakAreRejectedRows() throws {
    let folder = try TemporaryFolder()
    let csv =
      "number,label\n8 495 111 22 33,good\n\"8 495 111 22 34\",\"two\rlines\"\n"
      + "8 495 111 22 35,\"two\nlines\"\n8 495 111 22 36,nul\u{0}inside\n"
      + "8 495 111 22 37,line\u{2028}separator\n"
    let (report, out) = try compile("labels.csv", csv, format: .csv, folder: folder)
    #expect(report.rejected[.labelControlCharacter]?.count == 4, "\(report.rejected)")
    #expect(report.accepted == 1)
    let manifest = try Manifest.read(container: out)
    for base in manifest.bases {
      for entry in try MappedBaseReader(path: out + "/" + base.file).readAll() {
        #expect(!entry.label.unicodeScalars.contains { $0.value < 0x20 }, "\(entry.label)")
      }
    }
  }

  /// Characters that show nothing never reach a store or the manifest: the labels and region
  /// names the hostile test of issue 65 (item 15) got in are rejected rows, and joiners,
  /// variation selectors and a subdivision flag, which scripts and emoji need, are kept.
  @Test func labelsAndRegionsWithCharactersThatShowNothingAreRejectedRows() throws {
    let folder = try TemporaryFolder()
    let hidden = ["\u{200B}", "\u{2060}", "\u{00AD}", "\u{FFF9}", "\u{E0041}", "\u{3164}"]
    let kept = [
      "\u{0645}\u{06CC}\u{200C}\u{062E}", "\u{1F468}\u{200D}\u{1F373}", "\u{2615}\u{FE0F}",
      "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F} Cardiff",
    ]
    var tsv = "number\tlabel\tregion\n"
    var line = 0
    for (index, character) in hidden.enumerated() {
      line += 1
      tsv += "8 495 111 22 \(10 + line)\tBa\(character)nk\tMoscow\n"
      line += 1
      tsv += "8 495 111 22 \(10 + line)\tBank\tZone\(index)\(character)\n"
    }
    line += 1
    tsv += "8 495 111 22 \(10 + line)\tBank\tMos\u{202E}cow\n"
    for label in kept {
      line += 1
      tsv += "8 495 111 22 \(10 + line)\t\(label)\tMoscow\n"
    }
    let (report, out) = try compile("hidden.tsv", tsv, format: .tsv, folder: folder)
    #expect(report.rejected[.labelInvisibleCharacter]?.count == hidden.count, "\(report.rejected)")
    #expect(report.rejected[.regionUnreadable]?.count == hidden.count + 1, "\(report.rejected)")
    #expect(report.accepted == kept.count)
    let manifest = try Manifest.read(container: out)
    #expect(manifest.bases.compactMap(\.region) == ["Moscow"])
    var labels: [String] = []
    for base in manifest.bases where base.role == .region {
      labels += try MappedBaseReader(path: out + "/" + base.file).readAll().map(\.label)
    }
    #expect(labels.sorted() == kept.sorted())
    #expect(!BaseNaming.isValidRegion("Mos\u{202E}cow"))
    #expect(!BaseNaming.isValidRegion("Zone\u{200B}"))
    #expect(BaseNaming.isValidRegion("Île-de-France"))
  }

  @Test func aBlockingListNeedsNoLabelColumn() throws {
    let folder = try TemporaryFolder()
    let tsv = "number\n8 495 111 22 33\n8 495 111 22 34\n"
    let (report, out) = try compile("spam.tsv", tsv, format: .tsv, folder: folder) {
      $0.blockingInputs = [folder.path("spam.tsv")]
    }
    #expect(report.accepted == 2)
    let manifest = try Manifest.read(container: out)
    let blocked = try manifest.bases.filter { $0.role == .blocking }.flatMap {
      try MappedBaseReader(path: out + "/" + $0.file).readAll().map(\.number)
    }
    #expect(blocked == [74_951_112_233, 74_951_112_234])
  }

  /// Every row the compiler accepts keeps ``WrittenDigitsProperty``: rows in digits of several
  /// scripts, full-width forms, vanity letters and extensions, each labelled with its own line.
  @Test func everyAcceptedRowInstallsTheDigitsWritten() throws {
    let folder = try TemporaryFolder()
    let zeros: [UInt32] = [0x30, 0xFF10, 0x660, 0x6F0, 0x966, 0x9E6, 0xE50, 0x1040, 0x1D7CE]
    let forms = [
      "+7 495 123-45-67", "8 (495) 123-45-67 доб. 12", "+49 30 1234567", "+1 415 555 1212 x12",
      "Тел.: +7 916 000 11 22", "電話：+86 10 2000 1525", "+44 (0)20 7946 0958",
      "tel:+1-415-555-1212;ext=12", "+971 50 123 4567", "+7 495 123-45-6", "+7 495 123 45 678",
    ]
    var rows: [String] = []
    for zero in zeros {
      for form in forms {
        let written = String(
          String.UnicodeScalarView(
            form.unicodeScalars.map { scalar in
              guard let value = scalar.properties.numericValue, scalar.isASCII,
                scalar.properties.numericType == .decimal
              else { return scalar }
              return Unicode.Scalar(zero + UInt32(value))!
            }))
        rows.append(written)
      }
    }
    rows += ["1-800-FLOWERS", "+1 800 MY APPLE ext. 9"]
    let tsv =
      "number\tlabel\n"
      + rows.enumerated().map { "\($1)\trow \($0)" }.joined(separator: "\n") + "\n"
    let (report, out) = try compile("scripts.tsv", tsv, format: .tsv, folder: folder) {
      $0.country = "RU"
      $0.duplicates = .first
    }
    let manifest = try Manifest.read(container: out)
    var checked = 0
    for base in manifest.bases where base.role == .region {
      for entry in try MappedBaseReader(path: out + "/" + base.file).readAll() {
        let row = Int(entry.label.dropFirst(4))!
        #expect(WrittenDigitsProperty.violation(written: rows[row], number: entry.number) == nil)
        checked += 1
      }
    }
    #expect(checked > 0 && checked == report.accepted - report.duplicatesDropped)
    // The short and long forms are refused in every script, never read as another number.
    #expect(report.rejected[.number(.wrongLength)]?.count == 2 * zeros.count, "\(report.rejected)")
  }
}
