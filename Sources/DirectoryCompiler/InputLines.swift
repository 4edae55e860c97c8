import CZlib
import Foundation

/// The lines of an input file, read through zlib so gzip files are read directly (plain files
/// pass through unchanged), in 1 MiB chunks: memory does not grow with the file. A UTF-8 byte
/// order mark is skipped; CRLF and LF both end a line.
final class InputLines {
  let path: String
  private let file: gzFile
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false
  /// Set when the file ended in error (a truncated or corrupt gzip stream).
  private(set) var streamError: String?
  /// Lines returned so far (the number of the last one).
  private(set) var lineNumber = 0
  /// Compressed bytes consumed so far, for progress.
  var bytesConsumed: Int { Int(gzoffset(file)) }
  private static let chunkByteCount = 1 << 20

  /// Opens `path`.
  /// - Throws: ``CompileError/unreadable(_:_:)``.
  init(path: String) throws {
    self.path = path
    guard let file = gzopen(path, "rb") else {
      throw CompileError.unreadable(path, String(cString: strerror(errno)))
    }
    self.file = file
    gzbuffer(file, 256 * 1024)
    fill()
    if buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF {
      start = 3
    }
  }

  deinit { gzclose(file) }

  private func fill() {
    guard !atEnd else { return }
    if start > 0 {
      buffer.removeFirst(start)
      start = 0
    }
    let old = buffer.count
    buffer.reserveCapacity(old + Self.chunkByteCount)
    buffer.append(contentsOf: repeatElement(0, count: Self.chunkByteCount))
    let read = buffer.withUnsafeMutableBytes {
      gzread(file, $0.baseAddress! + old, UInt32(Self.chunkByteCount))
    }
    if read < 0 {
      var code: Int32 = 0
      streamError = String(cString: gzerror(file, &code))
      buffer.removeLast(Self.chunkByteCount)
      atEnd = true
      return
    }
    buffer.removeLast(Self.chunkByteCount - Int(read))
    if read == 0 {
      atEnd = true
      // A gzip stream cut short reads as a clean end with gzread; gzerror tells.
      var code: Int32 = 0
      let message = gzerror(file, &code)
      if code != Z_OK && code != Z_STREAM_END, let message {
        streamError = String(cString: message)
      }
    }
  }

  /// Calls `body` with the next line's bytes (without its line end); false at the end.
  func next(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows -> Bool {
    while true {
      let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n"))
      if let newline {
        var end = newline
        if end > start && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        lineNumber += 1
        try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
        start = newline + 1
        return true
      }
      if atEnd {
        guard start < buffer.count else { return false }
        var end = buffer.count
        if buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        lineNumber += 1
        try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
        start = buffer.count
        return true
      }
      fill()
    }
  }
}
