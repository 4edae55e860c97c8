import BaseFormat
import ByteCoding
import SystemPackage

/// The size of the one buffer whole-file readers use: large enough that a read is rarely
/// shorter than the kernel's readahead, small enough for the extension's memory limit.
let fileChunkByteCount = 64 * 1024

/// Runs a swift-system call, whose `throws` is untyped but only ever throws `Errno`.
@inline(__always)
func systemCall<T>(_ body: () throws -> T) throws(Errno) -> T {
  do { return try body() } catch { throw Errno(thrownBy: error) }
}

/// Calls `body` with each chunk of a regular file, in order, through one buffer of
/// `chunkByteCount` bytes (``fileChunkByteCount`` unless given). swift-system's `read` retries
/// interrupted calls.
///
/// Container files are regular files: the file is opened without blocking (a FIFO put in a
/// base's place would otherwise block the open until a writer came) and checked through its
/// descriptor, so a FIFO, a device (a link to /dev/zero) or a folder is refused at once, and at
/// most the size it had when opened is read (a file growing under the reader cannot keep it).
/// - Throws: `Errno` when the file cannot be opened or read; `.invalidArgument` when it is not a
///   regular file; `.fileTooLarge` when it grew while it was read, or is larger than
///   `maximumByteCount`.
func forEachChunk(
  ofFile path: String, chunkByteCount: Int = fileChunkByteCount, maximumByteCount: Int = .max,
  shouldStop: () -> Bool = { false }, _ body: (ByteView) -> Void
) throws(Errno) {
  let (descriptor, size) = try openRegularFile(path, maximumByteCount: maximumByteCount)
  defer { try? descriptor.close() }
  var buffer = [UInt8](repeating: 0, count: max(chunkByteCount, 1))
  var total = 0
  while true {
    // Asked between chunks: a cancelled app stops within one chunk's read (issue 56, item 1).
    if shouldStop() { throw Errno.canceled }
    // Safe: `read` fills at most the buffer it is lent, which lives across the call.
    let count = try systemCall {
      try unsafe buffer.withUnsafeMutableBytes { try unsafe descriptor.read(into: $0) }
    }
    if count == 0 { return }
    total += count
    guard total <= size else { throw Errno.fileTooLarge }
    // Safe: the view covers the `count` bytes read, and `body` gets it only inside the closure
    // (a chunk's view is never kept: the next read overwrites the buffer).
    unsafe buffer.withUnsafeBytes { body(unsafe ByteView($0).rebased(0..<count)) }
  }
}

/// Opens `path` for reading without blocking and checks it through the descriptor: a regular
/// file of at most `maximumByteCount` bytes. Returns the descriptor (the caller closes it) and
/// the file's size when opened.
/// - Throws: `Errno` from `open` or `fstat`; `.invalidArgument` when it is not a regular file;
///   `.fileTooLarge` when it is larger than `maximumByteCount`.
private func openRegularFile(_ path: String, maximumByteCount: Int) throws(Errno) -> (
  FileDescriptor, Int
) {
  let descriptor = try systemCall {
    try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec, .nonBlocking])
  }
  do throws(Errno) {
    let status = try descriptor.stat()
    guard status.type == .regular else { throw Errno.invalidArgument }
    guard status.size <= maximumByteCount else { throw Errno.fileTooLarge }
    return (descriptor, Int(status.size))
  } catch {
    try? descriptor.close()
    throw error
  }
}

/// A whole small file's bytes: a regular file of at most `maximumByteCount` bytes, so a
/// manifest replaced by a link to /dev/zero or a huge file cannot take the memory.
/// - Throws: `Errno` when the file cannot be opened or read; `.fileTooLarge` when it is larger;
///   `.invalidArgument` when it is not a regular file.
package func readWholeFile(_ path: String, maximumByteCount: Int) throws(Errno) -> [UInt8] {
  // Opened without blocking and checked through the descriptor: a FIFO in the manifest's place
  // is refused, not waited on.
  let (descriptor, expected) = try openRegularFile(path, maximumByteCount: maximumByteCount)
  defer { try? descriptor.close() }
  // Read straight into an array of the file's size (one byte more shows that it grew), not
  // through a chunk buffer appended to a growing array: the extension reads its manifest and
  // journal this way inside its memory limit, and each extra copy stayed in its footprint.
  var bytes = [UInt8](repeating: 0, count: expected + 1)
  var count = 0
  while count < bytes.count {
    // Each read fills the part of the array still empty, in place.
    // Safe: `read` fills at most the empty part of the array it is lent.
    let read = try systemCall {
      try unsafe bytes[count...].withUnsafeMutableBytes { try unsafe descriptor.read(into: $0) }
    }
    if read == 0 { break }
    count += read
  }
  bytes.removeSubrange(count...)
  guard bytes.count <= expected else {
    // It grew since stat: read it the slow way, still bounded.
    var grown: [UInt8] = []
    try forEachChunk(ofFile: path) { chunk in
      if grown.count <= maximumByteCount { grown.append(contentsOf: chunk) }
    }
    guard grown.count <= maximumByteCount else { throw Errno.fileTooLarge }
    return grown
  }
  return bytes
}

/// Why a small file the tools read whole (a manifest, a profile, a prefix list) was refused.
package struct SmallFileError: Error, CustomStringConvertible {
  /// One line naming the file and the problem.
  package let description: String
}

/// A whole small text file: a regular file (not a device, a FIFO or a link to one) of at most
/// `maximumByteCount` bytes, valid UTF-8, so a file replaced by a link to /dev/zero or a huge
/// file cannot take the memory.
/// - Throws: ``SmallFileError`` naming the file and the problem.
package func readSmallTextFile(_ path: String, maximumByteCount: Int) throws(SmallFileError)
  -> String
{
  let bytes: [UInt8]
  do {
    bytes = try readWholeFile(path, maximumByteCount: maximumByteCount)
  } catch .fileTooLarge {
    throw SmallFileError(description: "\(path) is larger than \(maximumByteCount) bytes")
  } catch .invalidArgument {
    throw SmallFileError(description: "\(path) is not a regular file")
  } catch {
    throw SmallFileError(description: "cannot read \(path): \(error)")
  }
  guard let text = String(validatingUTF8Bytes: bytes) else {
    throw SmallFileError(description: "\(path) is not UTF-8")
  }
  return text
}

/// The size in bytes of the regular file at `path`, or nil when there is none (missing,
/// unreadable, or a FIFO, device or folder in its place). Opened without blocking, as
/// `forEachChunk(ofFile:_:)` does, so a FIFO is refused rather than waited on.
package func regularFileByteCount(_ path: String) -> Int? {
  guard
    let descriptor = try? FileDescriptor.open(
      FilePath(path), .readOnly, options: [.closeOnExec, .nonBlocking])
  else { return nil }
  defer { try? descriptor.close() }
  guard let status = try? descriptor.stat(), status.type == .regular else { return nil }
  return Int(status.size)
}

/// Reads what `descriptor` has next into `buffer` from `offset` to its end, in place; returns
/// the bytes read (0 at the end of the file). For readers that pull records through one buffer.
/// - Throws: `Errno` from `read`.
func readMore(_ descriptor: FileDescriptor, into buffer: inout [UInt8], from offset: Int)
  throws(Errno) -> Int
{
  // Safe: `read` fills at most the part of the array from `offset` that it is lent.
  try systemCall {
    try unsafe buffer[offset...].withUnsafeMutableBytes { try unsafe descriptor.read(into: $0) }
  }
}
