import DirectoryContainer
import SystemCalls
import SystemPackage

/// Where an app fetches a release folder's files from: a web server (the command line's
/// `HTTPReleaseSource`, over URLSession), a folder (``FolderReleaseSource``), or whatever the
/// app's own networking is.
public protocol ReleaseSource {
  /// Fetches `path` (relative to the release folder) into the local file `destination`, going
  /// on from the bytes already there (a download cut short resumes; an HTTP server is asked for
  /// the rest with `Range`). The caller checks the size and the SHA-256 afterwards.
  /// - Parameter expectedByteCount: the file's size when the index gives it: a source stops
  ///   there, so a server sending more cannot fill the disk.
  /// - Throws: ``ReleaseError`` naming the file when it cannot be fetched.
  func fetch(_ path: String, to destination: String, expectedByteCount: Int?) throws(ReleaseError)
}

/// A release folder on this machine (a mounted volume, or a folder a test made).
public struct FolderReleaseSource: ReleaseSource {
  /// The release folder.
  public let folder: String

  public init(folder: String) { self.folder = folder }

  public func fetch(_ path: String, to destination: String, expectedByteCount: Int?)
    throws(ReleaseError)
  {
    let source = folder + "/" + path
    do {
      let input = try FileDescriptor.open(FilePath(source), .readOnly, options: [.closeOnExec])
      defer { try? input.close() }
      guard try input.stat().type == .regular else { throw ReleaseError("\(source) is not a file") }
      let output = try FileDescriptor.open(
        FilePath(destination), .writeOnly, options: [.create, .append, .closeOnExec],
        permissions: [.ownerReadWrite, .groupRead, .otherRead])
      defer { try? output.close() }
      var offset = Int64(try output.stat().size)
      let limit = Int64(expectedByteCount ?? Int.max)
      var buffer = [UInt8](repeating: 0, count: 256 * 1024)
      while offset < limit {
        let count = try buffer.withUnsafeMutableBytes {
          try input.read(fromAbsoluteOffset: offset, into: $0)
        }
        if count == 0 { break }
        let kept = Int(min(Int64(count), limit - offset))
        _ = try output.writeAll(buffer[..<kept])
        offset += Int64(kept)
      }
    } catch let error as ReleaseError {
      throw error
    } catch let error as Errno {
      throw ReleaseError("cannot fetch \(source): \(SystemErrorText.text(error))")
    } catch {
      throw ReleaseError("cannot fetch \(source): \(error)")
    }
  }
}
