// Safe: the value's bytes are lent by `withUnsafeBytes(of:)` and copied into the array inside it.

/// Appends little-endian fixed-width integers and unsigned LEB128 values to a byte array: the
/// writing half of ``LittleEndianReader``.
extension Array where Element == UInt8 {
  /// Appends `value`'s `MemoryLayout<T>.size` bytes, least significant first.
  @inlinable
  package mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
    unsafe Swift.withUnsafeBytes(of: value.littleEndian) { unsafe append(contentsOf: $0) }
  }

  /// Appends `value` as unsigned LEB128: seven bits per byte, low bits first.
  @inlinable
  package mutating func appendLEB128(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    append(UInt8(rest))
  }
}
