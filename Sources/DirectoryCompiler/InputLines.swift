import ByteCoding
import CZlib
import Foundation
import SystemCalls

// Safe (the `unsafe` uses in this file): `file` is gzopen's handle, closed once (close or deinit)
// and set to nil then; the `@exclusivity(unchecked)` fields are touched only by their object's own
// methods, on the one thread that owns the object, so no two accesses overlap (a reader of lines
// is one thread's); the views and buffers made here wrap bytes lent by `withUnsafeBytes`,
// `withUTF8` or `withUnsafeMutableBytes`, and are used only inside the closure that lends them.

/// The lines of an input file, read through zlib so gzip files are read directly (plain files
/// pass through unchanged), in 1 MiB chunks: memory does not grow with the file. A UTF-8 byte
/// order mark is skipped; CRLF and LF both end a line, and CR alone does in a file whose first
/// chunk has CRs and no LF (classic Mac OS exports, some spreadsheets' "CSV (Macintosh)").
@safe public final class InputLines {
  let path: String
  /// The zlib stream the lines are read through, or nil for a byte range of a plain file
  /// (``init(path:byteRange:maximumLineByteCount:)``), read with `pread`.
  private let file: gzFile?
  /// A byte range's descriptor, next offset and end.
  private var plain: (descriptor: Int32, offset: Int, end: Int)?
  // Touched only by this class's own methods, which never overlap (no callbacks into it while
  // it works): the dynamic exclusivity checks on each access were a tenth of a compile.
  /// The bytes read and not yet handed out (a ``ByteStorage``: an array here was retained and
  /// released around each line's borrow, with the row's other reference counts a quarter of
  /// the reading phase's instructions).
  private let buffer = ByteStorage(capacity: 1 << 16)
  // Safe: a line source is read by one thread, and its methods never re-enter it.
  @exclusivity(unchecked) private var start = 0
  @exclusivity(unchecked) private var atEnd = false
  /// LF, or CR for a file whose lines end in CR alone.
  @exclusivity(unchecked) private var lineEnd = UInt8(ascii: "\n")
  /// Set when the file ended in error (a truncated or corrupt gzip stream).
  public private(set) var streamError: String?
  /// Lines returned so far (the number of the last one).
  @exclusivity(unchecked) private(set) var lineNumber = 0
  /// Bytes read out of the file so far (decompressed when it is gzip).
  @exclusivity(unchecked) private var decompressedByteCount = 0
  /// A gzip stream may expand at most this much: dumps compress 5 to 10 times; zlib's ceiling is
  /// about 1,000, which only a bomb reaches.
  static let maximumExpansion = 200
  /// Decompressed bytes allowed beyond ``maximumExpansion`` times the compressed bytes read: the
  /// first buffers of a stream expand before much of it is read.
  static let expansionAllowance = 16 << 20
  /// The most a gzip stream read from a pipe may give (zlib cannot count a pipe's compressed
  /// bytes): 4 GiB, past any directory dump (directory-4m is 224 MB of text); a bomb costs a few
  /// seconds of inflation at most.
  static let unseekableGzipBound = 4 << 30
  /// Whether the line just returned was over ``maximumLineByteCount`` and skipped.
  @exclusivity(unchecked) public private(set) var lastLineWasTooLong = false
  /// The longest line read; longer ones are skipped and reported (``lastLineWasTooLong``).
  let maximumLineByteCount: Int
  /// Compressed bytes consumed so far, for progress.
  var bytesConsumed: Int { unsafe (file.map { unsafe Int(gzoffset($0)) } ?? decompressedByteCount) }
  /// Bytes read at a time: 1 MiB, or less for a small file (each read reserves its room, which
  /// would dominate reading a file of a few lines).
  private let chunkByteCount: Int

  /// Opens `path`.
  /// - Throws: ``CompileError/unreadable(_:_:)``.
  public init(path: String, maximumLineByteCount: Int = 64 * 1024) throws {
    self.path = path
    self.maximumLineByteCount = maximumLineByteCount
    var status = stat()
    // A pipe has no size: read it a megabyte at a time.
    let fileByteCount = unsafe stat(path, &status) == 0 ? Int(status.st_size) : 0
    let isRegular = status.st_mode & S_IFMT == S_IFREG
    chunkByteCount = isRegular ? min(1 << 20, max(16 << 10, fileByteCount)) : 1 << 20
    plain = nil
    guard let file = unsafe gzopen(path, "rb") else {
      throw CompileError.unreadable(path, SystemErrorText.last)
    }
    unsafe self.file = unsafe file
    unsafe gzbuffer(file, 256 * 1024)
    fill()
    let (byteOrderMark, onlyCarriageReturns) = buffer.withView { read in
      let skipped = read.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
      return (
        skipped,
        read.firstIndex(of: UInt8(ascii: "\n"), from: skipped) == nil
          && read.firstIndex(of: UInt8(ascii: "\r"), from: skipped) != nil
      )
    }
    unsafe start = byteOrderMark
    if onlyCarriageReturns { unsafe lineEnd = UInt8(ascii: "\r") }
  }

  /// Opens the lines of `byteRange` of the plain (not gzip) regular file at `path`: one part of
  /// a file read by several threads. The range starts at a line's start and ends after a line
  /// feed (or at the file's end); lines are numbered from 1 within it and end in LF (or CRLF);
  /// a byte order mark is skipped at the file's start only.
  /// - Throws: ``CompileError/unreadable(_:_:)``.
  init(path: String, byteRange: Range<Int>, maximumLineByteCount: Int) throws {
    self.path = path
    self.maximumLineByteCount = maximumLineByteCount
    chunkByteCount = min(1 << 20, max(16 << 10, byteRange.count))
    let descriptor: Int32
    do {
      descriptor = try PositionalRead.open(path)
    } catch {
      throw CompileError.unreadable(path, SystemErrorText.describe(error.rawValue))
    }
    unsafe file = nil
    plain = (descriptor, byteRange.lowerBound, byteRange.upperBound)
    fill()
    if byteRange.lowerBound == 0, buffer.withView({ $0.starts(with: [0xEF, 0xBB, 0xBF]) }) {
      unsafe start = 3
    }
  }

