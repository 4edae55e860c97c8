#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A read-only view of bytes someone else owns (a line in a reader's buffer, a string's UTF-8)
/// whose every read is bounds-checked, in release builds too.
///
/// Code outside the rooms the README's "Unsafe bytes" table names reads bytes through this, not
/// through a raw pointer: an index off by one traps at the read instead of reading past the
/// line. The check is one compare and a branch the processor predicts, and walking a view
/// (`for byte in view`) checks nothing per byte. Measured with cachegrind on a one-thread
/// compile of 200,000 directory rows, whose rows, numbers and lines all go through views:
/// 2,013 M instructions, against 2,022 M with raw buffers.
///
/// A view does not keep its bytes alive: make it inside the owner's `withUnsafeBytes` (or
/// `withUTF8`) and do not let it escape, as with the buffer it wraps.
@frozen
// Safe: every read is checked against `count` first (a precondition, or a guard that returns
// nil), so `base` is read only inside the `count` bytes it was made with. A view's lifetime is
// its maker's: views are made inside `withUnsafeBytes`, `withUTF8` or `ByteStorage.withView`
// and not kept, which is why the type is @safe and `unsafeStart` is not.
@safe @usableFromInline package struct ByteView: RandomAccessCollection {
  @usableFromInline let base: UnsafeRawPointer?
  /// The number of bytes.
  @usableFromInline package let count: Int

  /// A view of `bytes`.
  @inlinable
  package init(_ bytes: UnsafeRawBufferPointer) {
    unsafe (base, count) = (bytes.baseAddress, bytes.count)
  }

  /// A view of `bytes` (read only through the view).
  @inlinable
  package init(_ bytes: UnsafeMutableRawBufferPointer) {
    unsafe self.init(UnsafeRawBufferPointer(bytes))
  }

  /// A view of `bytes`.
  @inlinable
  package init(_ bytes: UnsafeBufferPointer<UInt8>) {
    unsafe (base, count) = unsafe (UnsafeRawPointer(bytes.baseAddress), bytes.count)
  }

  @inlinable
  init(base: UnsafeRawPointer?, count: Int) {
    unsafe (self.base, self.count) = unsafe (base, count)
  }

  @inlinable package var startIndex: Int { 0 }
  @inlinable package var endIndex: Int { count }

  /// The byte at `index`.
  /// - Precondition: `0 <= index < count`.
  @inlinable
  package subscript(index: Int) -> UInt8 {
    // One unsigned compare covers both ends.
    precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "byte index out of range")
    return unsafe base.unsafelyUnwrapped.load(fromByteOffset: index, as: UInt8.self)
  }

  /// Walks the bytes in order; the walk stays inside the view by construction, so it reads
  /// without a check per byte (`for byte in view` costs what a raw buffer's loop does).
  @frozen
  @usableFromInline package struct Iterator: IteratorProtocol {
    @usableFromInline let view: ByteView
    @usableFromInline var position = 0

    @inlinable
    init(_ view: ByteView) { self.view = view }

    @inlinable
    package mutating func next() -> UInt8? {
      guard position < view.count else { return nil }
      defer { position += 1 }
      return unsafe view.base.unsafelyUnwrapped.load(fromByteOffset: position, as: UInt8.self)
    }
  }

  @inlinable
  package func makeIterator() -> Iterator { Iterator(self) }

  /// The bytes in `range` as a view of their own, indexed from 0.
  /// - Precondition: `range` lies within `0..<count`.
  @inlinable
  package func rebased(_ range: Range<Int>) -> ByteView {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "byte range out of range")
    return unsafe ByteView(
      base: range.isEmpty ? nil : base.unsafelyUnwrapped + range.lowerBound, count: range.count)
  }

  /// The bytes from `start` to the end as a view of their own, indexed from 0.
  /// - Precondition: `0 <= start <= count`.
  @inlinable
  package func rebased(from start: Int) -> ByteView { rebased(start..<count) }

  /// The little-endian `T` at byte `offset`.
  /// - Precondition: the value's bytes lie within the view.
  @inlinable
  package func loadLittleEndian<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
    precondition(
      offset >= 0 && offset <= count - MemoryLayout<T>.size, "field out of the view's bytes")
    return unsafe T(
      littleEndian: base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: offset, as: T.self))
  }

  /// The first byte's address, for a room that goes on reading the bytes after this call (the
  /// block decoder keeps a block's start while it hands out its entries); nil when empty. The
  /// view's rule holds: valid only while the owner lends the bytes.
  @inlinable package var unsafeStart: UnsafeRawPointer? { unsafe base }

  /// No bytes.
  @inlinable package static var empty: ByteView { unsafe ByteView(base: nil, count: 0) }

  /// Whether the view shows exactly `array`'s bytes (`memcmp`: the generic `elementsEqual` went
  /// byte by byte through an iterator).
  @inlinable
  package func equals(_ array: [UInt8]) -> Bool {
    unsafe count == array.count && array.withUnsafeBytes { unsafe equals(ByteView($0)) }
  }

  /// Whether the two views show the same bytes (`memcmp`).
  @inlinable
  package func equals(_ other: ByteView) -> Bool {
    unsafe count == other.count
      && (count == 0 || memcmp(base.unsafelyUnwrapped, other.base.unsafelyUnwrapped, count) == 0)
  }

  /// The index of the first `byte` at or after `start`, or nil: `memchr`, which reads a word or
  /// a vector at a time (the generic `firstIndex(of:)` went byte by byte, about ten
  /// instructions each, on every line and field of a dump). It reads no byte outside the view.
  /// `start` has no default: a call without it is `Collection.firstIndex(of:)`, byte by byte.
  @inlinable
  package func firstIndex(of byte: UInt8, from start: Int) -> Int? {
    guard start >= 0, start < count, let base = unsafe base else { return nil }
    guard let found = unsafe memchr(base + start, Int32(byte), count - start) else { return nil }
    return unsafe UnsafeRawPointer(found) - base
  }

  /// The bytes as a raw buffer, for the rooms that hand them to the system, a C library or a
  /// measured loop (the README's layout table names them).
  @inlinable
  package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
    -> Result
  {
    unsafe try body(UnsafeRawBufferPointer(start: base, count: count))
  }

  /// The bytes as one buffer, for code that hands them on whole (`String(decoding:as:)`,
  /// `Array(_:)`) without reading them one by one here.
  @inlinable
  package func withContiguousStorageIfAvailable<Result>(
    _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows -> Result? {
    unsafe try body(
      UnsafeBufferPointer(start: base?.assumingMemoryBound(to: UInt8.self), count: count))
  }
}

