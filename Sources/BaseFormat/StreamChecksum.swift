import ByteCoding

// Safe (the `unsafe` uses in this file): the views and buffers made here wrap bytes lent by
// `withUnsafeBytes`, `withUTF8` or `withUnsafeMutableBytes`, and are used only inside the closure
// that lends them.

/// A streaming checksum over a byte sequence fed in chunks of any size: two running sums
/// (Fletcher's construction) over little-endian 64-bit words, the last word zero-padded, then
/// mixed with the length and finished with murmur3's 64-bit finalizer on the first sum.
///
/// Written by hand because it must run inside the extension with no Foundation and keep up with a
/// reader doing tens of millions of entries per second (two additions per 8 bytes, several GB/s);
/// SHA-256 from swift-crypto needs Foundation on Linux and is an order of magnitude slower. It
/// catches accidental corruption (any single flipped bit changes the first sum, reordered words the
/// second); it is not a defence against tampering, which the manifest's SHA-256 is for.
///
/// The finalizer matters: a flip in a word's top bits changes only the top bits of both sums
/// (carries run upward), so the earlier `sum1 × K ^ sum2` could cancel out, and did, for about one
/// such flip in eight (found by the compact format's bit-flip test). Spreading the first sum over
/// all 64 bits first leaves a cancellation only if two unrelated 64-bit changes are equal.
package struct StreamChecksum: Sendable {
  private var sum1: UInt64 = 0
  private var sum2: UInt64 = 0
  private var pendingWord: UInt64 = 0
  private var pendingByteCount = 0
  private var totalByteCount: UInt64 = 0

  /// An empty checksum.
  package init() {}

  @inline(__always)
  private mutating func mix(_ word: UInt64) {
    sum1 &+= word
    sum2 &+= sum1
  }

  /// Feeds the next bytes of the sequence.
  package mutating func update(_ bytes: ByteView) {
    let count = bytes.count
    totalByteCount &+= UInt64(count)
    var index = 0
    while pendingByteCount != 0 && index < count {
      pendingWord |= UInt64(bytes[index]) << (8 * UInt64(pendingByteCount))
      pendingByteCount += 1
      index += 1
      if pendingByteCount == 8 {
        mix(pendingWord)
        pendingWord = 0
        pendingByteCount = 0
      }
    }
    // Two words per iteration with the loads issued before the dependent additions, so the
    // next loads are in flight while the sums update (the loop is bound by memory, not by adds).
    // Through the view's word walk, which checks once per step: a bounds check per load here
    // cost the loader 1.1% more instructions per entry (ci-smoke).
    var words = bytes.rebased(from: index).littleEndianWords
    var first = sum1
    var second = sum2
    while let (word0, word1) = words.nextPair() {
      first &+= word0
      second &+= first
      first &+= word1
      second &+= first
    }
    sum1 = first
    sum2 = second
    if let word = words.next() { mix(word) }
    index += words.offset
    while index < count {
      pendingWord |= UInt64(bytes[index]) << (8 * UInt64(pendingByteCount))
      pendingByteCount += 1
      index += 1
    }
  }

  /// Feeds the next bytes of the sequence from an array or a part of one.
  package mutating func update(_ bytes: ArraySlice<UInt8>) {
    unsafe bytes.withUnsafeBytes { unsafe update(ByteView($0)) }
  }

  /// Feeds the next bytes of the sequence from an array.
  package mutating func update(_ bytes: [UInt8]) { update(bytes[...]) }

  /// The checksum of everything fed so far (feeding may continue afterwards).
  package var value: UInt64 {
    var copy = self
    if copy.pendingByteCount != 0 { copy.mix(copy.pendingWord) }
    copy.mix(copy.totalByteCount)
    return Self.finalized(copy.sum1) ^ copy.sum2
  }

  /// murmur3's fmix64 (`ByteCoding.murmurFinalized(_:)`).
  @inline(__always)
  private static func finalized(_ value: UInt64) -> UInt64 { murmurFinalized(value) }

  /// The checksum of the bytes `view` shows, alone.
  package static func of(_ view: ByteView) -> UInt64 {
    var checksum = StreamChecksum()
    checksum.update(view)
    return checksum.value
  }

  /// The checksum of an array's bytes, alone.
  package static func of(_ bytes: [UInt8]) -> UInt64 {
    unsafe bytes.withUnsafeBytes { unsafe of(ByteView($0)) }
  }
}
