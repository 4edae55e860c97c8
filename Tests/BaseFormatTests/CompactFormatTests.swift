import BaseFormat
import Foundation
import TestSupport
import Testing

@Suite("The compact version: deltas and a bounded label dictionary, read by both readers")
struct CompactFormatTests {
  /// Entries whose labels repeat (a few hundred companies) with some unique ones.
  func repetitiveEntries(count: Int) -> [BaseEntry] {
    var entries = sampleEntries(count: count, seed: 11)
    for index in entries.indices where index % 5 != 0 {
      entries[index].label = "Компания \(index % 300)"
    }
    return entries
  }

  func writeCompact(_ entries: [BaseEntry], kind: BaseKind = .identification, to path: String)
    throws
  {
    let candidates = Set(entries.map(\.label))
    let writer = try BaseWriter(
      path: path, kind: kind, compact: true, dictionaryCandidates: candidates)
    for entry in entries { try writer.append(entry.number, label: entry.label) }
    try writer.finish()
  }

  @Test(arguments: [0, 1, 3_000, 200_000])
  func compactBasesRoundTrip(count: Int) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("compact.cdb")
    let entries = repetitiveEntries(count: count)
    try writeCompact(entries, to: path)
    for reader in ReaderKind.allCases {
      let opened = try reader.open(path)
      #expect(opened.header.version == BaseHeader.compactVersion)
      #expect(try opened.readAll() == entries, "\(reader)")
    }
    if count <= 3_000 {
      #expect(try BufferedBaseReader(path: path, validatesLabels: true).readAll() == entries)
    }
  }

  @Test func compactIsSmallerAndNumbersOnlyReadsSkipLabels() throws {
    let folder = try TemporaryFolder()
    let entries = repetitiveEntries(count: 50_000)
    try writeCompact(entries, to: folder.path("compact.cdb"))
    try writeBase(entries, to: folder.path("fixed.cdb"))
    let compact = try MappedBaseReader(path: folder.path("compact.cdb")).header.fileByteCount
    let fixed = try MappedBaseReader(path: folder.path("fixed.cdb")).header.fileByteCount
    #expect(compact * 2 < fixed, "compact \(compact) vs fixed \(fixed)")
    let reader = try MappedBaseReader(path: folder.path("compact.cdb"))
    reader.skipsLabels = true
    #expect(try reader.readAll().map(\.number) == entries.map(\.number))
  }

  @Test func compactBlockingBasesRoundTrip() throws {
    let folder = try TemporaryFolder()
    let numbers: [Int64] = (1...30_000).map { 8_613_000_000_000 + Int64($0) * 7 }
    try writeCompact(
      numbers.map { BaseEntry(number: $0) }, kind: .blocking, to: folder.path("b.cdb"))
    for reader in ReaderKind.allCases {
      #expect(try reader.open(folder.path("b.cdb")).readAll().map(\.number) == numbers)
    }
  }

  @Test(arguments: ReaderKind.allCases)
  func compactBitFlipsNeverHandOnAWrongEntry(reader: ReaderKind) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("compact.cdb")
    let entries = repetitiveEntries(count: 5_000)
    try writeCompact(entries, to: path)
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    var state: UInt64 = 99
    for trial in 0..<60 {
      state = state &* 6_364_136_223_846_793_005 &+ 1
      let offset = BaseHeader.byteCount + Int(state >> 33) % (data.count - BaseHeader.byteCount)
      var corrupted = data
      corrupted[offset] ^= UInt8(1) << UInt8((state >> 8) % 8)
      try corrupted.write(to: URL(fileURLWithPath: path))
      let (handed, error) = readUntilError(reader, path)
      #expect(error != nil, "trial \(trial): flip at \(offset) went unnoticed")
      #expect(handed == Array(entries.prefix(handed.count)), "trial \(trial)")
    }
  }
}
