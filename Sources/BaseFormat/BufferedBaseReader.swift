import ByteCoding
import SystemPackage

// Safe (the `unsafe` uses in this file): `buffer` is allocated once with `bufferByteCount` bytes
// and freed only by deinit; reads fill it within that size; the `@exclusivity(unchecked)` fields
// are touched only by their object's own methods, on the one thread that owns the object, so no
// two accesses overlap (a reader is one thread's).

/// Reads a base through one 8 KiB buffer with `pread()`: constant memory whatever the file size.
/// Blocks (and the records in them) that straddle the end of the buffer are moved to its front
/// before the next read; a block is verified whole before its first entry is returned.
@safe @usableFromInline package final class BufferedBaseReader: BaseReader, @unsafe BlockSource {
  /// The buffer size: 8 KiB, the block size the 2GIS article says a careful reader would use
  /// ("read in 8 KB block"), and the format's largest block.
  package static let bufferByteCount = BaseHeader.maximumBlockByteCount

  @usableFromInline package let header: BaseHeader
  private let path: String
  private let descriptor: FileDescriptor
  private let buffer: UnsafeMutableRawPointer
  // The reader is used from one thread; dynamic exclusivity checks on these per-entry fields
  // cost a fifth of the loop's time, so they are off.
  @exclusivity(unchecked) private var cursor = 0
  @exclusivity(unchecked) private var filled = 0
  /// File offset of `buffer[0]`.
  @exclusivity(unchecked) private var bufferFileOffset: Int = BaseHeader.byteCount
  @exclusivity(unchecked) private var unreadFileBytes: Int
  @exclusivity(unchecked) var decoder: BlockDecoder
  @exclusivity(unchecked) var finished = false

  /// Opens a base and validates its header and size.
  /// - Parameters:
  ///   - path: the base file.
  ///   - validatesLabels: also validate every label's UTF-8 (slower; see ``BaseHeader``).
  /// - Throws: ``BaseFormatError`` for a missing, foreign, truncated or corrupt file.
  @usableFromInline package init(path: String, validatesLabels: Bool = false)
    throws(BaseFormatError)
  {
    self.path = path
    // The buffer first, as before the readers shared OpenedBase: allocated after it, the buffer
    // landed elsewhere in the heap and the load ran 6% slower (measured, same instructions).
    let buffer = UnsafeMutableRawPointer.allocate(
      byteCount: Self.bufferByteCount, alignment: MemoryLayout<UInt64>.alignment)
    let opened: OpenedBase
    do throws(BaseFormatError) {
      opened = try OpenedBase(path: path, validatesLabels: validatesLabels)
    } catch {
      unsafe buffer.deallocate()
      throw error
    }
    unsafe self.buffer = unsafe buffer
    descriptor = opened.descriptor
    header = opened.header
    unsafe unreadFileBytes = header.payloadByteCount
    // A compact base's dictionary is mapped, not read into the buffer: its pages are
    // file-backed, so the reader's private memory stays this one 8 KiB buffer.
    unsafe decoder = opened.decoder(path: path, validatesLabels: validatesLabels)
  }

  /// Whether entries come back without labels (numbers-only passes are several times faster).
  package var skipsLabels: Bool {
    get { unsafe decoder.skipsLabels }
    set { unsafe decoder.skipsLabels = newValue }
  }

  deinit {
    unsafe buffer.deallocate()
    try? descriptor.close()
  }

  @inline(__always)
  @usableFromInline package func next() throws(BaseFormatError) -> BaseEntry? {
    // Not shared through `BlockSource` (issue 57 asked): through the protocol's `decoder`
    // property an unoptimized build copies the decoder in and out per entry, which took the
    // debug extension past 5,000 instructions an entry (InstructionCounterTests).
    if unsafe decoder.blockEntriesLeft > 0 { return unsafe try decoder.nextEntry() }
    return unsafe try nextBlock()
  }

  // MARK: The block loop's bytes (BlockLoop.swift)

  func window() -> (bytes: ByteView, reachesPayloadEnd: Bool, fileOffset: Int) {
    unsafe (
      ByteView(UnsafeRawBufferPointer(start: buffer + cursor, count: filled - cursor)),
      unreadFileBytes == 0, bufferFileOffset + cursor
    )
  }

  func consume(_ byteCount: Int) { unsafe cursor += byteCount }

  func moreBytes() throws(BaseFormatError) { try refill() }

  func endOfBlocks() -> (unread: Int, fileOffset: Int) {
    unsafe ((filled - cursor) + unreadFileBytes, bufferFileOffset + cursor)
  }

  /// Moves the unread tail to the front and reads until the buffer is full or the payload ends.
  private func refill() throws(BaseFormatError) {
    let tail = unsafe filled - cursor
    if unsafe tail > 0 && cursor > 0 {
      unsafe buffer.copyMemory(from: buffer + cursor, byteCount: tail)
    }
    unsafe bufferFileOffset += cursor
    unsafe cursor = 0
    unsafe filled = tail
    let wanted = unsafe min(Self.bufferByteCount - filled, unreadFileBytes)
    let target = unsafe UnsafeMutableRawBufferPointer(start: buffer + filled, count: wanted)
    let offset = unsafe bufferFileOffset + filled
    let read: Int
    do {
      // pread at an explicit offset: the header was read the same way, so the descriptor's own
      // position is never relied on.
      read = unsafe try descriptor.read(fromAbsoluteOffset: Int64(offset), into: target)
    } catch {
      throw FileHandleIO.error(path, offset, "pread", Errno(thrownBy: error))
    }
    guard read > 0 || wanted == 0 else {
      // The file shrank after it was opened.
      throw BaseFormatError(
        path: path, offset: offset,
        problem: .sizeMismatch(expected: header.payloadEndOffset, actual: offset))
    }
    unsafe filled += read
    unsafe unreadFileBytes -= read
  }
}
