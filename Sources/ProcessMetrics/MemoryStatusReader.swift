#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads `/proc/PID/status` repeatedly through one open descriptor and one fixed buffer, so a
/// sampler can poll another process at kilohertz rates without allocating.
public final class MemoryStatusReader {
  /// `/proc/PID/status` is about 1.5 KiB; 4 KiB holds it with room to spare.
  private static let bufferByteCount = 4096
  private let descriptor: Int32
  private let buffer: UnsafeMutableRawPointer

  /// Opens the status file of `processID`, or of this process when nil.
  /// Returns nil when the file cannot be opened (no such process, or not Linux).
  public init?(processID: Int32? = nil) {
    let path = processID.map { "/proc/\($0)/status" } ?? "/proc/self/status"
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    self.descriptor = descriptor
    buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.bufferByteCount, alignment: 8)
  }

  deinit {
    close(descriptor)
    buffer.deallocate()
  }

  /// A fresh reading, or nil when the process is gone.
  public func read() -> MemoryStatus? {
    // /proc regenerates the file's text on every read from offset 0.
    let count = pread(descriptor, buffer, Self.bufferByteCount, 0)
    guard count > 0 else { return nil }
    return MemoryStatus(parsing: UnsafeRawBufferPointer(start: buffer, count: count))
  }

  /// This process's status right now, or nil where `/proc` is unavailable.
  public static func current() -> MemoryStatus? {
    MemoryStatusReader()?.read()
  }
}