  deinit {
    if let file = unsafe file { unsafe gzclose(file) }
    if let plain { PositionalRead.close(plain.descriptor) }
  }

  /// Drops the rest of an overlong line, reading on until its line end, a chunk at a time.
  private func skipRestOfLine() {
    while true {
      buffer.removeAll()
      unsafe start = 0
      fill()
      if let newline = buffer.withView({ unsafe $0.firstIndex(of: lineEnd, from: 0) }) {
        unsafe start = newline + 1
        return
      }
      if unsafe atEnd {
        unsafe start = buffer.count
        return
      }
    }
  }

  private func fill() {
    guard unsafe !atEnd else { return }
    if unsafe start > 0 {
      unsafe buffer.removeFirst(start)
      unsafe start = 0
    }
    if let range = plain {
      let wanted = max(0, min(chunkByteCount, range.end - range.offset))
      // A failed read ends the stream as its end does, with the reason kept.
      let read: Int
      do {
        read = try PositionalRead.read(
          range.descriptor, appendingTo: buffer, byteCount: wanted, at: range.offset)
      } catch {
        streamError = "read failed (\(SystemErrorText.describe(error.rawValue)))"
        read = 0
      }
      if read == 0 {
        unsafe atEnd = true
        return
      }
      plain!.offset += read
      unsafe decompressedByteCount += read
      return
    }
    guard let file = unsafe file else { return }
    let read = unsafe buffer.append(upTo: chunkByteCount) {
      unsafe Int(gzread(file, $0.baseAddress!, UInt32($0.count)))
    }
    if read < 0 {
      var code: Int32 = 0
      streamError = unsafe "truncated or corrupt gzip (\(String(cString: gzerror(file, &code))))"
      unsafe atEnd = true
      return
    }
    unsafe decompressedByteCount += read
    // The bound follows the compressed bytes read so far, not the file's size (a pipe has
    // none): a bomb stops after about 16 MiB of work, and plain text (gzdirect) has no
    // expansion to bound.
    if unsafe gzdirect(file) == 0 {
      let offset = unsafe Int(gzoffset(file))
      if offset < 0 {
        // A pipe: zlib cannot tell how many compressed bytes it read, so a fixed bound.
        if unsafe decompressedByteCount > Self.unseekableGzipBound {
          streamError =
            "gzip from a pipe expands past \(Self.unseekableGzipBound) bytes, the most read without seeing its compressed size: give the file itself, or zcat it into the pipe"
          unsafe atEnd = true
          return
        }
      } else {
        let compressed = max(1, offset)
        let (bound, overflow) = compressed.multipliedReportingOverflow(by: Self.maximumExpansion)
        if !overflow, unsafe decompressedByteCount > bound + Self.expansionAllowance {
          streamError =
            unsafe "gzip expands more than \(Self.maximumExpansion) times (\(decompressedByteCount) bytes from \(compressed)): not a directory dump; stopped there"
          unsafe atEnd = true
          return
        }
      }
    }
    if read == 0 {
      unsafe atEnd = true
      // A gzip stream cut short reads as a clean end with gzread; gzerror tells.
      var code: Int32 = 0
      let message = unsafe gzerror(file, &code)
      if code != Z_OK && code != Z_STREAM_END, let message = unsafe message {
        streamError = unsafe "truncated or corrupt gzip (\(String(cString: message)))"
      }
    }
  }

  /// Calls `body` with the next line's bytes (without its line end); false at the end. A line
  /// longer than ``maximumLineByteCount`` is skipped in constant memory: `body` gets no bytes and
  /// ``lastLineWasTooLong`` is set.
  package func next(_ body: (ByteView) throws -> Void) rethrows -> Bool {
    unsafe lastLineWasTooLong = false
    while true {
      // The line found where it lies in the buffer, then handed on, no copy and no borrow (nil:
      // read on). The closure reads copies of the fields, never `self`: touching the class's
      // fields from inside it cost dynamic exclusivity checks per line (cachegrind).
      let (start, lineEnd, atEnd, maximum) = unsafe (
        self.start, self.lineEnd, self.atEnd, maximumLineByteCount
      )
      let found: (line: Range<Int>, next: Int, tooLong: Bool)? = buffer.withView { bytes in
        if let newline = bytes.firstIndex(of: lineEnd, from: start) {
          // A CR before an LF belongs to the line end.
          var end = newline
          if lineEnd == UInt8(ascii: "\n"), newline > start,
            bytes[newline - 1] == UInt8(ascii: "\r")
          {
            end -= 1
          }
          return end - start > maximum
            ? (start..<start, newline + 1, true) : (start..<end, newline + 1, false)
        }
        guard atEnd, bytes.count - start <= maximum, start < bytes.count else { return nil }
        var end = bytes.count
        if lineEnd == UInt8(ascii: "\n") && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return (start..<end, bytes.count, false)
      }
      if let found {
        unsafe lineNumber += 1
        unsafe lastLineWasTooLong = found.tooLong
        try buffer.withView { try body($0.rebased(found.line)) }
        unsafe self.start = found.next
        return true
      }
      if buffer.count - start > maximumLineByteCount {
        skipRestOfLine()
        unsafe lineNumber += 1
        unsafe lastLineWasTooLong = true
        try body(.empty)
        return true
      }
      if atEnd { return false }
      fill()
    }
  }
}
