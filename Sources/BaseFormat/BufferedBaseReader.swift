import SystemPackage

/// Reads a base through one 8 KiB buffer with `read()`: constant memory whatever the file size.
/// Records that straddle the end of the buffer are moved to its front before the next read.
public final class BufferedBaseReader: BaseReader {
  /// The buffer size: 8 KiB, the block size the 2GIS article says a careful reader would use
  /// ("read in 8 KB block"), and the common file system block.
  public static let bufferByteCount = 8 * 1024

  public let header: BaseHeader
  private let path: String
  private let descriptor: FileDescriptor
  private let buffer: UnsafeMutableRawPointer
  private var cursor = 0
  private var filled = 0
  /// File offset of `buffer[0]`.
  private var bufferFileOffset: Int = BaseHeader.byteCount
  private var unreadFileBytes: Int
  private var checksum = StreamChecksum()
  private var decoder: RecordDecoder
  private var finished = false

  /// Opens a base and validates its header and size.
  /// - Throws: ``BaseFormatError`` for a missing, foreign, truncated or corrupt file.
  public init(path: String) throws(BaseFormatError) {
    self.path = path
    descriptor = try FileHandleIO.openForReading(path)
    buffer = UnsafeMutableRawPointer.allocate(
      byteCount: Self.bufferByteCount, alignment: MemoryLayout<UInt64>.alignment)
    do throws(BaseFormatError) {
      let fileByteCount = try FileHandleIO.byteCount(of: descriptor, path: path)
      let headerBytes = UnsafeMutableRawBufferPointer(start: buffer, count: BaseHeader.byteCount)
      let read = try FileHandleIO.readFully(descriptor, at: 0, into: headerBytes, path: path)
      header = try BaseHeader.decode(UnsafeRawBufferPointer(rebasing: headerBytes[..<read]), path: path)
      guard fileByteCount == header.fileByteCount else {
        throw BaseFormatError(
          path: path, offset: min(fileByteCount, header.fileByteCount),
          problem: .sizeMismatch(expected: header.fileByteCount, actual: fileByteCount))
      }
    } catch {
      buffer.deallocate()
      try? descriptor.close()
      throw error
    }
    unreadFileBytes = header.payloadByteCount
    decoder = RecordDecoder(header: header, path: path)
  }

  deinit {
    buffer.deallocate()
    try? descriptor.close()
  }

  public func next() throws(BaseFormatError) -> BaseEntry? {
    if finished { return nil }
    if decoder.isComplete {
      try finish()
      return nil
    }
    while true {
      if let (entry, byteCount) = try decoder.decode(
        buffer + cursor, available: filled - cursor, reachesPayloadEnd: unreadFileBytes == 0,
        fileOffset: bufferFileOffset + cursor)
      {
        cursor += byteCount
        return entry
      }
      try refill()
    }
  }

  /// Moves the unread tail to the front and reads until the buffer is full or the payload ends.
  private func refill() throws(BaseFormatError) {
    let tail = filled - cursor
    if tail > 0 && cursor > 0 { buffer.copyMemory(from: buffer + cursor, byteCount: tail) }
    bufferFileOffset += cursor
    cursor = 0
    filled = tail
    let wanted = min(Self.bufferByteCount - filled, unreadFileBytes)
    let target = UnsafeMutableRawBufferPointer(start: buffer + filled, count: wanted)
    let offset = bufferFileOffset + filled
    let read: Int
    do {
      // pread at an explicit offset: the header was read the same way, so the descriptor's own
      // position is never relied on.
      read = try descriptor.read(fromAbsoluteOffset: Int64(offset), into: target)
    } catch {
      throw FileHandleIO.error(path, offset, "pread", (error as? Errno)?.rawValue ?? 0)
    }
    guard read > 0 || wanted == 0 else {
      // The file shrank after it was opened.
      throw BaseFormatError(
        path: path, offset: offset,
        problem: .sizeMismatch(expected: header.fileByteCount, actual: offset))
    }
    checksum.update(UnsafeRawBufferPointer(start: buffer + filled, count: read))
    filled += read
    unreadFileBytes -= read
  }

  private func finish() throws(BaseFormatError) {
    finished = true
    let leftover = (filled - cursor) + unreadFileBytes
    guard leftover == 0 else {
      throw BaseFormatError(
        path: path, offset: bufferFileOffset + cursor, problem: .trailingBytes(count: leftover))
    }
    let actual = checksum.value
    guard actual == header.payloadChecksum else {
      throw BaseFormatError(
        path: path, offset: BaseHeader.byteCount,
        problem: .payloadChecksumMismatch(expected: header.payloadChecksum, actual: actual))
    }
  }
}
