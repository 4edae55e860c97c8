import ByteCoding
import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; C hands back no pointer into its own memory (the buffers
// read into are lent by their owners for the read only), and nothing here keeps a pointer past its
// call.

/// `pread(2)` on a raw descriptor into a caller's buffer, for a reader that polls one small
/// file without allocating (`/proc/PID/status` at kilohertz rates). The reads go through
/// swift-system's `read(fromAbsoluteOffset:into:retryOnInterrupt:)`, which retries a read a
/// signal interrupted (EINTR) instead of reporting it as a failure. Failures throw swift-system's
/// `Errno`, as its own calls do.
@usableFromInline package enum PositionalRead {
  /// Opens `path` read-only (close-on-exec) for polling.
  /// - Returns: the descriptor, for ``read(_:into:from:byteCount:at:)`` and ``close(_:)``.
  /// - Throws: `Errno` when the file cannot be opened (`.noSuchFileOrDirectory`, …).
  @usableFromInline package static func open(_ path: String) throws(Errno) -> Int32 {
    let descriptor = systemOpen(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw Errno(rawValue: errno) }
    return descriptor
  }

  /// Closes a descriptor ``open(_:)`` returned.
  @usableFromInline package static func close(_ descriptor: Int32) { _ = systemClose(descriptor) }

  /// Reads up to `byteCount` bytes (all of `buffer` after `start` when nil) at file offset
  /// `offset` into `buffer`, from its index `start` on. The range is checked here, so callers
  /// hand over an array, not an address.
  /// - Precondition: `start...start + byteCount` lies within the array.
  /// - Returns: the bytes read; 0 at the end.
  /// - Throws: `Errno` when the read fails.
  @usableFromInline package static func read(
    _ descriptor: Int32, into buffer: inout [UInt8], from start: Int = 0, byteCount: Int? = nil,
    at offset: Int
  ) throws(Errno) -> Int {
    let count = byteCount ?? buffer.count - start
    precondition(
      start >= 0 && count >= 0 && start <= buffer.count - count, "read outside the buffer")
    guard count > 0 else { return 0 }
    let read = unsafe buffer.withUnsafeMutableBytes { bytes in
      unsafe readRetrying(
        descriptor, into: UnsafeMutableRawBufferPointer(rebasing: bytes[start..<(start + count)]),
        at: offset)
    }
    return try read.get()
  }

  /// Reads up to `byteCount` bytes at file offset `offset` onto the end of `storage`.
  /// - Returns: the bytes read (appended); 0 at the end.
  /// - Throws: `Errno` when the read fails (nothing is appended then).
  @usableFromInline package static func read(
    _ descriptor: Int32, appendingTo storage: ByteStorage, byteCount: Int, at offset: Int
  ) throws(Errno) -> Int {
    guard byteCount > 0 else { return 0 }
    var failure: Errno?
    let read = unsafe storage.append(upTo: byteCount) { bytes in
      switch unsafe readRetrying(descriptor, into: bytes, at: offset) {
      case .success(let count): return count
      case .failure(let error):
        failure = error
        return 0
      }
    }
    if let failure { throw failure }
    return read
  }

  /// One positional read, retried on EINTR: the count, or the failure. A `Result`, not a throw,
  /// because the buffers' closures it runs in do not rethrow.
  private static func readRetrying(
    _ descriptor: Int32, into bytes: UnsafeMutableRawBufferPointer, at offset: Int
  ) -> Result<Int, Errno> {
    do {
      return .success(
        unsafe try FileDescriptor(rawValue: descriptor).read(
          fromAbsoluteOffset: Int64(offset), into: bytes, retryOnInterrupt: true))
    } catch let error as Errno {
      return .failure(error)
    } catch {
      return .failure(.ioError)
    }
  }
}

/// `open(2)` and `close(2)`, named apart from ``PositionalRead``'s own.
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { unsafe open(path, flags) }
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
