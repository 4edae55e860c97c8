/// Unsigned LEB128, the compact format's variable-length integers: seven bits per byte, low
/// bits first, the high bit set on every byte but the last.
public enum LEB128 {
  /// At most 10 bytes for a 64-bit value.
  public static let maximumByteCount = 10

  /// How many bytes `value` takes.
  @inlinable
  public static func byteCount(_ value: UInt64) -> Int {
    var count = 1
    var rest = value >> 7
    while rest > 0 {
      count += 1
      rest >>= 7
    }
    return count
  }
}

extension LEB128 {
  /// Reads a value at `pointer`, at most `available` bytes; nil when it runs past them or does not
  /// fit 64 bits. The block decoder's per-record path: measured, a ``LittleEndianReader`` per
  /// record cost the loader about 20% more instructions per entry (cachegrind, 200k entries), so
  /// the hot path keeps this pointer form and checks `available` itself.
  @inlinable @inline(__always)
  public static func read(_ pointer: UnsafeRawPointer, available: Int) -> (
    value: UInt64, byteCount: Int
  )? {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    var index = 0
    while index < available && index < maximumByteCount {
      let byte = pointer.load(fromByteOffset: index, as: UInt8.self)
      if shift == 63 && byte > 1 { return nil }
      value |= UInt64(byte & 0x7F) << shift
      index += 1
      if byte & 0x80 == 0 { return (value, index) }
      shift += 7
    }
    return nil
  }
}
