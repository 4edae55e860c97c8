import Foundation
import Testing

@testable import BaseFormat
@testable import DirectoryContainer
@testable import ReleaseFormat
@testable import SystemChannel

/// The formats catalog (`Sources/BaseFormat/BaseFormat.docc`) ends each format's article with
/// its numbers; each is compared here with the constant the code reads, so a reader written
/// in another language from the article reads what calldir writes.
@Suite("The formats' articles state the code's numbers")
struct FormatDocTests {
  static let catalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Sources/BaseFormat/BaseFormat.docc").standardized

  /// Every constant an article may name, as the article writes it: integers in decimal, byte
  /// magics as their ASCII, strings with a tab written `\t`.
  static let constants: [String: String] = {
    func ascii(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
    func text(_ string: String) -> String { string.replacingOccurrences(of: "\t", with: "\\t") }
    return [
      "BaseHeader.byteCount": "\(BaseHeader.byteCount)",
      "BaseHeader.magic": ascii(BaseHeader.magic),
      "BaseHeader.currentVersion": "\(BaseHeader.currentVersion)",
      "BaseHeader.compactVersion": "\(BaseHeader.compactVersion)",
      "BaseHeader.retiredCompactVersion": "\(BaseHeader.retiredCompactVersion)",
      "BaseHeader.blockHeaderByteCount": "\(BaseHeader.blockHeaderByteCount)",
      "BaseHeader.maximumBlockByteCount": "\(BaseHeader.maximumBlockByteCount)",
      "BaseHeader.maximumLabelByteCount": "\(BaseHeader.maximumLabelByteCount)",
      "BaseHeader.maximumRecordByteCount": "\(BaseHeader.maximumRecordByteCount)",
      "BaseHeader.maximumCompactRecordByteCount": "\(BaseHeader.maximumCompactRecordByteCount)",
      "BaseHeader.maximumDictionaryEntryCount": "\(BaseHeader.maximumDictionaryEntryCount)",
      "BaseHeader.maximumDictionaryByteCount": "\(BaseHeader.maximumDictionaryByteCount)",
      "BaseKind.identification": "\(BaseKind.identification.rawValue)",
      "BaseKind.blocking": "\(BaseKind.blocking.rawValue)",
      "LabelDictionary.magic": ascii(LabelDictionary.magic),
      "LabelDictionary.sectionHeaderByteCount": "\(LabelDictionary.sectionHeaderByteCount)",
      "Manifest.fileName": Manifest.fileName,
      "Manifest.header": text(Manifest.header),
      "Manifest.maximumByteCount": "\(Manifest.maximumByteCount)",
      "ExtensionJournal.fileName": ExtensionJournal.fileName,
      "ExtensionJournal.header": text(ExtensionJournal.header),
      "ExtensionJournal.maximumByteCount": "\(ExtensionJournal.maximumByteCount)",
      "ReleaseIndex.fileName": ReleaseIndex.fileName,
      "ReleaseIndex.format": "\(ReleaseIndex.format)",
      "ReleaseIndex.maximumFileByteCount": "\(ReleaseIndex.maximumFileByteCount)",
      "ReleaseIndex.maximumPatchCount": "\(ReleaseIndex.maximumPatchCount)",
      "ReleaseIndex.maximumCount": "\(ReleaseIndex.maximumCount)",
      "PatchHeader.magic": ascii(PatchHeader.magic),
      "PatchHeader.formatVersion": "\(PatchHeader.formatVersion)",
      "PatchHeader.byteCount": "\(PatchHeader.byteCount)",
      "PatchHeader.labelTerminator": "\(PatchHeader.labelTerminator)",
      "PatchOperation.remove": "\(PatchOperation.remove.rawValue)",
      "PatchOperation.relabel": "\(PatchOperation.relabel.rawValue)",
      "PatchOperation.add": "\(PatchOperation.add.rawValue)",
      "ChannelLayout.frameHeaderByteCount": "\(ChannelLayout.frameHeaderByteCount)",
      "ChannelLayout.ackByteCount": "\(ChannelLayout.ackByteCount)",
      "ChannelLayout.frameDescriptor": "\(ChannelLayout.frameDescriptor)",
      "ChannelLayout.ackDescriptor": "\(ChannelLayout.ackDescriptor)",
      "ChannelLayout.maximumPayloadByteCount": "\(ChannelLayout.maximumPayloadByteCount)",
      "ChannelFrameKind.addIdentification": "\(ChannelFrameKind.addIdentification.rawValue)",
      "ChannelFrameKind.cancel": "\(ChannelFrameKind.cancel.rawValue)",
    ]
  }()

  /// An article's "Numbers, checked against the code" rows: (name, value).
  static func numbers(in text: String) -> [(String, String)] {
    guard let start = text.range(of: "## Numbers, checked against the code") else { return [] }
    return text[start.upperBound...].split(separator: "\n").compactMap { line in
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 2, cells[0].hasPrefix("`"), cells[0].hasSuffix("`") else { return nil }
      return (String(cells[0].dropFirst().dropLast()), cells[1])
    }
  }

  static let formatArticles = [
    "BaseFileVersion1.md", "BaseFileVersion3.md", "ManifestFormat.md", "JournalFormat.md",
    "ReleaseIndexFormat.md", "PatchFormat.md", "ChannelFrames.md",
  ]

  @Test(arguments: formatArticles)
  func eachNumberIsTheCodes(article: String) throws {
    let text = try String(
      contentsOf: Self.catalog.appendingPathComponent(article), encoding: .utf8)
    let rows = Self.numbers(in: text)
    #expect(rows.count >= 3, "\(article) states its numbers in a table")
    for (name, value) in rows {
      let actual = try #require(Self.constants[name], "\(article): \(name) is not a known constant")
      #expect(value == actual, "\(article): \(name) is \(actual) in the code, \(value) in the text")
    }
  }

  /// A planted wrong figure is what the check exists for.
  @Test func aWrongFigureIsCaught() {
    let rows = Self.numbers(
      in:
        "## Numbers, checked against the code\n\n| name | value |\n| --- | --- |\n| `PatchHeader.byteCount` | 187 |\n"
    )
    #expect(rows.count == 1)
    #expect(rows.allSatisfy { Self.constants[$0.0] != $0.1 })
  }

  @Test func everyFormatArticleIsChecked() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.catalog.path)
    let withNumbers = try files.filter { name in
      guard name.hasSuffix(".md") else { return false }
      let text = try String(contentsOf: Self.catalog.appendingPathComponent(name), encoding: .utf8)
      return text.contains("## Numbers, checked against the code")
    }
    #expect(Set(withNumbers) == Set(Self.formatArticles))
  }
}
