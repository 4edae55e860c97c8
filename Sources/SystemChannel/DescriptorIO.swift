import SystemPackage

/// Whole reads and writes on a pipe. swift-system's `FileDescriptor` retries interrupted calls;
/// these add the loop over short transfers and turn a vanished peer into a count or `false`.
public enum DescriptorIO {
  /// Writes every byte; false when the other end is gone.
  public static func writeAll(_ descriptor: FileDescriptor, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { (try? descriptor.writeAll($0)) != nil }
  }

  /// Fills `bytes` from the descriptor; returns how many arrived before end of file or an error
  /// (`bytes.count` when all did). Read in place, each short read into the slice still empty.
  public static func readExactly(_ descriptor: FileDescriptor, into bytes: inout [UInt8]) -> Int {
    var offset = 0
    while offset < bytes.count {
      guard
        let count = try? bytes[offset...].withUnsafeMutableBytes({ try descriptor.read(into: $0) }),
        count > 0
      else { return offset }
      offset += count
    }
    return offset
  }
}
