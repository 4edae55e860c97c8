#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pread(2)` on a raw descriptor into a caller's buffer, for a reader that polls one small
/// file without allocating (`/proc/PID/status` at kilohertz rates).
public enum PositionalRead {
  /// Reads up to `byteCount` bytes at `offset` into `buffer`.
  /// - Returns: the bytes read; 0 at the end; -1 on an error (`errno` says which).
  public static func read(
    _ descriptor: Int32, into buffer: UnsafeMutableRawPointer, byteCount: Int, at offset: Int
  ) -> Int {
    pread(descriptor, buffer, byteCount, off_t(offset))
  }
}
