/// A bounds-checked cursor over borrowed bytes that reads little-endian fixed-width integers,
/// unsigned LEB128 values and byte runs: every wire and file format of calldir is read through
/// it, so no other code loads from a raw pointer.
///
/// It reads through a ``ByteView``, so it borrows the bytes as the view does: use it inside the
/// closure that lent them (`withUnsafeBytes`) and let it go with them, as swift-collections'
/// `_UnsafeHandle` is used inside `read { }`. Reads past the end throw ``ByteCodingError`` and
/// leave ``offset`` where it was.
@usableFromInline package struct LittleEndianReader {
  @usableFromInline let bytes: ByteView
  @usableFromInline var _offset: Int
  /// Where the next read starts, in bytes from the start of the borrowed bytes.
  @inlinable package var offset: Int { _offset }

  /// A reader at `offset` in the bytes `view` shows.
  /// - Precondition: `0 <= offset <= view.count`.
  @inlinable
  package init(_ view: ByteView, offset: Int = 0) {
    precondition(offset >= 0 && offset <= view.count, "reader offset outside its bytes")
    self.bytes = view
    self._offset = offset
  }

  /// Bytes left to read.
  @inlinable
  package var remainingCount: Int { bytes.count - offset }

  /// Whether every byte was read.
  @inlinable
  package var isAtEnd: Bool { offset == bytes.count }

  /// Reads a little-endian `T` and moves past it.
  /// - Throws: ``ByteCodingError/truncated(offset:needed:available:)`` when fewer than
  ///   `MemoryLayout<T>.size` bytes are left.
  @inlinable @inline(__always)
  @usableFromInline package mutating func read<T: FixedWidthInteger>(_: T.Type = T.self)
    throws(ByteCodingError) -> T
  {
    let size = MemoryLayout<T>.size
    guard remainingCount >= size else {
      throw .truncated(offset: offset, needed: size, available: remainingCount)
    }
    let value = bytes.loadLittleEndian(T.self, at: offset)
    _offset += size
    return value
  }

  /// Reads an unsigned LEB128 value (at most 10 bytes, 64 bits) and moves past it.
  /// - Throws: ``ByteCodingError/truncated(offset:needed:available:)`` when the bytes end before
  ///   its last byte, ``ByteCodingError/overlongInteger(offset:)`` when it does not fit 64 bits.
  @inlinable
  package mutating func readLEB128() throws(ByteCodingError) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    var index = offset
    let end = Swift.min(bytes.count, offset + LEB128.maximumByteCount)
    while index < end {
      let byte = bytes[index]
      if shift == 63 && byte > 1 { throw .overlongInteger(offset: offset) }
      value |= UInt64(byte & 0x7F) << shift
      index += 1
      if byte & 0x80 == 0 {
        _offset = index
        return value
      }
      shift += 7
    }
    if end - offset == LEB128.maximumByteCount { throw .overlongInteger(offset: offset) }
    throw .truncated(offset: offset, needed: end - offset + 1, available: remainingCount)
  }

  /// The next `count` bytes as a bounds-checked view, borrowed like the reader's; moves past
  /// them.
  /// - Throws: ``ByteCodingError/truncated(offset:needed:available:)`` when fewer are left.
  @inlinable @inline(__always)
  @usableFromInline package mutating func readView(_ count: Int) throws(ByteCodingError) -> ByteView
  {
    guard count >= 0, remainingCount >= count else {
      throw .truncated(offset: offset, needed: count, available: remainingCount)
    }
    let run = bytes.rebased(offset..<(offset + count))
    _offset += count
    return run
  }

  /// Moves past `count` bytes.
  /// - Throws: ``ByteCodingError/truncated(offset:needed:available:)`` when fewer are left.
  @inlinable @inline(__always)
  @usableFromInline package mutating func skip(_ count: Int) throws(ByteCodingError) {
    _ = try readView(count)
  }
}
