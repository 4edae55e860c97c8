import ByteCoding

/// The fixed 64-byte header at the start of every base file (all integers little-endian):
///
/// | offset | size | field |
/// | --- | --- | --- |
/// | 0 | 8 | magic `CDIRBASE` |
/// | 8 | 2 | format version (``currentVersion``) |
/// | 10 | 1 | kind (1 identification, 2 blocking) |
/// | 11 | 1 | reserved, zero |
/// | 12 | 4 | block count |
/// | 16 | 8 | entry count |
/// | 24 | 8 | lowest number (0 when empty) |
/// | 32 | 8 | highest number (0 when empty) |
/// | 40 | 8 | payload byte count |
/// | 48 | 8 | ``StreamChecksum`` of the blocks' checksums, in order |
/// | 56 | 8 | header checksum over bytes 0..<56 |
///
/// The payload follows as blocks of at most ``maximumBlockByteCount`` bytes (one 8 KiB read
/// buffer), each `[UInt32 records byte count][UInt32 entry count][UInt64 checksum of the records]`
/// then its records. Records never cross a block; entries ascend strictly across the whole base.
/// An identification record is `[Int64 number][UInt16 label byte count][UTF-8 label]`; a blocking
/// record is `[Int64 number]`. A compact base (``compactVersion``) ends with its label
/// dictionary after the payload (``LabelDictionary``).
///
/// A reader verifies each block's checksum before it hands on any entry of that block, so a
/// corrupt byte is reported before a wrong entry leaves the reader, and labels that passed the
/// checksum are the writer's (valid UTF-8, written from Swift strings) and need no second
/// validation: that validation alone would halve the throughput with Cyrillic labels.
@usableFromInline package struct BaseHeader: Equatable, Sendable {
  /// Size of the header in bytes.
  package static let byteCount = 64
  /// The format version this code writes by default: fixed-width records.
  package static let currentVersion: UInt16 = 1
  /// The compact version: records are `[LEB128 delta from the previous number]` and, for
  /// identification, `[LEB128 label reference]`: 0 an inline label `[LEB128 byte count][bytes]`,
  /// n ≥ 1 the dictionary's label n − 1. The dictionary is a section after the payload that the
  /// readers map read-only (``LabelDictionary``), bounded by ``maximumDictionaryEntryCount`` and
  /// ``maximumDictionaryByteCount``: no reader holds a copy, so a merge of many compact bases
  /// stays in constant private memory.
  package static let compactVersion: UInt16 = 3
  /// The rule version: sorted disjoint number ranges (`RuleBaseFormat`), expanded by its
  /// reader; the header's block count is the rule count, the payload one record per range.
  package static let rulesVersion: UInt16 = 4
  /// The retired compact version, whose readers rebuilt each dictionary in memory (O(bases ×
  /// dictionary) in a merge): refused with a message to recompile.
  package static let retiredCompactVersion: UInt16 = 2
  /// The most labels a compact base's dictionary may hold.
  package static let maximumDictionaryEntryCount = 4096
  /// The most label bytes a compact base's dictionary may hold (256 KiB).
  package static let maximumDictionaryByteCount = 256 * 1024
  /// The first eight bytes of every base.
  package static let magic: [UInt8] = Array("CDIRBASE".utf8)
  /// The longest label a record may carry, in UTF-8 bytes. A caller-ID label is one line on the
  /// incoming-call screen, so 1 KiB is far beyond what is shown; keeping it small guarantees that
  /// any record (8 + 2 + 1024 bytes) fits in one 8 KiB read buffer.
  package static let maximumLabelByteCount = 1024
  /// The largest record of any kind, in bytes.
  package static let maximumRecordByteCount = 8 + 2 + maximumLabelByteCount
  /// The largest compact record: a 10-byte delta, a 3-byte reference and length, the label.
  package static let maximumCompactRecordByteCount = 10 + 1 + 3 + maximumLabelByteCount
  /// Size of a block's own header, in bytes.
  package static let blockHeaderByteCount = 16
  /// The largest block, header included: one 8 KiB read buffer, so the buffered reader can hold
  /// and verify a whole block before decoding it.
  package static let maximumBlockByteCount = 8 * 1024

  /// The format version (``currentVersion`` or ``compactVersion``).
  package var version: UInt16 = BaseHeader.currentVersion
  /// Which list the entries feed.
  @usableFromInline package var kind: BaseKind
  /// Number of records in the payload.
  package var entryCount: Int
  /// The first (lowest) number, or 0 for an empty base.
  package var lowestNumber: Int64
  /// The last (highest) number, or 0 for an empty base.
  package var highestNumber: Int64
  /// Number of blocks in the payload.
  package var blockCount: Int
  /// Size of the payload in bytes.
  package var payloadByteCount: Int
  /// ``StreamChecksum`` of the blocks' checksums, in order.
  package var blockChecksumsChecksum: UInt64

  /// Creates a header.
  package init(
    kind: BaseKind, entryCount: Int, lowestNumber: Int64, highestNumber: Int64, blockCount: Int,
    payloadByteCount: Int, blockChecksumsChecksum: UInt64
  ) {
    self.kind = kind
    self.entryCount = entryCount
    self.lowestNumber = lowestNumber
    self.highestNumber = highestNumber
    self.blockCount = blockCount
    self.payloadByteCount = payloadByteCount
    self.blockChecksumsChecksum = blockChecksumsChecksum
  }

  /// Offset of the first byte after the payload: the end of a fixed-width base, the start of a
  /// compact base's dictionary section.
  package var payloadEndOffset: Int { Self.byteCount + payloadByteCount }

  /// Whether records use the compact encoding (and the file ends with a dictionary section).
  package var isCompact: Bool { version == Self.compactVersion }

  /// Whether the base holds number ranges (``rulesVersion``), read with `RuleBaseReader`.
  @usableFromInline package var isRules: Bool { version == Self.rulesVersion }

  /// The header's 64 bytes.
  package func encoded() -> [UInt8] {
    var bytes = Self.magic
    bytes.reserveCapacity(Self.byteCount)
    bytes.appendLittleEndian(version)
    bytes.append(kind.rawValue)
    bytes.append(0)
    bytes.appendLittleEndian(UInt32(blockCount))
    bytes.appendLittleEndian(UInt64(entryCount))
    bytes.appendLittleEndian(lowestNumber)
    bytes.appendLittleEndian(highestNumber)
    bytes.appendLittleEndian(UInt64(payloadByteCount))
    bytes.appendLittleEndian(blockChecksumsChecksum)
    let checksum = StreamChecksum.of(bytes)
    bytes.appendLittleEndian(checksum)
    return bytes
  }

  /// Decodes and validates a header.
  /// - Parameters:
  ///   - raw: at least ``byteCount`` bytes from the start of the file.
  ///   - path: the file's path, for errors.
  /// - Throws: ``BaseFormatError`` for a foreign file, an unknown version or kind, a checksum
  ///   mismatch or contradictory fields, with the offset of the offending field.
  package static func decode(_ raw: ByteView, path: String) throws(BaseFormatError)
    -> BaseHeader
  {
    func fail(_ offset: Int, _ problem: BaseFormatError.Problem) -> BaseFormatError {
      BaseFormatError(path: path, offset: offset, problem: problem)
    }
    guard raw.count >= byteCount else {
      throw fail(0, .shorterThanHeader(fileByteCount: raw.count))
    }
    for (index, byte) in magic.enumerated() where raw[index] != byte {
      throw fail(index, .foreignFile)
    }
    let version = raw.loadLittleEndian(UInt16.self, at: 8)
    guard version == currentVersion || version == compactVersion || version == rulesVersion
    else {
      throw fail(8, .unsupportedVersion(version))
    }
    let storedChecksum = raw.loadLittleEndian(UInt64.self, at: 56)
    guard StreamChecksum.of(raw.rebased(0..<56)) == storedChecksum else {
      throw fail(56, .headerChecksumMismatch)
    }
    if version == rulesVersion { return try decodeRules(raw, path: path) }
    guard let kind = BaseKind(rawValue: raw[10]) else { throw fail(10, .unknownKind(raw[10])) }
    let count = raw.loadLittleEndian(UInt64.self, at: 16)
    let lowest = raw.loadLittleEndian(Int64.self, at: 24)
    let highest = raw.loadLittleEndian(Int64.self, at: 32)
    let payload = raw.loadLittleEndian(UInt64.self, at: 40)
    let blocksChecksum = raw.loadLittleEndian(UInt64.self, at: 48)
    let blocks = UInt64(
      raw.loadLittleEndian(UInt32.self, at: 12))
    let compact = version == compactVersion
    let minimumRecord: UInt64 =
      compact ? (kind == .identification ? 2 : 1) : (kind == .identification ? 10 : 8)
    let maximumRecord = UInt64(
      compact
        ? (kind == .identification ? maximumCompactRecordByteCount : 10)
        : (kind == .identification ? maximumRecordByteCount : 8))
    let blockHeader = UInt64(blockHeaderByteCount)
    // count ≤ payload / minimumRecord keeps the first product in range; the largest record can
    // still overflow a forged count, so that bound saturates instead of trapping.
    let (largest, productOverflowed) = count.multipliedReportingOverflow(by: maximumRecord)
    let (maximumPayload, sumOverflowed) = largest.addingReportingOverflow(blocks * blockHeader)
    guard payload <= UInt64(Int.max - byteCount), count <= payload / minimumRecord,
      blocks <= count, (count == 0) == (blocks == 0),
      payload >= count * minimumRecord + blocks * blockHeader,
      productOverflowed || sumOverflowed || payload <= maximumPayload,
      payload <= blocks * UInt64(maximumBlockByteCount)
    else {
      throw fail(
        12,
        .inconsistentHeader(
          "\(count) entries in \(blocks) blocks cannot fill \(payload) payload bytes"))
    }
    if count == 0 {
      guard lowest == 0, highest == 0 else {
        throw fail(24, .inconsistentHeader("an empty base has a number range"))
      }
    } else {
      guard lowest > 0, lowest <= highest, UInt64(highest - lowest) >= count - 1 else {
        throw fail(
          24, .inconsistentHeader("range \(lowest)...\(highest) cannot hold \(count) numbers"))
      }
    }
    var header = BaseHeader(
      kind: kind, entryCount: Int(count), lowestNumber: lowest, highestNumber: highest,
      blockCount: Int(blocks), payloadByteCount: Int(payload),
      blockChecksumsChecksum: blocksChecksum)
    header.version = version
    return header
  }
}
