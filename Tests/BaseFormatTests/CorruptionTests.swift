import BaseFormat
import ByteCoding
import Foundation
import SystemPackage
import TestSupport
import Testing

@Suite("Corrupt, truncated and foreign files give their error, never a wrong entry")
struct CorruptionTests {
  func makeBase(_ folder: TemporaryFolder, count: Int = 5_000) throws -> (String, [BaseEntry], Data)
  {
    let path = folder.path("base.cdb")
    let entries = sampleEntries(count: count, seed: 3)
    try writeBase(entries, to: path)
    return (path, entries, try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test(arguments: ReaderKind.allCases)
  func truncatedFilesAreRefusedBeforeAnyEntry(reader: ReaderKind) throws {
    let folder = try TemporaryFolder()
    let (path, _, data) = try makeBase(folder)
    for length in [0, 10, 63, 64, 65, 8_000, data.count / 2, data.count - 1] {
      try data.prefix(length).write(to: URL(fileURLWithPath: path))
      let (handed, error) = readUntilError(reader, path)
      #expect(handed.isEmpty, "length \(length)")
      let problem = try #require(error, "length \(length)").problem
      switch problem {
      case .shorterThanHeader, .sizeMismatch: break
      default: Issue.record("length \(length): unexpected \(problem)")
      }
      #expect(error!.description.contains("truncated"), "\(error!)")
    }
  }

  @Test(arguments: ReaderKind.allCases)
  func trailingBytesAreRefused(reader: ReaderKind) throws {
    let folder = try TemporaryFolder()
    let (path, _, data) = try makeBase(folder)
    try (data + Data([1, 2, 3])).write(to: URL(fileURLWithPath: path))
    let (_, error) = readUntilError(reader, path)
    #expect(error?.problem == .sizeMismatch(expected: data.count, actual: data.count + 3))
  }

  @Test(arguments: ReaderKind.allCases)
  func foreignFilesAreNamedSo(reader: ReaderKind) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("foreign.txt")
    try Data(String(repeating: "79001234567\u{D7FF}Аптека\n", count: 100).utf8)
      .write(to: URL(fileURLWithPath: path))
    let (handed, error) = readUntilError(reader, path)
    #expect(handed.isEmpty)
    #expect(error?.problem == .foreignFile)
    #expect(error?.offset == 0)
    #expect(error?.description.contains("not a calldir base") == true)
  }

  @Test(arguments: ReaderKind.allCases)
  func aMissingFileNamesTheSystemError(reader: ReaderKind) throws {
    let (_, error) = readUntilError(reader, "/nonexistent/base.cdb")
    #expect(error?.problem == .system(call: "open", errno: .noSuchFileOrDirectory))
  }

  @Test(arguments: ReaderKind.allCases)
  func headerBitFlipsAreCaughtByTheHeaderChecks(reader: ReaderKind) throws {
    let folder = try TemporaryFolder()
    let (path, _, data) = try makeBase(folder)
    for byte in 0..<BaseHeader.byteCount {
      var corrupted = data
      corrupted[byte] ^= 0x04
      try corrupted.write(to: URL(fileURLWithPath: path))
      let (handed, error) = readUntilError(reader, path)
      #expect(handed.isEmpty, "byte \(byte)")
      #expect(error != nil, "byte \(byte)")
    }
  }

  /// Flips one bit at many places in the payload: each read must fail, and whatever was handed
  /// on before the failure must be exactly the original entries, in order.
  @Test(arguments: ReaderKind.allCases)
  func payloadBitFlipsNeverHandOnAWrongEntry(reader: ReaderKind) throws {
    let folder = try TemporaryFolder()
    let (path, entries, data) = try makeBase(folder)
    var state: UInt64 = 42
    for trial in 0..<60 {
      state = state &* 6_364_136_223_846_793_005 &+ 1
      let offset = BaseHeader.byteCount + Int(state >> 33) % (data.count - BaseHeader.byteCount)
      let bit = UInt8(1) << UInt8((state >> 8) % 8)
      var corrupted = data
      corrupted[offset] ^= bit
      try corrupted.write(to: URL(fileURLWithPath: path))
      let (handed, error) = readUntilError(reader, path)
      let failure = try #require(error, "trial \(trial): flip at \(offset) went unnoticed")
      #expect(handed == Array(entries.prefix(handed.count)), "trial \(trial)")
      #expect(failure.offset >= BaseHeader.byteCount, "trial \(trial)")
      #expect(
        failure.offset <= offset, "trial \(trial): error at \(failure.offset), flip at \(offset)")
    }
  }

  @Test func bothReadersReportTheSameProblemAtTheSameOffset() throws {
    let folder = try TemporaryFolder()
    let (path, _, data) = try makeBase(folder)
    var corrupted = data
    corrupted[data.count / 3] ^= 0x40
    try corrupted.write(to: URL(fileURLWithPath: path))
    let (mappedEntries, mappedError) = readUntilError(.mmap, path)
    let (bufferedEntries, bufferedError) = readUntilError(.buffered, path)
    #expect(mappedError != nil)
    #expect(mappedError == bufferedError)
    #expect(mappedEntries == bufferedEntries)
  }

  @Test func swappedBlocksFailTheOrderOrTheHeadersSum() throws {
    let folder = try TemporaryFolder()
    let (path, _, data) = try makeBase(folder, count: 2_000)
    // Drop the first block: sizes and counts no longer add up.
    let firstBlockSize =
      BaseHeader.blockHeaderByteCount
      + Int(
        data.withUnsafeBytes {
          $0.loadUnaligned(fromByteOffset: BaseHeader.byteCount, as: UInt32.self)
        })
    var shortened =
      data.prefix(BaseHeader.byteCount) + data.dropFirst(BaseHeader.byteCount + firstBlockSize)
    shortened.append(Data(repeating: 0, count: firstBlockSize))
    try shortened.write(to: URL(fileURLWithPath: path))
    for reader in ReaderKind.allCases {
      let (_, error) = readUntilError(reader, path)
      #expect(error != nil, "\(reader)")
    }
  }

  /// The header checksum is not cryptographic: a forged header with huge, consistent-looking
  /// counts and a recomputed checksum is refused with an error, not a trap on overflow.
  @Test func aForgedHeaderWithHugeCountsIsAnErrorNotATrap() throws {
    var header = BaseHeader(
      kind: .blocking, entryCount: 1 << 62, lowestNumber: 1, highestNumber: .max,
      blockCount: Int(UInt32.max), payloadByteCount: Int.max - BaseHeader.byteCount,
      blockChecksumsChecksum: 0)
    header.version = BaseHeader.compactVersion
    let bytes = header.encoded()
    let decoded = bytes.withUnsafeBytes { raw in
      Result { () throws(BaseFormatError) in
        try BaseHeader.decode(ByteView(raw), path: "forged.cdb")
      }
    }
    switch decoded {
    case .success: Issue.record("a forged header was accepted")
    case .failure(let error):
      guard case .inconsistentHeader = error.problem else {
        Issue.record("\(error)")
        return
      }
    }
  }
}
