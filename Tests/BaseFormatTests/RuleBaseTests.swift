import ByteCoding
import Foundation
import TestSupport
import Testing

@testable import BaseFormat

/// Rule bases (issue 54): ranges written and expanded back exactly, in constant memory; a
/// hostile rule base ends in a clean error, never a trap or a loop the header did not promise.
@Suite("Rule bases: number ranges expanded by their reader")
struct RuleBaseTests {
  let ranges: [(ClosedRange<Int64>, String)] = [
    (33_162_000_000...33_162_000_099, "Démarchage"), (33_162_000_200...33_162_000_200, "Un"),
    (33_948_000_000...33_948_009_999, "Démarchage"),
  ]

  func write(_ path: String, kind: BaseKind) throws -> BaseHeader {
    let writer = try RuleBaseWriter(path: path, kind: kind)
    for (range, label) in ranges { try writer.append(range, label: label, rule: "fr.tsv:2") }
    return try writer.finish()
  }

  @Test(arguments: [BaseKind.identification, .blocking])
  func rangesComeBackAsTheirNumbersInOrder(kind: BaseKind) throws {
    let folder = try TemporaryFolder()
    let header = try write(folder.path("r.cdb"), kind: kind)
    #expect(header.isRules && header.entryCount == 10_101 && header.blockCount == 3)
    let reader = try BaseFile.reader(path: folder.path("r.cdb"), validatesLabels: true)
    var expected: [BaseEntry] = []
    for (range, label) in ranges {
      for number in range {
        expected.append(BaseEntry(number: number, label: kind == .identification ? label : ""))
      }
    }
    #expect(try reader.readAll() == expected)
    let rangesReader = try RuleBaseReader(path: folder.path("r.cdb"))
    var read: [NumberRange] = []
    while let range = try rangesReader.nextRange() { read.append(range) }
    #expect(read.map { $0.first...$0.last } == ranges.map(\.0))
    #expect(read.allSatisfy { $0.rule == "fr.tsv:2" })
    // A list reader refuses a rule base by name, and the verifier reads it range by range.
    #expect(throws: BaseFormatError.self) { try MappedBaseReader(path: folder.path("r.cdb")) }
    #expect(try BaseFile.verify(path: folder.path("r.cdb")) == header)
  }

  @Test func theWriterRefusesRangesOutOfOrderOrPast15Digits() throws {
    let folder = try TemporaryFolder()
    let writer = try RuleBaseWriter(path: folder.path("r.cdb"), kind: .blocking)
    try writer.append(100...200, label: "", rule: "")
    #expect(throws: BaseFormatError.self) { try writer.append(150...300, label: "", rule: "") }
    #expect(throws: BaseFormatError.self) {
      try writer.append(1_000_000_000_000_000...1_000_000_000_000_001, label: "", rule: "")
    }
    writer.discard()
    #expect(!FileManager.default.fileExists(atPath: folder.path("r.cdb")))
  }

  /// A rule base forged byte by byte, with valid checksums, so only the checks on its ranges and
  /// counts stand between it and the loader.
  func forged(
    _ records: [(Int64, Int64)], entryCount: UInt64? = nil, lowest: Int64? = nil,
    highest: Int64? = nil, at path: String
  ) throws {
    var payload: [UInt8] = []
    for (first, last) in records {
      payload.appendLittleEndian(first)
      payload.appendLittleEndian(last)
      payload.appendLittleEndian(UInt32(0))
      payload.appendLittleEndian(UInt32(0))
    }
    let sum = records.reduce(UInt64(0)) { $0 &+ UInt64(bitPattern: $1.1 &- $1.0) &+ 1 }
    let numbers = records.flatMap { [$0.0, $0.1] }
    var header = BaseHeader(
      kind: .blocking, entryCount: Int(truncatingIfNeeded: entryCount ?? sum),
      lowestNumber: lowest ?? numbers.min() ?? 0, highestNumber: highest ?? numbers.max() ?? 0,
      blockCount: records.count,
      payloadByteCount: payload.count, blockChecksumsChecksum: StreamChecksum.of(payload))
    header.version = BaseHeader.rulesVersion
    let headerBytes = header.encoded()
    let bytes =
      headerBytes + payload + LabelDictionary.section(labels: [], ends: [], header: headerBytes)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  /// One forged rule base: its records, the count its header claims, what the error says.
  struct Hostile: Sendable, CustomTestStringConvertible {
    let name: String
    let records: [(Int64, Int64)]
    let count: UInt64?
    let message: String?
    var testDescription: String { name }
  }

  static let hostile: [Hostile] = [
    Hostile(
      name: "unsorted", records: [(500, 600), (100, 200)], count: nil, message: "is not above"),
    // The header's count fits its range, so the reader's own check meets the overlap.
    Hostile(
      name: "overlapping", records: [(100, 200), (150, 300)], count: 201, message: "is not above"),
    Hostile(
      name: "backwards", records: [(250, 200), (300, 300)], count: 2, message: "is not above"),
    Hostile(
      name: "past the header's count", records: [(100, 200), (300, 400)], count: 150,
      message: "more than the header's"),
    Hostile(
      name: "short of the header's count", records: [(100, 200), (300, 400)], count: 250,
      message: "the ranges hold 202 numbers"),
    Hostile(
      name: "10^18 numbers", records: [(1, 1_000_000_000_000_000_000)],
      count: 1_000_000_000_000_000_000, message: nil),
  ]

  @Test(arguments: hostile)
  func aHostileRuleBaseEndsInACleanError(_ hostile: Hostile) throws {
    let (name, records, count, message) = (
      hostile.name, hostile.records, hostile.count, hostile.message
    )
    let folder = try TemporaryFolder()
    let path = folder.path("r.cdb")
    try forged(records, entryCount: count, at: path)
    var handed = 0
    let error = #expect(throws: BaseFormatError.self, "\(name)") {
      let reader = try BaseFile.reader(path: path)
      while try reader.next() != nil {
        handed += 1
        // A reader that believed 10^18 would never end: the test would hang here.
        if handed > 1_000 { break }
      }
    }
    #expect(handed <= 1_000, "\(name)")
    if let message, let error { #expect(error.description.contains(message), "\(error)") }
  }
}
