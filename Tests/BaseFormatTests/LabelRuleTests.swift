import BaseFormat
import ByteCoding
import Foundation
import TestSupport
import Testing

/// A label is 1 to 1,024 bytes of UTF-8 on one line (``LabelRule``): the writer refuses the
/// rest, and readers refuse what a crafted base with valid checksums holds anyway.
@Suite("Labels say what they hold")
struct LabelRuleTests {
  @Test(
    arguments: [
      "nul\u{0}inside", "line\nfeed", "carriage\rreturn", "tab\there", "del\u{7F}",
      "c1\u{85}control", "line\u{2028}separator", "paragraph\u{2029}separator",
      // Bidirectional controls and a byte order mark inside disguise a name (issue 52, item 13).
      "\u{202E}knaB", "Bank\u{202D}", "a\u{202A}b", "\u{2066}Bank\u{2069}", "x\u{200F}",
      "x\u{200E}", "\u{061C}x", "Bank\u{FEFF}Pay",
    ])
  func theWriterRefusesAControlCharacterOrLineBreak(label: String) throws {
    let folder = try TemporaryFolder()
    for compact in [false, true] {
      let writer = try BaseWriter(
        path: folder.path("x.cdb"), kind: .identification, compact: compact)
      #expect(throws: BaseFormatError.self, "\(label.debugDescription)") {
        try writer.append(10, label: label)
      }
      let bytes = Array(label.utf8)
      #expect(throws: BaseFormatError.self) {
        try bytes.withUnsafeBytes { try writer.append(11, labelBytes: ByteView($0)) }
      }
      writer.discard()
    }
    #expect(Array(label.utf8).withUnsafeBytes { LabelRule.problem(ByteView($0)) } != nil)
  }

  @Test func labelsOfEveryScriptAndSymbolPass() throws {
    for label in ["Аптека «Ригла»", "电话 诈骗", "☎ Pizza — 24/7", "مطعم", "Ἀθῆναι", "😀 x"] {
      let bytes = Array(label.utf8)
      #expect(bytes.withUnsafeBytes { LabelRule.problem(ByteView($0)) } == nil, "\(label)")
    }
  }

  /// A fixed-width (v1) base whose record holds a 0-byte label, checksums valid: both readers
  /// refuse it, as the compact format cannot hold one.
  @Test func anEmptyLabelInAFixedWidthBaseIsRefused() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("empty.cdb")
    let writer = try BaseWriter(path: path, kind: .identification)
    // A long first label, so that the header's bytes-per-entry bound cannot tell.
    try writer.append(10, label: String(repeating: "a", count: 100))
    try [UInt8]().withUnsafeBytes { try writer.append(11, checkedLabelBytes: ByteView($0)) }
    _ = try writer.finish()
    for read in [
      { try MappedBaseReader(path: path).readAll() },
      { try BufferedBaseReader(path: path).readAll() },
      { try MappedBaseReader(path: path, validatesLabels: true).readAll() },
    ] as [() throws -> [BaseEntry]] {
      #expect {
        _ = try read()
      } throws: { error in
        "\(error)".contains("empty label")
      }
    }
  }

  /// A base whose label holds a line break, checksums valid: a validating reader (inspect,
  /// stage) refuses it with the byte offset.
  @Test(arguments: [false, true])
  func aValidatingReaderRefusesALineBreakInALabel(compact: Bool) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("crafted.cdb")
    let writer = try BaseWriter(
      path: path, kind: .identification, compact: compact,
      dictionaryCandidates: compact ? ["two\nlines"] : [])
    try Array("two\nlines".utf8).withUnsafeBytes {
      try writer.append(10, checkedLabelBytes: ByteView($0))
    }
    _ = try writer.finish()
    #expect {
      _ = try MappedBaseReader(path: path, validatesLabels: true).readAll()
    } throws: { error in
      "\(error)".contains("control character")
    }
  }
}
