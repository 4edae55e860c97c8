import ByteCoding
import SystemCalls
import SystemPackage

// Safe (the `unsafe` uses in this file): the `@exclusivity(unchecked)` fields are touched only by
// their object's own methods, on the one thread that owns the object, so no two accesses overlap
// (a reader is one thread's); the mapping lives until the reader is closed.

/// Reads a base through `mmap` in bounded windows, unmapping each window once it is consumed, so
/// resident memory stays flat whatever the file size (mapping a whole 75 MB file raises the
/// process's peak RSS by the file size, measured on Linux).
///
/// A window maps `windowByteCount` bytes plus room for the largest block, so a block that
/// starts inside the window always ends inside the mapping; each block is verified whole before
/// its first entry is returned.
@safe @usableFromInline package final class MappedBaseReader: BaseReader, @unsafe BlockSource {
  /// Bytes consumed per window: 256 KiB keeps the resident file pages of the process well under
  /// the 1 MiB RSS-over-idle budget while amortizing the `mmap`/`munmap` calls over thousands of
  /// records.
  @usableFromInline package static let windowByteCount = 256 * 1024
  /// The smallest window a caller may ask for.
  package static let minimumWindowByteCount = 16 * 1024
  /// One reader's budget for its dictionary labels' strings, in bytes (see
  /// `DictionaryLabelCache`).
  @usableFromInline package static let defaultLabelCacheByteBudget = DictionaryLabelCache
    .defaultByteBudget

  /// Bytes consumed per window by this reader.
  package let windowByteCount: Int

  @usableFromInline package let header: BaseHeader
  private let path: String
  private let descriptor: FileDescriptor
  /// Where the blocks end (the file's end, or a compact base's dictionary section).
  private let payloadEnd: Int
  private let pageByteCount: Int
  // Safe: the reader is used from one thread; dynamic exclusivity checks on these per-entry fields
  // cost a fifth of the loop's time, so they are off.
  /// The current window, mapped from file offset `mappingStart` to `mappingEnd`.
  @exclusivity(unchecked) private var mapping: MappedRegion?
  @exclusivity(unchecked) private var mappingStart = 0
  @exclusivity(unchecked) private var mappingEnd = 0
  @exclusivity(unchecked) private var position = BaseHeader.byteCount
  @exclusivity(unchecked) var decoder: BlockDecoder
  @exclusivity(unchecked) var finished = false

  /// Opens a base and validates its header and size.
  /// - Parameters:
  ///   - path: the base file.
  ///   - validatesLabels: also validate every label's UTF-8 (slower; see ``BaseHeader``).
  ///   - windowByteCount: bytes consumed per window (at least
  ///     ``minimumWindowByteCount``); a merge of many bases uses smaller windows so their sum
  ///     stays bounded.
  ///   - labelCacheByteBudget: private memory for the strings of the dictionary's labels, made
  ///     once each (default 64 KiB); a merge of many bases gives each its share of one budget.
  /// - Throws: ``BaseFormatError`` for a missing, foreign, truncated or corrupt file.
  @usableFromInline package init(
    path: String, validatesLabels: Bool = false,
    windowByteCount: Int = MappedBaseReader.windowByteCount,
    labelCacheByteBudget: Int = MappedBaseReader.defaultLabelCacheByteBudget
  ) throws(BaseFormatError) {
    self.path = path
    self.windowByteCount = max(Self.minimumWindowByteCount, windowByteCount)
    pageByteCount = MappedRegion.pageByteCount
    let opened = try OpenedBase(path: path, validatesLabels: validatesLabels)
    descriptor = opened.descriptor
    header = opened.header
    payloadEnd = header.payloadEndOffset
    unsafe decoder = opened.decoder(
      path: path, validatesLabels: validatesLabels, labelCacheByteBudget: labelCacheByteBudget)
  }

  /// Whether entries come back without labels (numbers-only passes are several times faster).
  package var skipsLabels: Bool {
    get { unsafe decoder.skipsLabels }
    set { unsafe decoder.skipsLabels = newValue }
  }

  deinit {
    unmap()
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

  func window() throws(BaseFormatError) -> (
    bytes: ByteView, reachesPayloadEnd: Bool, fileOffset: Int
  ) {
    if unsafe mapping == nil { try remap() }
    guard let mapping = unsafe mapping else {
      throw unsafe BaseFormatError(path: path, offset: position, problem: .recordPastEnd)
    }
    return unsafe (
      mapping.bytes.rebased(from: position - mappingStart), mappingEnd == payloadEnd, position
    )
  }

  func consume(_ byteCount: Int) { unsafe position += byteCount }

  /// The next window, from the page holding the position; a window that already reaches the
  /// payload's end holds a short block, which is corrupt.
  func moreBytes() throws(BaseFormatError) {
    guard unsafe mappingEnd < payloadEnd else {
      throw unsafe BaseFormatError(path: path, offset: position, problem: .recordPastEnd)
    }
    try remap()
  }

  func endOfBlocks() -> (unread: Int, fileOffset: Int) {
    unmap()
    return unsafe (payloadEnd - position, position)
  }

  private func unmap() {
    unsafe mapping?.unmap()
    unsafe mapping = nil
  }

  /// Releases the consumed window and maps the next one from the page holding `position`.
  private func remap() throws(BaseFormatError) {
    unmap()
    let start = unsafe position / pageByteCount * pageByteCount
    let end = min(payloadEnd, start + windowByteCount + BaseHeader.maximumBlockByteCount)
    guard end > start else { return }
    // Populated: the whole window in one call instead of one fault per 16 pages. Sequential:
    // the kernel reads ahead and may drop pages behind us.
    let region: MappedRegion
    do {
      region = try MappedRegion(
        descriptor: descriptor, offset: start, byteCount: end - start, populate: true,
        sequential: true)
    } catch {
      throw FileHandleIO.error(path, start, "mmap", error)
    }
    unsafe mapping = region
    unsafe mappingStart = start
    unsafe mappingEnd = end
  }
}
