import ByteCoding

// Safe (the `unsafe` uses in this file): the decoder reads the records of a block only after the
// block's length was checked against the window and its checksum verified, and every varint read
// is bounded by the block's end; the window's bytes stay valid until the reader's next `window()`
// (the reader refills only between blocks); the `@exclusivity(unchecked)` fields are touched only
// by their object's own methods, on the one thread that owns the object, so no two accesses
// overlap.

/// Verifies blocks and decodes their records for both readers, so that they accept and reject
/// exactly the same files.
///
/// A block is verified whole (its header's bounds, then its checksum) before its first entry is
/// returned; each record is then checked structurally: the label length against the maximum and
/// the block's end, the number strictly above the previous one and inside the header's range.
/// Across blocks it counts entries and blocks and sums the blocks' checksums for the header.
@safe struct BlockDecoder {
  let header: BaseHeader
  let path: String
  /// Validate each label's UTF-8 as well (slower; for inspection and tests). Off, a label that
  /// passed its block's checksum is trusted to be what the writer wrote.
  let validatesLabels: Bool
  /// Skip making label strings (entries come back with empty labels): for passes that only need
  /// numbers, such as counting for the cap.
  var skipsLabels = false
  private(set) var decodedCount = 0
  private(set) var blocksSeen = 0
  private var blockChecksums = StreamChecksum()
  private var previous: Int64
  private var cursor: UnsafeRawPointer?
  private var blockEnd: UnsafeRawPointer?
  private var cursorFileOffset = 0
  private(set) var blockEntriesLeft = 0
  /// Compact version: the previous number (deltas start from 0).
  private var lastNumber: Int64 = 0
  /// Compact version: the base's mapped label dictionary (verified when the base was opened).
  private let dictionary: LabelDictionary?
  private let dictionaryCount: Int
  /// How label strings are made (``LabelString/form``, read once here, not per entry).
  private let labelForm = LabelString.form
  /// The dictionary labels' strings, made once each within a byte budget.
  private var labelCache: DictionaryLabelCache

  init(
    header: BaseHeader, dictionary: LabelDictionary?, path: String, validatesLabels: Bool,
    labelCacheByteBudget: Int = DictionaryLabelCache.defaultByteBudget
  ) {
    self.header = header
    self.dictionary = dictionary
    self.dictionaryCount = dictionary?.count ?? 0
    self.labelCache = DictionaryLabelCache(
      dictionaryCount: dictionary?.count ?? 0, byteBudget: labelCacheByteBudget)
    self.path = path
    self.validatesLabels = validatesLabels
    self.previous = header.lowestNumber &- 1
  }

  var isComplete: Bool { decodedCount == header.entryCount }

  /// Starts decoding at a block whose records follow `number`, the last one of the block
  /// before (nil for the first block): what a point lookup that reads one block needs, since
  /// compact records are deltas from the record before. The counts and the blocks' checksum
  /// then cover only what is read from here.
  mutating func resume(after number: Int64?) {
    previous = number ?? (header.lowestNumber &- 1)
    lastNumber = number ?? 0
    decodedCount = 0
    blocksSeen = 0
    blockEntriesLeft = 0
    blockChecksums = StreamChecksum()
  }

  /// Where the decoder stands inside the current block: taken before a record and given back
  /// to ``seek(to:)``, it decodes that one record again (a point lookup's label, made only for
  /// the record it found, without decoding the block from its start a second time).
  @safe struct Position {
    fileprivate let cursor: UnsafeRawPointer?
    fileprivate let cursorFileOffset: Int
    fileprivate let blockEntriesLeft: Int
    fileprivate let decodedCount: Int
    fileprivate let previous: Int64
    fileprivate let lastNumber: Int64
  }

  /// Where in the file the record at `position` begins.
  func fileOffset(of position: Position) -> Int { position.cursorFileOffset }

  /// The decoder's place before the next record of the current block.
  var position: Position {
    unsafe Position(
      cursor: cursor, cursorFileOffset: cursorFileOffset, blockEntriesLeft: blockEntriesLeft,
      decodedCount: decodedCount, previous: previous, lastNumber: lastNumber)
  }

