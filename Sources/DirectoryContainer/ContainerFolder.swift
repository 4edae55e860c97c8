import BaseFormat
import ByteCoding
import SystemCalls
import SystemPackage

/// Listing, making and removing files and folders of a container, without Foundation (the
/// container module and the app's half build for iOS).
package enum ContainerFolder {
  /// An entry of a folder.
  typealias Entry = FolderCalls.Entry

  /// The entries of `folder` except `.` and `..`; empty when it cannot be read.
  static func entries(of folder: String) -> [Entry] { FolderCalls.entries(of: folder) }

  /// Whether anything (a file, a folder, a link, even a dangling one) is at `path`.
  package static func exists(_ path: String) -> Bool { FolderCalls.exists(path) }

  /// Hard-links `source` at `target`.
  /// - Throws: ``ContainerError`` naming both paths and the system's reason.
  package static func link(_ source: String, at target: String) throws(ContainerError) {
    do throws(Errno) {
      try FolderCalls.hardLink(source, at: target)
    } catch {
      throw ContainerError("cannot link \(source) at \(target): \(SystemErrorText.text(error))")
    }
  }

  /// The bytes a copy writes between two write-outs to the disk: 8 MiB, tens of milliseconds
  /// of a phone's flash.
  static let writeOutByteCount = 8 << 20

  /// Copies the regular file `source` to `destination` atomically (temporary file, fsync,
  /// rename, folder fsync), reading at most the size it had when opened, and hashes the bytes as
  /// they are written (so staging reads a base once, not once more to hash it). `shouldStop` is
  /// asked between chunks: true ends the copy, leaving nothing at `destination`.
  /// - Returns: the SHA-256 of the bytes written, in hex.
  /// - Throws: ``ContainerError`` naming the file that could not be read or written, or saying
  ///   the copy was stopped.
  @discardableResult
  package static func copyFile(
    from source: String, to destination: String, shouldStop: () -> Bool = { false }
  ) throws(ContainerError) -> String {
    let writer: AtomicFileWriter
    do {
      writer = try AtomicFileWriter(path: destination)
    } catch {
      throw ContainerError(error.description)
    }
    var failure: BaseFormatError?
    var digest = SHA256()
    var sinceWriteOut = 0
    do throws(Errno) {
      try forEachChunk(ofFile: source, shouldStop: shouldStop) { chunk in
        guard failure == nil else { return }
        digest.update(chunk)
        sinceWriteOut += chunk.count
        do throws(BaseFormatError) {
          try writer.write(chunk)
          // Written out a slice at a time: the commit's fsync is then short, and a stop asked
          // for while it runs waits for one slice at most.
          if sinceWriteOut >= Self.writeOutByteCount {
            sinceWriteOut = 0
            try writer.writeOut()
          }
        } catch { failure = error }
      }
    } catch .canceled {
      writer.discard()
      throw ContainerError("the copy of \(source) was stopped")
    } catch .invalidArgument {
      throw ContainerError("\(source) is not a regular file")
    } catch {
      throw ContainerError("cannot read \(source): \(error)")
    }
    do throws(BaseFormatError) {
      if let failure { throw failure }
      try writer.commit()
    } catch {
      throw ContainerError(error.description)
    }
    return digest.hexDigest()
  }

  /// Creates `folder` and the folders above it that are missing (`mkdir -p`).
  /// - Throws: ``ContainerError`` naming the folder that could not be made.
  package static func create(_ folder: String) throws(ContainerError) {
    var path = folder.hasPrefix("/") ? "" : "."
    for component in folder.split(separator: "/") {
      path += "/" + component
      do throws(Errno) {
        try FolderCalls.makeFolder(path)
      } catch {
        throw ContainerError("cannot create \(path): \(SystemErrorText.text(error))")
      }
    }
  }

  /// Removes the folder `path` and everything in it (best effort).
  package static func removeTree(_ path: String) {
    remove(path, Entry(name: "", isFolder: true))
  }

  /// Removes a file, or a folder and what it holds (one level of files below, as scratch
  /// folders have; deeper folders are removed recursively). Best effort.
  static func remove(_ path: String, _ entry: Entry) {
    guard entry.isFolder else {
      FolderCalls.removeFile(path)
      return
    }
    for child in entries(of: path) { remove(path + "/" + child.name, child) }
    FolderCalls.removeFolder(path)
  }
}