extension ByteView {
  /// The view's whole 64-bit little-endian words, in order from its start; the `count % 8`
  /// bytes after the last whole word are left to the caller (``offset`` says where they start).
  /// Like the byte iterator, the walk stays inside the view by construction: one check per step,
  /// none per load, which a checksum over every byte of a base needs (``loadLittleEndian(_:at:)``
  /// per word cost the loader 1.1% more instructions per entry on ci-smoke).
  @frozen
  @usableFromInline package struct LittleEndianWords {
    @usableFromInline let view: ByteView
    @usableFromInline var position = 0

    @inlinable
    init(_ view: ByteView) { self.view = view }

    /// Where the next word starts, in bytes from the view's start.
    @inlinable package var offset: Int { position }

    /// The next word, or nil when fewer than 8 bytes are left.
    @inlinable
    package mutating func next() -> UInt64? {
      guard view.count &- position >= 8 else { return nil }
      defer { position &+= 8 }
      return unsafe UInt64(
        littleEndian: view.base.unsafelyUnwrapped.loadUnaligned(
          fromByteOffset: position, as: UInt64.self))
    }

    /// The next two words, or nil when fewer than 16 bytes are left.
    @inlinable
    package mutating func nextPair() -> (UInt64, UInt64)? {
      guard view.count &- position >= 16 else { return nil }
      defer { position &+= 16 }
      let start = unsafe view.base.unsafelyUnwrapped + position
      return unsafe (
        UInt64(littleEndian: start.loadUnaligned(as: UInt64.self)),
        UInt64(littleEndian: start.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
      )
    }
  }

  /// A walk over the view's whole little-endian 64-bit words.
  @inlinable package var littleEndianWords: LittleEndianWords { LittleEndianWords(self) }
}

extension Array where Element == UInt8 {
  /// Calls `body` with a bounds-checked view of the array's bytes: the safe way into them for
  /// code without a room (the view must not escape `body`; the array cannot change meanwhile).
  /// - Returns: what `body` returns.
  /// - Throws: what `body` throws.
  @inlinable
  package func withByteView<Result>(_ body: (ByteView) throws -> Result) rethrows -> Result {
    unsafe try withUnsafeBytes { unsafe try body(ByteView($0)) }
  }

  /// Appends the bytes a view shows in one copy (the generic `append(contentsOf:)` went through
  /// the view's iterator, a byte at a time: 160 instructions a label in a compile).
  @inlinable
  package mutating func append(contentsOf view: ByteView) {
    _ = unsafe view.withContiguousStorageIfAvailable { unsafe append(contentsOf: $0) }
  }
}

extension ArraySlice where Element == UInt8 {
  /// Calls `body` with a bounds-checked view of the slice's bytes, indexed from 0 (see
  /// `Array.withByteView(_:)`).
  /// - Returns: what `body` returns.
  /// - Throws: what `body` throws.
  @inlinable
  package func withByteView<Result>(_ body: (ByteView) throws -> Result) rethrows -> Result {
    unsafe try withUnsafeBytes { unsafe try body(ByteView($0)) }
  }
}

extension UnsafeRawBufferPointer {
  /// The little-endian `T` at `offset`, for the rooms' fixed layouts whose length they checked
  /// first (a sort record in a run's buffer): reading past the bytes is a programming error, not
  /// bad input.
  /// - Precondition: the value's bytes lie inside the buffer.
  @inlinable
  package func loadLittleEndian<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
    precondition(
      offset >= 0 && offset <= count - MemoryLayout<T>.size, "load outside the buffer")
    return unsafe T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
  }
}