  /// Goes back to `position`, taken in the block still current (its bytes unchanged): the next
  /// record decoded is the one that followed it.
  mutating func seek(to position: Position) {
    unsafe cursor = position.cursor
    cursorFileOffset = position.cursorFileOffset
    blockEntriesLeft = position.blockEntriesLeft
    decodedCount = position.decodedCount
    previous = position.previous
    lastNumber = position.lastNumber
  }

  private func fail(_ offset: Int, _ problem: BaseFormatError.Problem) -> BaseFormatError {
    BaseFormatError(path: path, offset: offset, problem: problem)
  }

  /// Verifies the block whose header is at `pointer` and makes it current.
  /// - Parameters:
  ///   - available: bytes readable at `pointer`.
  ///   - reachesPayloadEnd: whether those bytes run to the end of the payload.
  ///   - fileOffset: the block's offset in the file, for errors.
  /// - Returns: the block's whole size, or nil when more bytes are needed first.
  mutating func beginBlock(
    in window: ByteView, reachesPayloadEnd: Bool, fileOffset: Int
  ) throws(BaseFormatError) -> Int? {
    guard let start = unsafe window.unsafeStart else {
      // No bytes at all: as a window too short for a block header.
      if reachesPayloadEnd { throw fail(fileOffset, .recordPastEnd) }
      return nil
    }
    return unsafe try beginBlock(
      at: start, available: window.count, reachesPayloadEnd: reachesPayloadEnd,
      fileOffset: fileOffset)
  }

  /// ``beginBlock(in:reachesPayloadEnd:fileOffset:)`` at a raw address.
  mutating func beginBlock(
    at pointer: UnsafeRawPointer, available: Int, reachesPayloadEnd: Bool, fileOffset: Int
  ) throws(BaseFormatError) -> Int? {
    let headerSize = BaseHeader.blockHeaderByteCount
    guard available >= headerSize else {
      if reachesPayloadEnd { throw fail(fileOffset, .recordPastEnd) }
      return nil
    }
    var blockHeader = unsafe LittleEndianReader(
      ByteView(UnsafeRawBufferPointer(start: pointer, count: headerSize)))
    // The guard above leaves room for the whole header: these reads cannot run short.
    let recordBytes = Int((try? blockHeader.read(UInt32.self)) ?? 0)
    let entries = Int((try? blockHeader.read(UInt32.self)) ?? 0)
    let expected = (try? blockHeader.read(UInt64.self)) ?? 0
    let compact = header.isCompact
    let minimumRecord =
      compact ? (header.kind == .identification ? 2 : 1) : (header.kind == .identification ? 10 : 8)
    let maximumRecord =
      compact
      ? (header.kind == .identification ? BaseHeader.maximumCompactRecordByteCount : 10)
      : (header.kind == .identification ? BaseHeader.maximumRecordByteCount : 8)
    guard headerSize + recordBytes <= BaseHeader.maximumBlockByteCount else {
      throw fail(fileOffset, .invalidBlock("\(recordBytes) record bytes exceed the block maximum"))
    }
    guard entries >= 1, entries <= header.entryCount - decodedCount else {
      throw fail(
        fileOffset + 4,
        .invalidBlock("\(entries) entries where \(header.entryCount - decodedCount) remain"))
    }
    guard recordBytes >= entries * minimumRecord, recordBytes <= entries * maximumRecord else {
      throw fail(fileOffset, .invalidBlock("\(entries) entries cannot fill \(recordBytes) bytes"))
    }
    guard available >= headerSize + recordBytes else {
      if reachesPayloadEnd { throw fail(fileOffset, .recordPastEnd) }
      return nil
    }
    let records = unsafe UnsafeRawBufferPointer(start: pointer + headerSize, count: recordBytes)
    let actual = unsafe StreamChecksum.of(ByteView(records))
    guard actual == expected else {
      throw fail(fileOffset, .blockChecksumMismatch(expected: expected, actual: actual))
    }
    unsafe blockChecksums.update(ByteView(UnsafeRawBufferPointer(start: pointer + 8, count: 8)))
    blocksSeen += 1
    unsafe cursor = records.baseAddress
    unsafe blockEnd = unsafe records.baseAddress! + recordBytes
    cursorFileOffset = fileOffset + headerSize
    blockEntriesLeft = entries
    return headerSize + recordBytes
  }

