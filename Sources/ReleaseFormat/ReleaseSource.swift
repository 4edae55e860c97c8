import DirectoryContainer
import SystemCalls
import SystemPackage

/// Where an app fetches a release folder's files from: a web server (the command line's
/// `HTTPReleaseSource`, over URLSession), a folder (`FolderReleaseSource`, in tests and tools),
/// or whatever the app's own networking is.
public protocol ReleaseSource {
  /// Fetches `path` (relative to the release folder) into the local file `destination`, going
  /// on from the bytes already there (a download cut short resumes; an HTTP server is asked for
  /// the rest with `Range`). The caller checks the size and the SHA-256 afterwards.
  /// - Parameters:
  ///   - path: the file's path relative to the release folder (`index.json`, `bases/…`).
  ///   - destination: the local file to fetch into, resumed from its current length.
  ///   - expectedByteCount: the file's size when the index gives it: a source stops there, so a
  ///     server sending more cannot fill the disk.
  ///
  /// `async`, so a network source waits for its server without holding a thread; a source whose
  /// reads do not suspend (a folder) implements it as a plain function.
  /// - Throws: ``ReleaseError`` naming the file when it cannot be fetched
  ///   (``ReleaseError/Kind/download`` when trying again may help).
  func fetch(_ path: String, to destination: String, expectedByteCount: Int?)
    async throws(ReleaseError)

  /// ``fetch(_:to:expectedByteCount:)``, telling `progress` the bytes of the file now in
  /// `destination` (those resumed included) as they arrive, every 256 KiB or so and once at the
  /// end: a 70 MB base moves a progress bar as it comes, not from 0 to 100% at its end. A
  /// source that cannot tell (the default) reports once, when the fetch ends.
  /// - Parameters:
  ///   - path: the file's path relative to the release folder.
  ///   - destination: the local file to fetch into, resumed from its current length.
  ///   - expectedByteCount: the file's size when the index gives it.
  ///   - progress: called from any thread, in order, with a count that only grows within one
  ///     attempt.
  /// - Throws: ``ReleaseError`` as ``fetch(_:to:expectedByteCount:)`` does.
  func fetch(
    _ path: String, to destination: String, expectedByteCount: Int?,
    progress: @escaping @Sendable (Int) -> Void
  ) async throws(ReleaseError)

  /// Fetches `path` (at most `maximumByteCount` bytes) into `destination` unless it is still
  /// the file `validator` names. Implemented for every source below; HTTP asks the server.
  /// - Throws: ``ReleaseError`` as ``fetch(_:to:expectedByteCount:)`` does.
  func fetchIfChanged(
    _ path: String, to destination: String, maximumByteCount: Int, validator: String?
  ) async throws(ReleaseError) -> ConditionalFetch
}

