import ByteCoding
import SystemPackage

/// The buffer a container's text file streams through, 8 KiB: some thirty manifest lines. The
/// extension reads its manifest and journal this way, inside its memory limit; reading each
/// whole, and then a `String` of it, held two copies of an 85 KB manifest at 300 regions.
let textChunkByteCount = 8 * 1024

/// Splits bytes that arrive in chunks into lines: on "\n", a trailing "\r" dropped (a CRLF file
/// reads as its LF twin, and a field never runs into the next line), each line checked as
/// UTF-8 and numbered from 1. Only a line that spans two chunks is copied.
struct LineSplitter {
  /// The start of a line the last chunk ended inside.
  private var partial: [UInt8] = []
  /// The number of the next line.
  private var number = 1

  /// Hands `body` every line `chunk` completes.
  /// - Throws: ``ManifestError`` when a line is not UTF-8, or what `body` throws.
  mutating func take<Chunk: BidirectionalCollection<UInt8>>(
    _ chunk: Chunk, _ body: (Substring, Int) throws(ManifestError) -> Void
  ) throws(ManifestError) {
    var start = chunk.startIndex
    while let end = chunk[start...].firstIndex(of: 0x0A) {
      if partial.isEmpty {
        try emit(chunk[start..<end], body)
      } else {
        partial.append(contentsOf: chunk[start..<end])
        try emit(partial[...], body)
        partial.removeAll(keepingCapacity: true)
      }
      start = chunk.index(after: end)
    }
    partial.append(contentsOf: chunk[start...])
  }

  /// Hands `body` the last line when the text does not end with "\n".
  /// - Throws: ``ManifestError`` when it is not UTF-8, or what `body` throws.
  mutating func finish(_ body: (Substring, Int) throws(ManifestError) -> Void)
    throws(ManifestError)
  {
    guard !partial.isEmpty else { return }
    try emit(partial[...], body)
    partial = []
  }

  private mutating func emit<Line: BidirectionalCollection<UInt8>>(
    _ line: Line, _ body: (Substring, Int) throws(ManifestError) -> Void
  ) throws(ManifestError) {
    // ByteCoding's check: `String(validating:as:)` is iOS 18.
    let text =
      line.last == 0x0D
      ? String(validatingUTF8Bytes: line.dropLast()) : String(validatingUTF8Bytes: line)
    guard let text else { throw ManifestError(line: number, problem: "not UTF-8") }
    try body(Substring(text), number)
    number += 1
  }
}

/// Calls `body` with each line of `text` and its number, as ``forEachLine(ofFile:maximumByteCount:_:)``
/// does for a file.
/// - Throws: what `body` throws.
func forEachLine(of text: String, _ body: (Substring, Int) throws(ManifestError) -> Void)
  throws(ManifestError)
{
  var splitter = LineSplitter()
  try splitter.take(text.utf8, body)
  try splitter.finish(body)
}

/// Calls `body` with each line of a container's small text file (the manifest, the journal) and
/// its number, streamed through one buffer of ``textChunkByteCount`` bytes, so what stays in
/// memory is what `body` keeps. The file must be a regular file of at most `maximumByteCount`
/// bytes (a link to /dev/zero, or a huge file, cannot take the memory).
/// - Throws: ``ManifestError``: line 0 when the file cannot be read, is not a regular file or is
///   too large; a line's number when that line is not UTF-8; or what `body` throws. Every
///   message starts with the path.
func forEachLine(
  ofFile path: String, maximumByteCount: Int, _ body: (Substring, Int) throws(ManifestError) -> Void
) throws(ManifestError) {
  var splitter = LineSplitter()
  var failure: ManifestError?
  do throws(Errno) {
    try forEachChunk(
      ofFile: path, chunkByteCount: textChunkByteCount, maximumByteCount: maximumByteCount
    ) { chunk in
      guard failure == nil else { return }
      do throws(ManifestError) { try splitter.take(chunk, body) } catch { failure = error }
    }
  } catch .fileTooLarge {
    throw ManifestError(line: 0, problem: "\(path) is larger than \(maximumByteCount) bytes")
  } catch .invalidArgument {
    throw ManifestError(line: 0, problem: "\(path) is not a regular file")
  } catch {
    throw ManifestError(line: 0, problem: "cannot read \(path): \(error)")
  }
  do throws(ManifestError) {
    if let failure { throw failure }
    try splitter.finish(body)
  } catch {
    throw ManifestError(line: error.line, problem: "\(path): \(error.problem)")
  }
}

/// Something built from a text file's lines, one at a time (a manifest, a journal).
protocol LineParser {
  associatedtype Parsed
  /// Takes one line (without its "\n") and its number.
  /// - Throws: ``ManifestError`` naming the line.
  mutating func take(_ line: Substring, number: Int) throws(ManifestError)
  /// What the lines made.
  /// - Throws: ``ManifestError`` when a line that must be there was not.
  func finished() throws(ManifestError) -> Parsed
}

extension LineParser {
  /// Feeds `text`'s lines to the parser and returns what they made.
  /// - Throws: ``ManifestError`` naming the line.
  consuming func parse(_ text: String) throws(ManifestError) -> Parsed {
    try forEachLine(of: text) { line, number throws(ManifestError) in
      try take(line, number: number)
    }
    return try finished()
  }

  /// Feeds the file's lines to the parser, streamed as ``forEachLine(ofFile:maximumByteCount:_:)``
  /// does, and returns what they made.
  /// - Throws: ``ManifestError``; every message starts with the path.
  consuming func parse(file path: String, maximumByteCount: Int) throws(ManifestError) -> Parsed {
    try forEachLine(ofFile: path, maximumByteCount: maximumByteCount) {
      line, number throws(ManifestError) in try take(line, number: number)
    }
    do {
      return try finished()
    } catch {
      throw ManifestError(line: error.line, problem: "\(path): \(error.problem)")
    }
  }
}