  // The per-record paths below load through the block's pointer after checking `remaining`
  // themselves, rather than through a `LittleEndianReader`: measured with cachegrind on 200k
  // entries, a reader per record cost about 20% more instructions per entry.

  /// Decodes the next record of the current block (there must be one: `blockEntriesLeft > 0`).
  @inline(__always)
  mutating func nextEntry() throws(BaseFormatError) -> BaseEntry {
    if header.isCompact { return try nextCompactEntry() }
    let pointer = unsafe cursor.unsafelyUnwrapped
    let remaining = unsafe blockEnd.unsafelyUnwrapped - pointer
    let offset = cursorFileOffset
    guard remaining >= 8 else { throw fail(offset, .recordPastEnd) }
    let number = unsafe Int64(littleEndian: pointer.loadUnaligned(as: Int64.self))
    guard number > previous else {
      throw fail(offset, .numberNotAscending(previous: previous, number: number))
    }
    guard number <= header.highestNumber else { throw fail(offset, .numberOutOfRange(number)) }
    var label = ""
    var byteCount = 8
    if header.kind == .identification {
      guard remaining >= 10 else { throw fail(offset, .recordPastEnd) }
      let labelCount = unsafe Int(
        UInt16(littleEndian: pointer.loadUnaligned(fromByteOffset: 8, as: UInt16.self)))
      // The writer never writes an empty label (the compact format cannot hold one). One
      // check for both bounds: a second throw site here cost the loaders instructions.
      guard UInt(bitPattern: labelCount &- 1) < UInt(BaseHeader.maximumLabelByteCount) else {
        throw fail(
          offset + 8,
          labelCount == 0 ? .invalidLabel("empty label") : .labelTooLong(byteCount: labelCount))
      }
      byteCount = 10 + labelCount
      guard remaining >= byteCount else { throw fail(offset, .recordPastEnd) }
      let bytes = unsafe UnsafeBufferPointer(
        start: (pointer + 10).assumingMemoryBound(to: UInt8.self), count: labelCount)
      if !skipsLabels { label = unsafe try makeLabel(bytes, offset: offset + 10) }
    }
    return unsafe try finishRecord(
      number: number, label: label, end: pointer + byteCount, offset: offset)
  }

  /// A label from bytes inside a verified block: validated when asked, else trusted (the block's
  /// checksum matched, so they are the writer's bytes, taken from a Swift string: valid UTF-8;
  /// validating again would halve the throughput, see BaseHeader).
  @inline(__always)
  private func makeLabel(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int) throws(BaseFormatError)
    -> String
  {
    guard validatesLabels else { return unsafe LabelString.make(bytes, form: labelForm) }
    return unsafe try makeValidatedLabel(bytes, offset: offset)
  }

  /// A label checked against ``LabelRule`` first (inspection and tests). Out of line: inlined
  /// into the per-record paths, its checks cost the loaders 3% more instructions per entry
  /// even with validation off (ci-smoke, cachegrind).
  @inline(never)
  private func makeValidatedLabel(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int)
    throws(BaseFormatError) -> String
  {
    guard unsafe UTF8Validation.isValid(ByteView(bytes)) else {
      throw fail(offset, .invalidUTF8Label)
    }
    if let bad = unsafe LabelRule.controlCharacterOffset(ByteView(bytes)) {
      throw fail(offset + bad, .invalidLabel("a control character or line break"))
    }
    return unsafe LabelString.make(bytes, form: labelForm)
  }

  /// Moves past a decoded record and checks what only the block's or the base's end can tell.
  @inline(__always)
  private mutating func finishRecord(
    number: Int64, label: String, end: UnsafeRawPointer, offset: Int
  ) throws(BaseFormatError) -> BaseEntry {
    cursorFileOffset = unsafe offset + (end - cursor!)
    unsafe cursor = unsafe end
    blockEntriesLeft -= 1
    decodedCount += 1
    if blockEntriesLeft == 0, unsafe cursor != blockEnd {
      throw unsafe fail(cursorFileOffset, .blockNotFilled(unusedByteCount: blockEnd! - cursor!))
    }
    if decodedCount == header.entryCount, number != header.highestNumber {
      throw fail(offset, .numberOutOfRange(number))
    }
    previous = number
    lastNumber = number
    return BaseEntry(number: number, label: label)
  }