/// A release folder on this machine (a mounted volume, or a folder a test made). Only regular
/// files are read: a FIFO or a device in the folder is refused at once rather than waited on
/// (one named `index.json` blocked `app update` forever), and a copy that goes on longer than
/// `timeout` seconds (a stalled network volume) is stopped.
package struct FolderReleaseSource: ReleaseSource, Sendable {
  /// The release folder.
  package let folder: String
  /// Seconds a whole file's copy may take.
  package let timeout: Double

  /// Seconds a file's copy may take when no timeout is given: 10 minutes.
  package static let defaultTimeout: Double = 600

  package init(folder: String, timeout: Double = defaultTimeout) {
    self.folder = folder
    self.timeout = timeout
  }

  package func fetch(_ path: String, to destination: String, expectedByteCount: Int?)
    throws(ReleaseError)
  {
    try copy(path, to: destination, expectedByteCount: expectedByteCount) { _ in }
  }

  /// Copies `path`, reporting the bytes in `destination` after every 256 KiB buffer. `async`
  /// though it never suspends: called on the type itself, a synchronous one would lose to the
  /// protocol's default, which reports only at the end.
  /// - Throws: ``ReleaseError`` as ``fetch(_:to:expectedByteCount:)`` does.
  package func fetch(
    _ path: String, to destination: String, expectedByteCount: Int?,
    progress: @escaping @Sendable (Int) -> Void
  ) async throws(ReleaseError) {
    try copy(path, to: destination, expectedByteCount: expectedByteCount, progress: progress)
  }

  private func copy(
    _ path: String, to destination: String, expectedByteCount: Int?, progress: (Int) -> Void
  ) throws(ReleaseError) {
    let source = folder + "/" + path
    // An infinite or huge timeout is no limit; one that is not a positive number (NaN would
    // trap the conversion) is the default's.
    let seconds = timeout > 0 ? min(timeout, 1e9) : Self.defaultTimeout
    let deadline = MonotonicTime.nanoseconds() &+ UInt64(seconds * 1e9)
    do {
      // Non-blocking: opening a FIFO for reading would otherwise wait for a writer.
      let input = try FileDescriptor.open(
        FilePath(source), .readOnly, options: [.closeOnExec, .nonBlocking])
      defer { try? input.close() }
      guard try input.stat().type == .regular else {
        throw ReleaseError("\(source) is not a regular file", file: path)
      }
      let output = try FileDescriptor.open(
        FilePath(destination), .writeOnly, options: [.create, .append, .closeOnExec],
        permissions: [.ownerReadWrite, .groupRead, .otherRead])
      defer { try? output.close() }
      var offset = Int64(try output.stat().size)
      let limit = Int64(expectedByteCount ?? Int.max)
      var buffer = [UInt8](repeating: 0, count: 256 * 1024)
      var reported = false
      defer { if !reported { progress(Int(offset)) } }
      while offset < limit {
        guard MonotonicTime.nanoseconds() < deadline else {
          throw ReleaseError(
            "\(source): not copied within \(Int(timeout)) s (kept; the next update resumes)",
            kind: .download, file: path)
        }
        // Safe: the lent buffer lives across the call, which fills at most its count.
        let count = unsafe try buffer.withUnsafeMutableBytes {
          unsafe try input.read(fromAbsoluteOffset: offset, into: $0)
        }
        if count == 0 { break }
        let kept = Int(min(Int64(count), limit - offset))
        _ = try output.writeAll(buffer[..<kept])
        offset += Int64(kept)
        progress(Int(offset))
        reported = true
      }
    } catch let error as ReleaseError {
      throw error
    } catch let error as Errno {
      throw ReleaseError(
        "cannot fetch \(source): \(SystemErrorText.text(error))",
        kind: error == .noSuchFileOrDirectory ? .failed : .download, file: path)
    } catch {
      throw ReleaseError("cannot fetch \(source): \(error)")
    }
  }
}

/// What a conditional fetch of the index found.
public enum ConditionalFetch: Equatable, Sendable {
  /// The file is the one `validator` names: nothing was fetched (HTTP 304).
  case unchanged
  /// The file was fetched; `validator` names it for the next fetch (an HTTP `ETag`, or
  /// `Last-Modified` when there is none), nil when the source gives none.
  case fetched(validator: String?)
}

extension ReleaseSource {
  /// Fetches, then reports the file's size once.
  public func fetch(
    _ path: String, to destination: String, expectedByteCount: Int?,
    progress: @escaping @Sendable (Int) -> Void
  ) async throws(ReleaseError) {
    try await fetch(path, to: destination, expectedByteCount: expectedByteCount)
    if let size = try? FolderCalls.byteCount(of: destination) { progress(size) }
  }

  /// Fetches `path` unless it is still the file `validator` names. A source that cannot tell
  /// (a folder, whose reads cost nothing) fetches it whole; HTTP asks with `If-None-Match` or
  /// `If-Modified-Since`, and a 304 costs a header.
  /// - Throws: ``ReleaseError`` as ``fetch(_:to:expectedByteCount:)`` does.
  public func fetchIfChanged(
    _ path: String, to destination: String, maximumByteCount: Int, validator: String?
  ) async throws(ReleaseError) -> ConditionalFetch {
    try await fetch(path, to: destination, expectedByteCount: maximumByteCount)
    return .fetched(validator: nil)
  }
}
