#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole reads and writes on a pipe, retrying on EINTR and short transfers.
public enum DescriptorIO {
  /// Writes every byte; false when the other end is gone.
  public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += written
    }
    return true
  }

  /// Reads exactly `buffer.count` bytes; returns how many arrived before EOF or an error.
  public static func readExactly(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer)
    -> Int
  {
    var offset = 0
    while offset < buffer.count {
      let count = read(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if count < 0 {
        if errno == EINTR { continue }
        return offset
      }
      if count == 0 { return offset }
      offset += count
    }
    return offset
  }
}
