/// Unsigned LEB128, the compact format's variable-length integers: seven bits per byte, low
/// bits first, the high bit set on every byte but the last.
enum LEB128 {
  /// At most 10 bytes for a 64-bit value.
  static let maximumByteCount = 10

  static func append(_ value: UInt64, to bytes: inout [UInt8]) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  static func byteCount(_ value: UInt64) -> Int {
    var count = 1
    var rest = value >> 7
    while rest > 0 {
      count += 1
      rest >>= 7
    }
    return count
  }

  /// Reads a value at `pointer`, at most `available` bytes; nil when it runs past them or does
  /// not fit 64 bits.
  @inline(__always)
  static func read(_ pointer: UnsafeRawPointer, available: Int) -> (value: UInt64, byteCount: Int)?
  {
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
