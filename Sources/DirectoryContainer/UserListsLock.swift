import SystemCalls
import SystemPackage

/// The lock the user's edits and the app's staging of them take: an exclusive `flock` of
/// `.user-lists.lock` in the container, held for one read-change-write of a few kilobytes. It
/// is not the writers' lock (`ContainerTransaction`), which a compile or an update holds for
/// minutes: an edit never waits for them, and they never read the lists.
package final class UserListsLock {
  /// The lock file's name inside the container.
  package static let fileName = ".user-lists.lock"
  private var descriptor: FileDescriptor?

  /// Takes the lock, waiting for another holder; the container folder is made when missing.
  /// - Throws: `ContainerError` when the folder or the lock file cannot be made or locked.
  package init(container: String) throws(ContainerError) {
    try ContainerFolder.create(container)
    do throws(FileLock.Failure) {
      descriptor = try FileLock.openAndLock(container + "/" + Self.fileName)
    } catch {
      throw ContainerError(error.description)
    }
  }

  /// Releases the lock (closing the file does).
  package func release() {
    try? descriptor?.close()
    descriptor = nil
  }

  deinit { release() }
}
