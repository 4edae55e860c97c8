#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pread(2)` on a raw descriptor into a caller's buffer, for a reader that polls one small
/// file without allocating (`/proc/PID/status` at kilohertz rates).
public enum PositionalRead {
  /// Opens `path` read-only (close-on-exec) for polling: the descriptor, or nil when it cannot
  /// be opened.
  public static func open(_ path: String) -> Int32? {
    let descriptor = systemOpen(path, O_RDONLY | O_CLOEXEC)
    return descriptor >= 0 ? descriptor : nil
  }

  /// Closes a descriptor ``open(_:)`` returned.
  public static func close(_ descriptor: Int32) { _ = systemClose(descriptor) }

  /// Reads up to `byteCount` bytes at `offset` into `buffer`.
  /// - Returns: the bytes read; 0 at the end; -1 on an error (`errno` says which).
  public static func read(
    _ descriptor: Int32, into buffer: UnsafeMutableRawPointer, byteCount: Int, at offset: Int
  ) -> Int {
    pread(descriptor, buffer, byteCount, off_t(offset))
  }
}

/// `open(2)` and `close(2)`, named apart from ``PositionalRead``'s own.
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
