import SystemPackage

/// Whole reads and writes on a pipe. swift-system's `FileDescriptor` retries interrupted calls;
/// these add the loop over short transfers and turn a vanished peer into a count or `false`.
public enum DescriptorIO {
  /// Writes every byte; false when the other end is gone.
  public static func writeAll(_ descriptor: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Bool
  {
    (try? descriptor.writeAll(bytes)) != nil
  }

  /// Reads exactly `buffer.count` bytes; returns how many arrived before end of file or an error.
  public static func readExactly(
    _ descriptor: FileDescriptor, _ buffer: UnsafeMutableRawBufferPointer
  )
    -> Int
  {
    var offset = 0
    while offset < buffer.count {
      guard
        let count = try? descriptor.read(
          into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset...])), count > 0
      else { return offset }
      offset += count
    }
    return offset
  }
}
