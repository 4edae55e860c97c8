/// Unsigned LEB128, the compact format's variable-length integers: seven bits per byte, low
/// bits first, the high bit set on every byte but the last.
@usableFromInline package enum LEB128 {
  /// At most 10 bytes for a 64-bit value.
  @usableFromInline package static let maximumByteCount = 10

  /// How many bytes `value` takes.
  @inlinable
  package static func byteCount(_ value: UInt64) -> Int {
    var count = 1
    var rest = value >> 7
    while rest > 0 {
      count += 1
      rest >>= 7
    }
    return count
  }
}
