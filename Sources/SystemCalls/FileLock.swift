import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An advisory whole-file lock (`flock`, which swift-system does not wrap): the container's
/// writers' lock and the simulated system's one load per extension. Released by `unlock` or by
/// closing the descriptor.
public enum FileLock {
  /// Takes an exclusive lock on `descriptor`.
  /// - Parameter waiting: wait while another process holds it (retrying an interrupted wait);
  ///   otherwise return false at once.
  /// - Returns: whether the lock is held.
  /// - Throws: `Errno` for any failure but "held elsewhere" when not waiting.
  public static func lockExclusively(_ descriptor: FileDescriptor, waiting: Bool) throws(Errno)
    -> Bool
  {
    let operation = waiting ? LOCK_EX : LOCK_EX | LOCK_NB
    while flock(descriptor.rawValue, operation) != 0 {
      let failure = Errno(rawValue: errno)
      if failure == .interrupted { continue }
      if !waiting && failure == .wouldBlock { return false }
      throw failure
    }
    return true
  }

  /// Releases a lock taken on `descriptor`.
  public static func unlock(_ descriptor: FileDescriptor) {
    _ = flock(descriptor.rawValue, LOCK_UN)
  }
}
