import Foundation

/// A text file's lines, read 1 MiB at a time, for files too large to hold whole (a feed's
/// snapshot of a million numbers is 30 MB).
enum TextLines {
  /// Opens a regular file for reading.
  /// - Throws: ``CompileError/unreadable(_:_:)`` for a missing file, a folder, a device, a
  ///   FIFO or a socket, or one that cannot be opened.
  static func openRegularFile(_ path: String) throws(CompileError) -> FileHandle {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
      throw .unreadable(path, "no such file")
    }
    let type = attributes[.type] as? FileAttributeType
    if type == .typeDirectory { throw .unreadable(path, "a folder, not a file") }
    guard type == .typeRegular else {
      throw .unreadable(path, "not a regular file (a device, a FIFO or a socket)")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw .unreadable(path, "cannot be opened for reading")
    }
    return handle
  }

  /// Hands `body` each line's bytes (numbered from 1, without its LF or CRLF; a last line
  /// without an end included), without making a String of it.
  /// - Throws: ``CompileError/unreadable(_:_:)`` for a line over `maximumLineByteCount` bytes, a
  ///   read that fails, or what `body` throws.
  static func forEachBytes(
    in path: String, maximumLineByteCount: Int,
    _ body: (Int, ArraySlice<UInt8>) throws(CompileError) -> Void
  ) throws(CompileError) {
    let handle = try openRegularFile(path)
    defer { try? handle.close() }
    var pending: [UInt8] = []
    var number = 0
    func emit(_ bytes: ArraySlice<UInt8>) throws(CompileError) {
      number += 1
      var line = bytes
      if line.last == 0x0d { line = line.dropLast() }
      try body(number, line)
    }
    while true {
      let data: Data
      do {
        data = try handle.read(upToCount: FeedJSONStream.chunkByteCount) ?? Data()
      } catch {
        throw .unreadable(path, "read failed: \(error.localizedDescription)")
      }
      if data.isEmpty { break }
      pending += data
      var start = pending.startIndex
      while let end = pending[start...].firstIndex(of: 0x0a) {
        try emit(pending[start..<end])
        start = end + 1
      }
      pending.removeSubrange(..<start)
      guard pending.count <= maximumLineByteCount else {
        throw .unreadable(path, "line \(number + 1) is over \(maximumLineByteCount) bytes")
      }
    }
    if !pending.isEmpty { try emit(pending[...]) }
  }
}
