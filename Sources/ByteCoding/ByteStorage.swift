// Safe: `base` holds `capacity` bytes allocated here, of which the first `count` are written;
// only `reserve` replaces it, after copying, and only while no view is lent (`lentViews`, checked
// by a precondition), so a lent view never outlives its bytes. @safe: the bytes leave only as
// views inside `withView`.
/// Bytes one object owns and appends to, read as a ``ByteView`` without a reference count.
///
/// Written by hand for the compiler's per-row loops: an `[UInt8]` held by a class is retained
/// and released around each borrow (`withUnsafeBytes`), and where those borrows were per row
/// (a label table's keys, probed for every row written) they were a tenth of the merging
/// thread's instructions (callgrind). Here the bytes sit at a fixed address until they grow, so
/// a view costs two loads.
///
/// Its bytes are lent only inside ``withView(_:)``: while a view is lent, a change to the storage
/// (``append(_:)``, ``append(upTo:_:)``, ``removeFirst(_:)``, ``removeAll()``, ``reserve(_:)``)
/// is a precondition failure, since growing frees the bytes the view points at. So appending the
/// storage's own bytes, or a table inserting while its keys are walked, traps instead of reading
/// freed memory. A view must not outlive the closure it was handed to.
@safe @usableFromInline package final class ByteStorage {
  // Touched only by this class's own short methods, one at a time: the dynamic exclusivity
  // checks on each read (a view per probe) cost more than the reference counts they replaced.
  @exclusivity(unchecked) @usableFromInline var base: UnsafeMutableRawPointer
  /// The bytes held.
  @exclusivity(unchecked) @usableFromInline package internal(set) var count = 0
  /// Bytes it holds before it grows.
  @exclusivity(unchecked) @usableFromInline package private(set) var capacity: Int

  /// Empty, with room for `capacity` bytes before it grows.
  @usableFromInline package init(capacity: Int = 64) {
    unsafe self.capacity = max(capacity, 16)
    unsafe base = unsafe UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
  }

  deinit { unsafe base.deallocate() }

  /// Views lent and not yet returned (``withView(_:)`` calls under way).
  @exclusivity(unchecked) @usableFromInline var lentViews = 0

  /// Calls `body` with the bytes held; the storage cannot change until it returns.
  /// - Parameter body: reads the bytes; the view must not escape it.
  /// - Returns: what `body` returns.
  /// - Throws: what `body` throws.
  @inlinable package func withView<Result>(_ body: (ByteView) throws -> Result) rethrows -> Result {
    unsafe lentViews += 1
    defer { unsafe lentViews -= 1 }
    return unsafe try body(
      ByteView(UnsafeRawBufferPointer(start: UnsafeRawPointer(base), count: count)))
  }

  /// Traps when a view is lent: a change now would move or overwrite the bytes it shows.
  @inline(__always) func checkNotLent() {
    unsafe precondition(lentViews == 0, "a ByteStorage changed while a view of its bytes was lent")
  }

  /// Makes room for `total` bytes in all, growing by doubling.
  @usableFromInline package func reserve(_ total: Int) {
    checkNotLent()
    guard unsafe total > capacity else { return }
    var grown = unsafe capacity
    while grown < total { grown *= 2 }
    let moved = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
    unsafe moved.copyMemory(from: base, byteCount: count)
    unsafe base.deallocate()
    unsafe (base, capacity) = unsafe (moved, grown)
  }

  /// Appends the bytes `bytes` shows. Its own bytes can only be shown inside ``withView(_:)``,
  /// where appending traps: growing would free them before the copy.
  @usableFromInline package func append(_ bytes: ByteView) {
    checkNotLent()
    guard bytes.count > 0 else { return }
    unsafe reserve(count + bytes.count)
    unsafe bytes.withUnsafeBytes {
      unsafe (base + count).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
    }
    unsafe count += bytes.count
  }

  /// Appends `byteCount` bytes filled by `fill`, which is handed their room and returns how many
  /// it wrote (at most `byteCount`; a negative count writes none). Returns what `fill` returned.
  @usableFromInline package func append(
    upTo byteCount: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Int
  ) -> Int {
    checkNotLent()
    unsafe reserve(count + byteCount)
    let written = unsafe fill(UnsafeMutableRawBufferPointer(start: base + count, count: byteCount))
    unsafe count += min(max(written, 0), byteCount)
    return written
  }

  /// Drops the first `prefix` bytes, moving the rest to the front.
  @usableFromInline package func removeFirst(_ prefix: Int) {
    checkNotLent()
    unsafe precondition(prefix >= 0 && prefix <= count, "removing more bytes than held")
    guard prefix > 0 else { return }
    unsafe base.copyMemory(from: base + prefix, byteCount: count - prefix)
    unsafe count -= prefix
  }

  /// Drops every byte, keeping the room.
  @usableFromInline package func removeAll() {
    checkNotLent()
    unsafe count = 0
  }
}
