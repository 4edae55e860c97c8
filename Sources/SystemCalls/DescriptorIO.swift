import SystemPackage

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; C hands back no pointer into its own memory (the buffers
// read into are lent by their owners for the read only), and nothing here keeps a pointer past its
// call.

/// Whole reads and writes on a pipe, in the system-call room (they lend an array's bytes to
/// `read(2)` and `write(2)`). swift-system's `FileDescriptor` retries interrupted calls;
/// these add the loop over short transfers and turn a vanished peer into a count or `false`.
@usableFromInline package enum DescriptorIO {
  /// Writes every byte; false when the other end is gone.
  @usableFromInline package static func writeAll(_ descriptor: FileDescriptor, _ bytes: [UInt8])
    -> Bool
  {
    unsafe bytes.withUnsafeBytes { unsafe (try? descriptor.writeAll($0)) != nil }
  }

  /// Fills `bytes` from the descriptor; returns how many arrived before end of file or an error
  /// (`bytes.count` when all did). Read in place, each short read into the slice still empty.
  @usableFromInline package static func readExactly(
    _ descriptor: FileDescriptor, into bytes: inout [UInt8]
  ) -> Int {
    var offset = 0
    while offset < bytes.count {
      guard
        let count = unsafe try? bytes[offset...].withUnsafeMutableBytes({
          unsafe try descriptor.read(into: $0)
        }),
        count > 0
      else { return offset }
      offset += count
    }
    return offset
  }

  /// Reads what `descriptor` has now into `bytes` (from its start): the count read, 0 at end of
  /// file. Interrupted reads are retried (swift-system's `FileDescriptor`).
  /// - Throws: `Errno`, such as `EAGAIN` when a non-blocking descriptor has nothing now.
  @usableFromInline package static func readSome(
    _ descriptor: FileDescriptor, into bytes: inout [UInt8]
  ) throws(Errno)
    -> Int
  {
    do {
      return unsafe try bytes.withUnsafeMutableBytes { unsafe try descriptor.read(into: $0) }
    } catch let error as Errno {
      throw error
    } catch {
      throw Errno.ioError
    }
  }
}
