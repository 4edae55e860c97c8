import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An advisory whole-file lock (`flock`, which swift-system does not wrap): the container's
/// writers' lock and the simulated system's one load per extension. Released by `unlock` or by
/// closing the descriptor.
@usableFromInline package enum FileLock {
  /// Takes an exclusive lock on `descriptor`.
  /// - Parameter waiting: wait while another process holds it (retrying an interrupted wait);
  ///   otherwise return false at once.
  /// - Returns: whether the lock is held.
  /// - Throws: `Errno` for any failure but "held elsewhere" when not waiting.
  @usableFromInline package static func lockExclusively(_ descriptor: FileDescriptor, waiting: Bool)
    throws(Errno)
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
  @usableFromInline package static func unlock(_ descriptor: FileDescriptor) {
    _ = flock(descriptor.rawValue, LOCK_UN)
  }

  /// Why ``openAndLock(_:)`` failed: the step, and the system's error.
  @usableFromInline package enum Failure: Error, CustomStringConvertible {
    case open(path: String, Errno)
    case lock(path: String, Errno)

    @usableFromInline package var description: String {
      switch self {
      case .open(let path, let error): "cannot open \(path): \(SystemErrorText.text(error))"
      case .lock(let path, let error): "cannot lock \(path): \(SystemErrorText.text(error))"
      }
    }
  }

  /// Opens the lock file at `path` (made when missing, mode 644, closed on exec) and takes its
  /// exclusive lock, waiting while another process holds it: every lock file calldir keeps
  /// (the container's writers', the user's lists', a release folder's) is taken so.
  /// - Returns: the descriptor; closing it releases the lock.
  /// - Throws: ``Failure`` naming the step and the path.
  @usableFromInline package static func openAndLock(_ path: String) throws(Failure)
    -> FileDescriptor
  {
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(
        FilePath(path), .readWrite, options: [.create, .closeOnExec],
        permissions: [.ownerReadWrite, .groupRead, .otherRead])
    } catch {
      throw .open(path: path, error as? Errno ?? .ioError)
    }
    do {
      _ = try lockExclusively(descriptor, waiting: true)
    } catch {
      try? descriptor.close()
      throw .lock(path: path, error)
    }
    return descriptor
  }
}
