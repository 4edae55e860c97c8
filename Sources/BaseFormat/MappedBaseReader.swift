import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a base through `mmap` in bounded windows, unmapping each window once it is consumed, so
/// resident memory stays flat whatever the file size (mapping a whole 75 MB file raises the
/// process's peak RSS by the file size; see BRIEF.md §6).
///
/// A window maps ``windowByteCount`` bytes plus room for the largest record, so a record that
/// starts inside the window always ends inside the mapping.
public final class MappedBaseReader: BaseReader {
  /// Bytes consumed per window: 256 KiB keeps the resident file pages of the process well under
  /// the 1 MiB RSS-over-idle budget while amortizing the `mmap`/`munmap` calls over thousands of
  /// records.
  public static let windowByteCount = 256 * 1024

  public let header: BaseHeader
  private let path: String
  private let descriptor: FileDescriptor
  private let fileByteCount: Int
  private let pageByteCount: Int
  private var mapping: UnsafeMutableRawPointer?
  private var mappingStart = 0
  private var mappingEnd = 0
  private var position = BaseHeader.byteCount
  private var checksummedUpTo = BaseHeader.byteCount
  private var checksum = StreamChecksum()
  private var decoder: RecordDecoder
  private var finished = false

  /// Opens a base and validates its header and size.
  /// - Throws: ``BaseFormatError`` for a missing, foreign, truncated or corrupt file.
  public init(path: String) throws(BaseFormatError) {
    self.path = path
    descriptor = try FileHandleIO.openForReading(path)
    pageByteCount = Int(sysconf(Int32(_SC_PAGESIZE)))
    do throws(BaseFormatError) {
      fileByteCount = try FileHandleIO.byteCount(of: descriptor, path: path)
      let headerBytes = UnsafeMutableRawBufferPointer.allocate(
        byteCount: BaseHeader.byteCount, alignment: MemoryLayout<UInt64>.alignment)
      defer { headerBytes.deallocate() }
      let read = try FileHandleIO.readFully(descriptor, at: 0, into: headerBytes, path: path)
      header = try BaseHeader.decode(UnsafeRawBufferPointer(rebasing: headerBytes[..<read]), path: path)
      guard fileByteCount == header.fileByteCount else {
        throw BaseFormatError(
          path: path, offset: min(fileByteCount, header.fileByteCount),
          problem: .sizeMismatch(expected: header.fileByteCount, actual: fileByteCount))
      }
    } catch {
      try? descriptor.close()
      throw error
    }
    decoder = RecordDecoder(header: header, path: path)
  }

  deinit {
    unmap()
    try? descriptor.close()
  }

  public func next() throws(BaseFormatError) -> BaseEntry? {
    if finished { return nil }
    if decoder.isComplete {
      try finish()
      return nil
    }
    if mapping == nil
      || (position + BaseHeader.maximumRecordByteCount > mappingEnd && mappingEnd < fileByteCount)
    {
      try remap()
    }
    let decoded = try decoder.decode(
      mapping! + (position - mappingStart), available: mappingEnd - position,
      reachesPayloadEnd: mappingEnd == fileByteCount, fileOffset: position)
    // A window always holds a whole record unless it reaches the payload's end, where a short
    // record throws; so nil cannot come back here.
    guard let (entry, byteCount) = decoded else {
      throw BaseFormatError(path: path, offset: position, problem: .recordPastEnd)
    }
    position += byteCount
    return entry
  }

  /// Checksums the consumed part of the current window and releases it.
  private func checksumConsumed() {
    guard let mapping, position > checksummedUpTo else { return }
    checksum.update(
      UnsafeRawBufferPointer(
        start: mapping + (checksummedUpTo - mappingStart), count: position - checksummedUpTo))
    checksummedUpTo = position
  }

  private func unmap() {
    guard let mapping else { return }
    munmap(mapping, mappingEnd - mappingStart)
    self.mapping = nil
  }

  private func remap() throws(BaseFormatError) {
    checksumConsumed()
    unmap()
    let start = position / pageByteCount * pageByteCount
    let end = min(fileByteCount, start + Self.windowByteCount + BaseHeader.maximumRecordByteCount)
    guard end > start else { return }
    let address = mmap(nil, end - start, PROT_READ, MAP_PRIVATE, descriptor.rawValue, off_t(start))
    guard let address, address != MAP_FAILED else {
      throw FileHandleIO.error(path, start, "mmap", errno)
    }
    // Sequential access: the kernel reads ahead and may drop pages behind us.
    _ = madvise(address, end - start, Int32(MADV_SEQUENTIAL))
    mapping = address
    mappingStart = start
    mappingEnd = end
  }

  private func finish() throws(BaseFormatError) {
    finished = true
    checksumConsumed()
    unmap()
    guard position == fileByteCount else {
      throw BaseFormatError(
        path: path, offset: position, problem: .trailingBytes(count: fileByteCount - position))
    }
    let actual = checksum.value
    guard actual == header.payloadChecksum else {
      throw BaseFormatError(
        path: path, offset: BaseHeader.byteCount,
        problem: .payloadChecksumMismatch(expected: header.payloadChecksum, actual: actual))
    }
  }
}
