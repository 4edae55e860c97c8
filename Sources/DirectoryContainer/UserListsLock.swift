import SystemCalls
import SystemPackage

/// The lock the user's edits and the app's staging of them take: an exclusive `flock` of
/// `.user-lists.lock` in the container, held for one read-change-write of a few kilobytes. It
/// is not the writers' lock (`ContainerTransaction`), which a compile or an update holds for
/// minutes: an edit never waits for them, and they never read the lists.
public final class UserListsLock {
  /// The lock file's name inside the container.
  public static let fileName = ".user-lists.lock"
  private var descriptor: FileDescriptor?

  /// Takes the lock, waiting for another holder; the container folder is made when missing.
  /// - Throws: `ContainerError` when the folder or the lock file cannot be made or locked.
  public init(container: String) throws(ContainerError) {
    try ContainerFolder.create(container)
    let path = container + "/" + Self.fileName
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(
        FilePath(path), .readWrite, options: [.create, .closeOnExec],
        permissions: [.ownerReadWrite, .groupRead, .otherRead])
    } catch {
      throw ContainerError("cannot open \(path): \(error)")
    }
    do {
      _ = try FileLock.lockExclusively(descriptor, waiting: true)
    } catch {
      try? descriptor.close()
      throw ContainerError("cannot lock \(path): \(error)")
    }
    self.descriptor = descriptor
  }

  /// Releases the lock (closing the file does).
  public func release() {
    try? descriptor?.close()
    descriptor = nil
  }

  deinit { release() }
}
