import ByteCoding

/// Where each block of a list base starts, and the numbers around it: what ``BlockSearch`` needs
/// to read one block for a number. Compact records are deltas that run on across blocks, so the
/// index can only be made by decoding the whole base once; it is kept beside the base as a
/// file of its own (`NAME.cdb.idx`, ``fileSuffix``) so a lookup need not decode it again. The
/// base format is unchanged: old readers never see the index, and a base without one is
/// indexed when it is opened.
///
/// The file: `CDIX`, version (UInt32, 1), block count (UInt32), 4 zero bytes, the base's
/// payload byte count and block-checksums checksum (UInt64 each: the base it was made from),
/// then per block its offset, first number and the number before it (Int64 each, Int64.min for
/// none), and a ``StreamChecksum`` of everything before it. Little-endian.
package struct BlockIndex: Equatable, Sendable {
  /// The index file's name: the base file's, with this after it.
  package static let fileSuffix = ".idx"
  static let magic: [UInt8] = Array("CDIX".utf8)
  static let version: UInt32 = 1
  static let headerByteCount = 32
  static let entryByteCount = 24

  /// Per block, in order: its first number, the number before it (Int64.min for the first
  /// block), and its offset in the base file.
  package var firstNumbers: [Int64] = []
  package var numbersBefore: [Int64] = []
  package var offsets: [Int] = []

  package init() {}

  /// The index as its file's bytes, for the base `header` describes.
  package func encoded(for header: BaseHeader) -> [UInt8] {
    var bytes = Self.magic
    bytes.reserveCapacity(Self.headerByteCount + offsets.count * Self.entryByteCount + 8)
    bytes.appendLittleEndian(Self.version)
    bytes.appendLittleEndian(UInt32(truncatingIfNeeded: offsets.count))
    bytes.appendLittleEndian(UInt32(0))
    bytes.appendLittleEndian(UInt64(header.payloadByteCount))
    bytes.appendLittleEndian(header.blockChecksumsChecksum)
    for index in offsets.indices {
      bytes.appendLittleEndian(Int64(offsets[index]))
      bytes.appendLittleEndian(firstNumbers[index])
      bytes.appendLittleEndian(numbersBefore[index])
    }
    bytes.appendLittleEndian(StreamChecksum.of(bytes))
    return bytes
  }

  /// The index in `bytes`, when it is one made for the base `header` describes; nil for a
  /// file of another base (a stale index), another format or a damaged one (its checksum, its
  /// counts, or offsets and numbers out of order).
  package init?(decoding bytes: [UInt8], for header: BaseHeader) {
    let entries = header.blockCount
    let (body, overflowed) = entries.multipliedReportingOverflow(by: Self.entryByteCount)
    guard !overflowed, bytes.count == Self.headerByteCount + body + 8,
      Array(bytes.prefix(4)) == Self.magic
    else { return nil }
    let decoded: BlockIndex? = bytes.withByteView { view in
      let checked = view.count - 8
      guard
        StreamChecksum.of(view.rebased(0..<checked))
          == view.loadLittleEndian(UInt64.self, at: checked),
        view.loadLittleEndian(UInt32.self, at: 4) == Self.version,
        Int(view.loadLittleEndian(UInt32.self, at: 8)) == entries,
        view.loadLittleEndian(UInt64.self, at: 16) == UInt64(header.payloadByteCount),
        view.loadLittleEndian(UInt64.self, at: 24) == header.blockChecksumsChecksum
      else { return nil }
      var index = BlockIndex()
      index.offsets.reserveCapacity(entries)
      index.firstNumbers.reserveCapacity(entries)
      index.numbersBefore.reserveCapacity(entries)
      var previousOffset = 0
      for block in 0..<entries {
        let at = Self.headerByteCount + block * Self.entryByteCount
        let offset = view.loadLittleEndian(Int64.self, at: at)
        guard offset >= Int64(BaseHeader.byteCount), offset > Int64(previousOffset),
          offset < Int64(header.payloadEndOffset)
        else { return nil }
        previousOffset = Int(offset)
        index.offsets.append(Int(offset))
        index.firstNumbers.append(view.loadLittleEndian(Int64.self, at: at + 8))
        index.numbersBefore.append(view.loadLittleEndian(Int64.self, at: at + 16))
      }
      return index
    }
    guard let decoded else { return nil }
    self = decoded
  }
}
