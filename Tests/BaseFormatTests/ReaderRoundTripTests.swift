import BaseFormat
import CallDirectoryCore
import CallDirectoryLoader
import Foundation
import TestSupport
import Testing

@Suite("Both readers yield exactly what was written")
struct ReaderRoundTripTests {
  @Test(arguments: [0, 1, 3_000, 300_000])
  func identificationBasesRoundTrip(count: Int) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("base.cdb")
    let entries = sampleEntries(count: count)
    try writeBase(entries, to: path)
    for reader in ReaderKind.allCases {
      let read = try reader.open(path).readAll()
      #expect(read.count == entries.count, "\(reader)")
      #expect(read == entries, "\(reader)")
    }
    // Full UTF-8 validation accepts what the writer wrote, byte for byte.
    if count <= 3_000 {
      #expect(try MappedBaseReader(path: path, validatesLabels: true).readAll() == entries)
    }
  }

  @Test func labelsStraddleTheEightKibibyteBufferAndBlocks() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("base.cdb")
    let entries = sampleEntries(count: 3_000, seed: 7)
    try writeBase(entries, to: path)
    let header = try BufferedBaseReader(path: path).header
    // Blocks are packed close to 8 KiB but never aligned to it, so the buffered reader must
    // carry partial blocks over between reads.
    #expect(header.blockCount > 10)
    #expect(header.payloadByteCount % BufferedBaseReader.bufferByteCount != 0)
    #expect(entries.contains { $0.label.utf8.count == BaseHeader.maximumLabelByteCount })
    #expect(try BufferedBaseReader(path: path).readAll() == entries)
  }

  @Test func blockingBasesCarryNoLabels() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("blocking.cdb")
    let numbers: [Int64] = (1...50_000).map { 79_000_000_000 + Int64($0) * 3 }
    try writeBase(numbers.map { BaseEntry(number: $0) }, kind: .blocking, to: path)
    for reader in ReaderKind.allCases {
      let opened = try reader.open(path)
      #expect(opened.header.kind == .blocking)
      #expect(try opened.readAll().map(\.number) == numbers)
    }
  }

  @Test func theWriterRejectsWhatTheSystemWouldReject() throws {
    let folder = try TemporaryFolder()
    let writer = try BaseWriter(path: folder.path("x.cdb"), kind: .identification)
    try writer.append(10, label: "a")
    #expect(throws: BaseFormatError.self) { try writer.append(10, label: "b") }
    #expect(throws: BaseFormatError.self) { try writer.append(5, label: "b") }
    #expect(throws: BaseFormatError.self) { try writer.append(11, label: "") }
    let tooLong = String(repeating: "a", count: BaseHeader.maximumLabelByteCount + 1)
    #expect(throws: BaseFormatError.self) { try writer.append(11, label: tooLong) }
    let longest = String(repeating: "a", count: BaseHeader.maximumLabelByteCount)
    try writer.append(11, label: longest)
    try writer.finish()
    #expect(try MappedBaseReader(path: folder.path("x.cdb")).readAll().last?.label == longest)
  }

  @Test func aDiscardedWriterLeavesThePreviousBaseInPlace() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("base.cdb")
    let original = sampleEntries(count: 100)
    try writeBase(original, to: path)
    let writer = try BaseWriter(path: path, kind: .identification)
    try writer.append(1, label: "replacement")
    writer.discard()
    #expect(try MappedBaseReader(path: path).readAll() == original)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(leftovers == ["base.cdb"])
  }

  @Test(arguments: LoadStrategy.allCases)
  func theLoaderFeedsEveryEntryToTheContext(strategy: LoadStrategy) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("base.cdb")
    let entries = sampleEntries(count: 20_000)
    try writeBase(entries, to: path)
    let context = CheckingContext()
    let handed = try BaseLoader.load(path: path, strategy: strategy, into: context)
    context.completeRequest(completionHandler: nil)
    #expect(handed == entries.count)
    #expect(context.outcome == .completed)
    #expect(context.identificationCount == entries.count)
    #expect(context.labelByteCount == entries.reduce(0) { $0 + $1.label.utf8.count })
  }

  /// Every single flipped bit of a 1 KiB range changes its checksum; flips in a word's top bits
  /// cancelled out before the finalizer (one in eight of them).
  @Test func everySingleBitFlipChangesTheChecksum() {
    var state: UInt64 = 5
    var bytes = (0..<1_024).map { _ -> UInt8 in
      state = state &* 6_364_136_223_846_793_005 &+ 1
      return UInt8(truncatingIfNeeded: state >> 56)
    }
    let original = StreamChecksum.of(bytes)
    var missed: [Int] = []
    for bit in 0..<(bytes.count * 8) {
      bytes[bit / 8] ^= 1 << UInt8(bit % 8)
      if StreamChecksum.of(bytes) == original { missed.append(bit) }
      bytes[bit / 8] ^= 1 << UInt8(bit % 8)
    }
    #expect(missed.isEmpty, "flips at bits \(missed.prefix(10)) went unnoticed")
  }

  @Test func theChecksumDoesNotDependOnHowBytesAreChunked() {
    var bytes = [UInt8](repeating: 0, count: 10_007)
    for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ 7) }
    let whole = StreamChecksum.of(bytes)
    for chunk in [1, 3, 7, 8, 9, 15, 16, 17, 4096] {
      var checksum = StreamChecksum()
      var start = 0
      while start < bytes.count {
        let end = min(bytes.count, start + chunk)
        checksum.update(bytes[start..<end])
        start = end
      }
      #expect(checksum.value == whole, "chunk \(chunk)")
    }
    bytes[5_000] ^= 0x10
    #expect(StreamChecksum.of(bytes) != whole)
  }
}