  /// Decodes the next compact record: a delta, then a label reference or an inline label.
  private mutating func nextCompactEntry() throws(BaseFormatError) -> BaseEntry {
    let start = unsafe cursor.unsafelyUnwrapped
    let end = unsafe blockEnd.unsafelyUnwrapped
    let offset = cursorFileOffset
    var pointer = unsafe start
    guard let (delta, deltaBytes) = unsafe Self.readLEB128(pointer, available: end - pointer) else {
      throw fail(offset, .recordPastEnd)
    }
    unsafe pointer += deltaBytes
    guard delta >= 1, delta <= UInt64(Int64.max - lastNumber) else {
      throw fail(
        offset,
        .numberNotAscending(
          previous: lastNumber, number: lastNumber &+ Int64(truncatingIfNeeded: delta)))
    }
    let number = lastNumber + Int64(delta)
    guard number > previous else {
      throw fail(offset, .numberNotAscending(previous: previous, number: number))
    }
    guard number <= header.highestNumber else { throw fail(offset, .numberOutOfRange(number)) }
    var label = ""
    if header.kind == .identification {
      guard
        let (reference, referenceBytes) = unsafe Self.readLEB128(pointer, available: end - pointer)
      else {
        throw fail(offset, .recordPastEnd)
      }
      unsafe pointer += referenceBytes
      if reference >= 1 {
        let index = Int(clamping: reference - 1)
        guard index < dictionaryCount else {
          throw fail(
            offset,
            .invalidBlock("label reference \(index) past the dictionary's \(dictionaryCount)"))
        }
        // The dictionary's labels were checked (and validated, when asked) at open.
        if !skipsLabels {
          label = unsafe labelCache.label(
            at: index, of: dictionary.unsafelyUnwrapped, form: labelForm)
        }
      } else {
        guard let (length, lengthBytes) = unsafe Self.readLEB128(pointer, available: end - pointer)
        else {
          throw fail(offset, .recordPastEnd)
        }
        unsafe pointer += lengthBytes
        guard length >= 1, length <= UInt64(BaseHeader.maximumLabelByteCount) else {
          throw fail(offset, .labelTooLong(byteCount: Int(clamping: length)))
        }
        let count = Int(length)
        guard unsafe end - pointer >= count else { throw fail(offset, .recordPastEnd) }
        let bytes = unsafe UnsafeBufferPointer(
          start: pointer.assumingMemoryBound(to: UInt8.self), count: count)
        unsafe pointer += count
        if !skipsLabels { label = unsafe try makeLabel(bytes, offset: offset) }
      }
    }
    return unsafe try finishRecord(number: number, label: label, end: pointer, offset: offset)
  }

  /// Checks, after the last entry, that every block was seen and the blocks' checksums add up.
  func verifyEnd(atFileOffset offset: Int) throws(BaseFormatError) {
    guard blocksSeen == header.blockCount else {
      throw fail(
        offset,
        .inconsistentHeader("\(blocksSeen) blocks read, the header says \(header.blockCount)"))
    }
    let actual = blockChecksums.value
    guard actual == header.blockChecksumsChecksum else {
      throw fail(
        BaseHeader.byteCount,
        .payloadChecksumMismatch(expected: header.blockChecksumsChecksum, actual: actual))
    }
  }
}

