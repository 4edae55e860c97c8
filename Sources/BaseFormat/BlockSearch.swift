import ByteCoding
import SystemPackage

// Safe (the `unsafe` uses in this file): `buffer` is allocated once with the format's largest
// block size and freed only by deinit; each `pread` fills it within that size, and the decoder
// reads a block only inside it, after its bounds and checksum are checked.

/// Finds one number in a list base (identification or blocking, fixed-width or compact) by
/// reading one block: O(log blocks) comparisons over an index of the blocks, then one `pread`
/// of at most 8 KiB and the records of that block. The base format has no index of its own,
/// and compact records are deltas from the record before, so the index (each block's offset,
/// first number and the number before it) is built by one pass over the base when it is opened,
/// labels skipped: 24 bytes a block, about 3,000 blocks for 4 M compact entries.
///
/// For a point lookup (`CallDirectoryLoader.DirectoryLookup`), never a scan. One object per
/// thread.
@safe package final class BlockSearch {
  package let header: BaseHeader
  private let path: String
  private let descriptor: FileDescriptor
  private var decoder: BlockDecoder
  private let buffer: UnsafeMutableRawPointer
  /// Per block, in order: its first number, the number before it (nil for the first), and its
  /// offset in the file.
  private var firstNumbers: [Int64] = []
  private var numbersBefore: [Int64] = []
  private var offsets: [Int] = []
  /// Whether the index came from its file (``BlockIndex``) rather than a pass over the base.
  package private(set) var indexWasLoaded = false

  /// Opens the base at `path` and indexes its blocks: the index `storedIndex` gives for the
  /// base's header when it gives one (its file, checked against the header), else one pass
  /// over the base, labels skipped.
  /// - Throws: ``BaseFormatError`` for a missing, foreign, truncated or corrupt base, or a rule
  ///   base (searched by its ranges instead).
  package init(path: String, storedIndex: (BaseHeader) -> BlockIndex? = { _ in nil })
    throws(BaseFormatError)
  {
    let opened = try OpenedBase(path: path, validatesLabels: false)
    self.path = path
    descriptor = opened.descriptor
    header = opened.header
    decoder = opened.decoder(path: path, validatesLabels: false)
    unsafe buffer = UnsafeMutableRawPointer.allocate(
      byteCount: BaseHeader.maximumBlockByteCount, alignment: MemoryLayout<UInt64>.alignment)
    do throws(BaseFormatError) {
      if let stored = storedIndex(header) {
        (firstNumbers, numbersBefore, offsets) =
          (stored.firstNumbers, stored.numbersBefore, stored.offsets)
        indexWasLoaded = true
      } else {
        try buildIndex()
      }
    } catch {
      unsafe buffer.deallocate()
      try? descriptor.close()
      throw error
    }
  }

  deinit {
    unsafe buffer.deallocate()
    try? descriptor.close()
  }

  /// How many blocks the index holds.
  package var blockCount: Int { offsets.count }

  /// The index, to keep in its file (``BlockIndex/encoded(for:)``).
  package var index: BlockIndex {
    var index = BlockIndex()
    (index.firstNumbers, index.numbersBefore, index.offsets) = (
      firstNumbers, numbersBefore, offsets
    )
    return index
  }

  /// Reads the block at `offset` into the buffer and begins it; returns its whole size.
  private func beginBlock(at offset: Int, after number: Int64?) throws(BaseFormatError) -> Int {
    let available = try readBlock(at: offset)
    return try beginReadBlock(at: offset, available: available, after: number)
  }

  /// Begins again the block the buffer holds (read from `offset`), decoding from its start.
  private func beginReadBlock(at offset: Int, available: Int, after number: Int64?)
    throws(BaseFormatError) -> Int
  {
    decoder.resume(after: number)
    guard
      let size = unsafe try decoder.beginBlock(
        at: buffer, available: available, reachesPayloadEnd: true, fileOffset: offset)
    else { throw BaseFormatError(path: path, offset: offset, problem: .recordPastEnd) }
    return size
  }

  /// Reads the bytes from `offset` to the payload's end, at most one block's worth, into the
  /// buffer; returns how many.
  private func readBlock(at offset: Int) throws(BaseFormatError) -> Int {
    let payloadEnd = BaseHeader.byteCount + header.payloadByteCount
    let available = min(BaseHeader.maximumBlockByteCount, payloadEnd - offset)
    var read = 0
    while read < available {
      let count: Int
      do {
        count = unsafe try descriptor.read(
          fromAbsoluteOffset: Int64(offset + read),
          into: UnsafeMutableRawBufferPointer(start: buffer + read, count: available - read))
      } catch {
        throw FileHandleIO.error(path, offset + read, "pread", Errno(thrownBy: error))
      }
      if count == 0 { break }
      read += count
    }
    guard read == available else {
      throw BaseFormatError(path: path, offset: offset + read, problem: .recordPastEnd)
    }
    return available
  }

  private func buildIndex() throws(BaseFormatError) {
    var offset = BaseHeader.byteCount
    var before: Int64? = nil
    let payloadEnd = BaseHeader.byteCount + header.payloadByteCount
    decoder.skipsLabels = true
    firstNumbers.reserveCapacity(header.blockCount)
    numbersBefore.reserveCapacity(header.blockCount)
    offsets.reserveCapacity(header.blockCount)
    while offset < payloadEnd {
      let size = try beginBlock(at: offset, after: before)
      var last: Int64 = 0
      var first: Int64?
      while decoder.blockEntriesLeft > 0 {
        last = try decoder.nextEntry().number
        if first == nil { first = last }
      }
      firstNumbers.append(first ?? last)
      numbersBefore.append(before ?? Int64.min)
      offsets.append(offset)
      before = last
      offset += size
    }
    guard offsets.count == header.blockCount else {
      throw BaseFormatError(
        path: path, offset: offset,
        problem: .inconsistentHeader(
          "\(offsets.count) blocks read, the header says \(header.blockCount)"))
    }
  }

  /// The label of `number` (empty for a blocking base) when the base holds it, else nil.
  /// - Throws: ``BaseFormatError`` when the block read does not decode (the file changed).
  package func find(_ number: Int64) throws(BaseFormatError) -> String? {
    guard !offsets.isEmpty, number >= header.lowestNumber, number <= header.highestNumber else {
      return nil
    }
    // The last block whose first number is at or below `number`.
    var (low, high) = (0, firstNumbers.count)
    while high - low > 1 {
      let middle = (low + high) / 2
      if firstNumbers[middle] <= number { low = middle } else { high = middle }
    }
    let before = numbersBefore[low] == Int64.min ? nil : numbersBefore[low]
    let available = try readBlock(at: offsets[low])
    _ = try beginReadBlock(at: offsets[low], available: available, after: before)
    // The block's first record decoded whole: an index from its file that no longer fits the
    // block (made for another base) is caught here, not taken for an answer.
    decoder.skipsLabels = true
    var place = decoder.position
    var found = try decoder.nextEntry().number
    guard found == firstNumbers[low] else {
      throw BaseFormatError(
        path: path, offset: offsets[low],
        problem: .inconsistentHeader("the block index does not match the block"))
    }
    // The records below the number are skipped by their deltas alone (decoding each record
    // whole made a lookup's time); the first at or above it is decoded whole, numbers only, and
    // its label made alone from the place taken before it (decoding the block again from its
    // start doubled a hit's time).
    // (A fixed-width base's records are not skipped: this loop reads them one by one.)
    while found < number {
      try decoder.skipRecords(below: number)
      guard decoder.blockEntriesLeft > 0 else { return nil }
      place = decoder.position
      found = try decoder.nextEntry().number
    }
    guard found == number else { return nil }
    if header.kind == .blocking { return "" }
    let recordOffset = decoder.fileOffset(of: place)
    let slot = recordOffset % Self.labelSlotCount
    if labelSlots[slot].recordOffset == recordOffset { return labelSlots[slot].label }
    decoder.seek(to: place)
    decoder.skipsLabels = false
    let entry = try decoder.nextEntry()
    guard entry.number == number else { return nil }
    labelSlots[slot] = (recordOffset, entry.label)
    return entry.label
  }

  /// How many labels made for a record are kept to hand out again.
  static let labelSlotCount = 16

  /// Labels made for records, by the record's file offset modulo ``labelSlotCount``: a number
  /// looked up again (the same sender, a recents row drawn again) gets the same `String`, where
  /// a label of more than 15 UTF-8 bytes was an allocation each time. The block is still read
  /// and checked first; a base's bytes never change under a search (bases are content-addressed
  /// files, replaced by new ones, never rewritten), so the record at an offset holds the same
  /// label. 16 slots: 384 bytes a base.
  private var labelSlots = [(recordOffset: Int, label: String)](
    repeating: (-1, ""), count: BlockSearch.labelSlotCount)
}
