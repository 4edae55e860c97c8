import DirectoryContainer
import SystemCalls
import SystemPackage

/// One publisher at a time per release folder: an exclusive `flock` on `RELEASES/.lock`, held
/// from before the index is read until the new index is renamed into place and the files it no
/// longer names are removed. Two publishes that ran at once read the same index, and each
/// removed the files the other had just named: in 3 of 22 trials the final index named patches
/// that were gone, and every client's update failed (issue 65, item 7).
///
/// A static HTTP server serves the folder as it is; the lock file is named by no index, and
/// no client reads it.
final class ReleaseFolderLock {
  /// The lock file's name inside the release folder.
  static let fileName = ".lock"

  private let descriptor: FileDescriptor

  /// Creates `releases` when missing and takes its lock, waiting while another publisher holds
  /// it (the command line says so after a second, naming the holder).
  /// - Throws: ``ReleaseError`` when the folder cannot be made or the lock opened or taken.
  init(releases: String) throws(ReleaseError) {
    do { try ContainerFolder.create(releases) } catch { throw ReleaseError(error.description) }
    do throws(FileLock.Failure) {
      descriptor = try FileLock.openAndLock(releases + "/" + Self.fileName)
    } catch {
      throw ReleaseError(error.description)
    }
  }

  /// Releases the lock (closing the descriptor releases the flock).
  func release() { try? descriptor.close() }
}
