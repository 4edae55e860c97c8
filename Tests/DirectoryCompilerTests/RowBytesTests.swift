import ByteCoding
import Foundation
import TestSupport
import Testing

@testable import DirectoryCompiler

@Suite("Rows as bytes: the fields, the rank, the seed candidates")
struct RowBytesTests {
  @Test(arguments: [
    "42", " 42\t", "-7", "+7", "", "+", "-", "4 2", "x1", "9223372036854775807",
    "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "\u{A0}15\u{2009}",
  ])
  func aRankReadsAsTheStandardLibraryReadsItsTrimmedText(_ text: String) {
    let trimmed = text.trimmingWhitespace()
    let parsed = Array(text.utf8).withUnsafeBytes { RowFields.integer(ByteView($0)) }
    #expect(parsed == Int64(trimmed))
  }

  @Test func csvFieldsKeepTheirQuotingRulesAsByteRanges() {
    var ranges: [Range<Int>] = []
    var unquoted: [UInt8] = []
    func split(_ line: String, _ quoting: Quoting) -> [String]? {
      Array(line.utf8).withUnsafeBytes { bytes in
        guard
          case .fields(let inUnquoted) = DelimitedFields.split(
            ByteView(bytes), delimiter: UInt8(ascii: ","), quoting: quoting, fields: &ranges,
            unquoted: &unquoted)
        else { return nil }
        let storage = inUnquoted ? unquoted : Array(bytes)
        return ranges.map { String(decoding: storage[$0], as: UTF8.self) }
      }
    }
    #expect(split("+7495,\"Ромашка, ООО\",7-495", .rfc4180) == ["+7495", "Ромашка, ООО", "7-495"])
    #expect(split("a,\"say \"\"hi\"\"\",", .rfc4180) == ["a", "say \"hi\"", ""])
    #expect(split("a,ООО \"Ромашка\"", .none) == ["a", "ООО \"Ромашка\""])
    #expect(split("a,b\"c", .rfc4180) == ["a", "b\"c"])
    #expect(split(",", .none) == ["", ""])
    let open = Array("a,\"open".utf8).withUnsafeBytes {
      DelimitedFields.split(
        ByteView($0), delimiter: UInt8(ascii: ","), quoting: .rfc4180, fields: &ranges,
        unquoted: &unquoted)
    }
    guard case .needsMore = open else {
      Issue.record("an open quote must ask for the next line")
      return
    }
  }

  @Test func seedCandidatesComeBackInOrderAcrossBufferRefills() throws {
    let folder = try TemporaryFolder()
    let candidates = try SeedCandidates(path: folder.path("candidates.bin"))
    var written: [(Int64, String)] = []
    for index in 0..<60_000 {
      let label = String(repeating: "Ж", count: index % 40 + 1)
      written.append((Int64(70_000_000_000 + index), label))
      try Array(label.utf8).withUnsafeBytes {
        try candidates.add(written.last!.0, label: ByteView($0))
      }
    }
    var read: [(Int64, String)] = []
    try candidates.forEachCandidate { number, label in
      read.append((number, String(decoding: label, as: UTF8.self)))
    }
    #expect(read.count == written.count)
    #expect(read.map(\.0) == written.map(\.0))
    #expect(read.map(\.1) == written.map(\.1))
  }
}