extension BlockDecoder {
  /// Moves past the records of the current block whose numbers are below `number`, leaving the
  /// first at or above it (if any) to ``nextEntry()``: a point lookup's scan. Compact records
  /// only (a fixed-width base returns at once, and its records are read one by one).
  ///
  /// A skipped record's label is not looked at, so this checks only what the numbers need:
  /// each delta read inside the block, at least 1 and not overflowing, each inline label's
  /// length inside the block; the record found is decoded by ``nextEntry()`` with every check.
  /// Measured: a lookup decoding each record with ``nextEntry()`` took 23–36 µs on misses near
  /// a 16 M directory's numbers (about 1,300 records to a block); see `calldir lookup --repeat`.
  mutating func skipRecords(below number: Int64) throws(BaseFormatError) {
    guard header.isCompact, blockEntriesLeft > 0 else { return }
    let identifies = header.kind == .identification
    let start = unsafe cursor.unsafelyUnwrapped
    let end = unsafe blockEnd.unsafelyUnwrapped
    var pointer = unsafe start
    var last = lastNumber
    var left = blockEntriesLeft
    while left > 0 {
      let offset = unsafe cursorFileOffset + (pointer - start)
      guard let (delta, deltaBytes) = unsafe Self.readLEB128(pointer, available: end - pointer)
      else { throw fail(offset, .recordPastEnd) }
      guard delta >= 1, delta <= UInt64(Int64.max - last) else {
        throw fail(
          offset,
          .numberNotAscending(previous: last, number: last &+ Int64(truncatingIfNeeded: delta)))
      }
      let next = last + Int64(delta)
      if next >= number { break }
      var recordEnd = unsafe pointer + deltaBytes
      if identifies {
        guard
          let (reference, referenceBytes) = unsafe Self.readLEB128(
            recordEnd, available: end - recordEnd)
        else { throw fail(offset, .recordPastEnd) }
        unsafe recordEnd += referenceBytes
        if reference == 0 {
          guard
            let (length, lengthBytes) = unsafe Self.readLEB128(
              recordEnd, available: end - recordEnd),
            length >= 1, length <= UInt64(BaseHeader.maximumLabelByteCount),
            unsafe end - (recordEnd + lengthBytes) >= Int(length)
          else { throw fail(offset, .recordPastEnd) }
          unsafe recordEnd += lengthBytes + Int(length)
        }
      }
      unsafe pointer = recordEnd
      last = next
      left -= 1
    }
    let skipped = blockEntriesLeft - left
    guard skipped > 0 else { return }
    cursorFileOffset += unsafe pointer - start
    unsafe cursor = pointer
    blockEntriesLeft = left
    decodedCount += skipped
    previous = last
    lastNumber = last
    if left == 0, unsafe pointer != end {
      throw unsafe fail(cursorFileOffset, .blockNotFilled(unusedByteCount: end - pointer))
    }
    if decodedCount == header.entryCount, last != header.highestNumber {
      throw fail(cursorFileOffset, .numberOutOfRange(last))
    }
  }
}

extension BlockDecoder {
  /// Reads an unsigned LEB128 value at `pointer`, at most `available` bytes; nil when it runs
  /// past them or does not fit 64 bits. The per-record path's own form, kept in this room:
  /// measured, a `ByteCoding.LittleEndianReader` per record cost the loader about 20% more
  /// instructions per entry (cachegrind, 200k entries), so the record loop reads through its
  /// pointer and checks `available` itself.
  /// One- and two-byte values (most deltas and label references) are read without the loop:
  /// measured with cachegrind on a lookup of a 4 M directory, the loop's per-byte shift and
  /// checks made skipping a record about 100 instructions.
  @inline(__always)
  static func readLEB128(_ pointer: UnsafeRawPointer, available: Int) -> (
    value: UInt64, byteCount: Int
  )? {
    if available >= 2 {
      let byte0 = unsafe pointer.load(as: UInt8.self)
      if byte0 < 0x80 { return (UInt64(byte0), 1) }
      let byte1 = unsafe pointer.load(fromByteOffset: 1, as: UInt8.self)
      if byte1 < 0x80 { return (UInt64(byte0 & 0x7F) | UInt64(byte1) << 7, 2) }
    }
    var value: UInt64 = 0
    var shift: UInt64 = 0
    var index = 0
    while index < available && index < LEB128.maximumByteCount {
      let byte = unsafe pointer.load(fromByteOffset: index, as: UInt8.self)
      if shift == 63 && byte > 1 { return nil }
      value |= UInt64(byte & 0x7F) << shift
      index += 1
      if byte & 0x80 == 0 { return (value, index) }
      shift += 7
    }
    return nil
  }
}
