import ByteCoding
import Foundation
import SystemCalls
import SystemPackage

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; C hands back no pointer into its own memory, and nothing
// here keeps a pointer past its call.

/// One load at a time per extension, across processes: an exclusive `flock` on a file in the
/// host folder, held for the request. A second request while it is held gets error 7
/// (currentlyLoading), as on iOS.
final class ExtensionLock {
  private let descriptor: Int32

  /// Takes the lock or returns nil when another load holds it.
  /// - Throws: ``HostError/input(_:)`` when the lock file cannot be created.
  init?(hostDirectory: String, bundleID: String) throws {
    let folder = hostDirectory + "/locks"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path =
      folder + "/" + FileSafeName.encode(bundleID, keeping: [UInt8(ascii: ".")]) + ".lock"
    let descriptor: Int32
    do {
      descriptor = unsafe try FileDescriptor.open(
        path, .readWrite, options: [.create, .closeOnExec],
        permissions: [.ownerReadWrite, .groupRead, .otherRead]
      ).rawValue
    } catch {
      throw HostError.input("cannot create \(path): \(error)")
    }
    // Not waiting: a second load at once is error 7, as on iOS.
    guard
      (try? FileLock.lockExclusively(FileDescriptor(rawValue: descriptor), waiting: false)) == true
    else {
      close(descriptor)
      return nil
    }
    self.descriptor = descriptor
  }

  deinit {
    FileLock.unlock(FileDescriptor(rawValue: descriptor))
    close(descriptor)
  }
}
