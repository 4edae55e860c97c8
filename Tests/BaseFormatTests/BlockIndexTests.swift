import BaseFormat
import Foundation
import TestSupport
import Testing

/// A base's block index kept in a file of its own: read back it is the index a pass makes, and
/// one made for another base, or damaged, is refused rather than used.
@Suite("Block indexes kept beside their bases")
struct BlockIndexTests {
  @Test(arguments: [false, true])
  func aStoredIndexFindsWhatAPassFinds(compact: Bool) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("a.cdb")
    let entries = sampleEntries(count: 30_000)
    let writer = try BaseWriter(path: path, kind: .identification, compact: compact)
    for entry in entries { try writer.append(entry.number, label: entry.label) }
    try writer.finish()
    let passed = try BlockSearch(path: path)
    #expect(!passed.indexWasLoaded && passed.blockCount > 10)
    let bytes = passed.index.encoded(for: passed.header)
    let decoded = try #require(BlockIndex(decoding: bytes, for: passed.header))
    #expect(decoded == passed.index)
    let loaded = try BlockSearch(path: path, storedIndex: { BlockIndex(decoding: bytes, for: $0) })
    #expect(loaded.indexWasLoaded)
    for entry in entries.enumerated().filter({ $0.offset % 97 == 0 }).map(\.element) {
      #expect(try loaded.find(entry.number) == entry.label)
      #expect(try loaded.find(entry.number + 1) == (try passed.find(entry.number + 1)))
    }
  }

  @Test func anotherBasesOrADamagedIndexIsRefused() throws {
    let folder = try TemporaryFolder()
    let (one, two) = (folder.path("one.cdb"), folder.path("two.cdb"))
    try writeBase(sampleEntries(count: 20_000, seed: 1), to: one)
    try writeBase(sampleEntries(count: 20_000, seed: 2), to: two)
    let first = try BlockSearch(path: one)
    let second = try BlockSearch(path: two)
    let bytes = first.index.encoded(for: first.header)
    #expect(BlockIndex(decoding: bytes, for: second.header) == nil, "made for another base")
    var damaged = bytes
    damaged[40] ^= 1
    #expect(BlockIndex(decoding: damaged, for: first.header) == nil, "its checksum")
    #expect(BlockIndex(decoding: Array(bytes.dropLast()), for: first.header) == nil, "truncated")
    // An index whose checksum holds but whose numbers are another base's is caught by the
    // block it points to, as an error, never an answer.
    var forged = BlockIndex()
    forged.offsets = first.index.offsets
    forged.numbersBefore = first.index.numbersBefore
    forged.firstNumbers = first.index.firstNumbers.map { $0 + 1 }
    let lying = try BlockSearch(path: one, storedIndex: { _ in forged })
    #expect(throws: BaseFormatError.self) {
      _ = try lying.find(forged.firstNumbers[3] + 5)
    }
  }
}
