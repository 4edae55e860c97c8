/// A hash table from byte strings (labels) to values, looked up with borrowed bytes.
///
/// Written by hand because the compiler looks a label up twice per row (counting frequent
/// labels, then the base's dictionary), and `Dictionary` needs a key value per lookup and
/// hashes it with SipHash: measured with callgrind, about 1,000 instructions per lookup of a
/// 40-byte label, a fifth of a compile. This one keeps every key's bytes in one array, hashes
/// eight bytes at a time, and probes linearly: a lookup is a hash, a probe or two and a
/// `memcmp`. The hash is seeded per table at random, so hostile labels cannot be made to
/// collide into one long probe. A class with `Int` values, not a generic struct: a struct held in
/// a class was copied per lookup, and generic code across modules looked its types up per call.
@usableFromInline package final class ByteStringTable {
  // The table's storage is only touched by its own short methods, one at a time, so the
  // dynamic exclusivity checks on every property read (five per lookup, a tenth of a compile's
  // instructions with their thread-local bookkeeping) are turned off for it.
  /// Every key's bytes, one after another (a ``ByteStorage``: an array here was retained and
  /// released around each probe's comparison).
  private let keyBytes = ByteStorage()
  // Safe: the table's own short methods touch these one at a time; `forEachKey` lends the keys, and
  // an insert meanwhile traps (ByteStorage).
  /// Per entry: where its key starts in ``keyBytes``, its length, its full hash, its value.
  @exclusivity(unchecked) private var keyStarts: [Int] = []
  @exclusivity(unchecked) private var keyLengths: [Int] = []
  @exclusivity(unchecked) private var hashes: [UInt64] = []
  @exclusivity(unchecked) private var entryValues: [Int] = []
  /// Per slot, the entry index + 1 in the low 32 bits (0 is empty) and the top 32 bits of its
  /// key's hash above them, so a probe that meets another key is told apart in the slot itself,
  /// without a second load (the hashes' array was a miss per probe, perf). A power of two, at
  /// most half full.
  @exclusivity(unchecked) private var slots: [UInt64]
  private let seed: UInt64

  /// An empty table with room for `capacity` keys before it grows.
  @usableFromInline package convenience init(capacity: Int = 16) {
    self.init(capacity: capacity, seed: UInt64.random(in: UInt64.min...UInt64.max))
  }

  private init(capacity: Int, seed: UInt64) {
    var slotCount = 16
    while slotCount < 2 * capacity { slotCount *= 2 }
    unsafe slots = [UInt64](repeating: 0, count: slotCount)
    self.seed = seed
  }

  /// The number of keys.
  @usableFromInline package var count: Int { unsafe keyStarts.count }

  /// The entry holding the bytes `key` shows, or nil.
  @usableFromInline package func find(_ key: ByteView) -> Int? {
    let hash = Self.hash(key, seed: seed)
    // Subscripts, not `withUnsafeBufferPointer`: its closure retained and released the slots.
    let mask = unsafe slots.count - 1
    let tag = Self.tag(of: hash)
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let occupant = unsafe slots[slot]
      if occupant == 0 { return nil }
      let entry = Int(truncatingIfNeeded: occupant & 0xFFFF_FFFF) - 1
      if occupant & ~0xFFFF_FFFF == tag && matches(entry, key) { return entry }
      slot = (slot + 1) & mask
    }
  }

  /// The value of `entry` (from ``find(_:)`` or ``insert(_:value:)``).
  @usableFromInline package subscript(entry: Int) -> Int {
    get { unsafe entryValues[entry] }
    set { unsafe entryValues[entry] = newValue }
  }

  /// Adds a string's UTF-8 bytes, which must not be in the table yet, with `value`; returns its
  /// entry.
  @discardableResult
  @usableFromInline package func insert(utf8 key: String, value: Int) -> Int {
    var key = key
    return key.withUTF8 { unsafe insert(ByteView($0), value: value) }
  }

  /// Adds the bytes `key` shows, which must not be in the table yet, with `value`; returns its
  /// entry.
  @discardableResult
  @usableFromInline package func insert(_ key: ByteView, value: Int) -> Int {
    if unsafe 2 * (count + 1) > slots.count { unsafe rehash(slotCount: 2 * slots.count) }
    let hash = Self.hash(key, seed: seed)
    let entry = count
    unsafe keyStarts.append(keyBytes.count)
    unsafe keyLengths.append(key.count)
    keyBytes.append(key)
    unsafe hashes.append(hash)
    unsafe entryValues.append(value)
    place(entry, hash: hash)
    return entry
  }

  /// Every key with its value, in insertion order. The keys are lent to `body`: an insert into
  /// this table from `body` is a precondition failure (it could move them).
  @usableFromInline package func forEachKey(_ body: (ByteView, Int) throws -> Void) rethrows {
    try keyBytes.withView { keys in
      for entry in 0..<count {
        let start = unsafe keyStarts[entry]
        unsafe try body(keys.rebased(start..<(start + keyLengths[entry])), entryValues[entry])
      }
    }
  }

  /// Removes the entries whose value `isRemoved` accepts (rebuilds the table).
  @usableFromInline package func removeAll(where isRemoved: (Int) -> Bool) {
    let kept = ByteStringTable(capacity: count, seed: seed)
    forEachKey { key, value in
      if !isRemoved(value) { kept.insert(key, value: value) }
    }
    keyBytes.removeAll()
    kept.keyBytes.withView { keyBytes.append($0) }
    unsafe keyStarts = unsafe kept.keyStarts
    unsafe keyLengths = unsafe kept.keyLengths
    unsafe hashes = unsafe kept.hashes
    unsafe entryValues = unsafe kept.entryValues
    unsafe slots = unsafe kept.slots
  }

  private func matches(_ entry: Int, _ key: ByteView) -> Bool {
    guard unsafe keyLengths[entry] == key.count else { return false }
    let start = unsafe keyStarts[entry]
    return keyBytes.withView { key.equals($0.rebased(start..<(start + key.count))) }
  }

  private func place(_ entry: Int, hash: UInt64) {
    let mask = unsafe slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while unsafe slots[slot] != 0 { slot = (slot + 1) & mask }
    unsafe slots[slot] = Self.tag(of: hash) | UInt64(entry + 1)
  }

  /// The part of a hash a slot keeps beside its entry: the top 32 bits (the slot's place comes
  /// from the low ones).
  @inline(__always)
  private static func tag(of hash: UInt64) -> UInt64 { hash & ~0xFFFF_FFFF }

  private func rehash(slotCount: Int) {
    unsafe slots = [UInt64](repeating: 0, count: slotCount)
    for entry in 0..<count { unsafe place(entry, hash: hashes[entry]) }
  }

  /// Eight bytes at a time, each word multiplied into the state, then murmur3's finalizer to
  /// spread the bits (the slot is the low bits).
  @inline(__always)
  static func hash(_ key: ByteView, seed: UInt64) -> UInt64 {
    var state = seed ^ (UInt64(key.count) &* 0x9E37_79B9_7F4A_7C15)
    // The view's word walk: one check per word, none per load.
    var words = key.littleEndianWords
    while let word = words.next() {
      state = (state ^ word) &* 0xBF58_476D_1CE4_E5B9
      state ^= state >> 31
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    for byte in key.rebased(from: words.offset) {
      tail |= UInt64(byte) << shift
      shift += 8
    }
    return murmurFinalized((state ^ tail) &* 0x94D0_49BB_1331_11EB)
  }
}
