import Foundation

/// A pull reader of JSON text (RFC 8259) over a file read 1 MiB at a time, for feeds too large
/// to hold whole: a feed of a million entries is about 55 MB of text, and its reader keeps one
/// chunk. Values are read token by token (``readString(maximumByteCount:)``,
/// ``readInteger()``, ``skipValue(depth:)``); every error names the file and the byte.
///
/// Written by hand because the JSON readers at hand (Foundation's `JSONSerialization` and
/// `JSONDecoder`, and calldir's release-index reader) take the whole document in memory, and
/// the first two its whole tree too, where a 1 M-entry feed must be read in 64 MiB.
struct FeedJSONStream {
  let path: String
  private let handle: FileHandle
  private var chunk: [UInt8] = []
  private var index = 0
  /// Bytes of the file before `chunk`.
  private var chunkStart = 0
  /// The most bytes one chunk reads.
  static let chunkByteCount = 1 << 20
  /// The deepest nesting read (an unknown member's value is skipped to this depth).
  static let maximumDepth = 32

  /// Opens a regular file.
  /// - Throws: ``CompileError/unreadable(_:_:)`` for a missing or unreadable file, or one that
  ///   is not a regular file.
  init(path: String) throws(CompileError) {
    self.path = path
    handle = try TextLines.openRegularFile(path)
  }

  /// The byte offset of the next byte.
  var offset: Int { chunkStart + index }

  func fail(_ what: String) -> CompileError {
    .unreadable(path, "not the JSON feed expected at byte \(offset): \(what)")
  }

  /// The next byte without taking it; nil at the end of the file.
  private mutating func peekRaw() throws(CompileError) -> UInt8? {
    if index < chunk.count { return chunk[index] }
    chunkStart += chunk.count
    index = 0
    do {
      chunk = Array(try handle.read(upToCount: Self.chunkByteCount) ?? Data())
    } catch {
      throw .unreadable(path, "read failed at byte \(chunkStart): \(error.localizedDescription)")
    }
    return chunk.first
  }

  private mutating func take() throws(CompileError) -> UInt8 {
    guard let byte = try peekRaw() else { throw fail("the text ends early") }
    index += 1
    return byte
  }

  /// The next byte after white space, not taken; nil at the end.
  mutating func peek() throws(CompileError) -> UInt8? {
    while let byte = try peekRaw() {
      switch byte {
      case 0x20, 0x09, 0x0a, 0x0d: index += 1
      default: return byte
      }
    }
    return nil
  }

  /// Takes `byte` (after white space) or fails naming `what` was expected.
  mutating func expect(_ byte: UInt8, _ what: String) throws(CompileError) {
    guard let next = try peek() else { throw fail("the text ends early (expected \(what))") }
    guard next == byte else { throw fail("expected \(what)") }
    index += 1
  }

  /// Takes `byte` if it is next (after white space).
  mutating func take(ifNext byte: UInt8) throws(CompileError) -> Bool {
    guard try peek() == byte else { return false }
    index += 1
    return true
  }

  /// Whether the end of the file follows, white space aside.
  mutating func atEnd() throws(CompileError) -> Bool { try peek() == nil }

  /// A string value, escapes read (surrogate pairs joined; a lone surrogate, a control
  /// character or invalid UTF-8 fails), at most `maximumByteCount` bytes of UTF-8.
  mutating func readString(maximumByteCount: Int) throws(CompileError) -> String {
    try expect(UInt8(ascii: "\""), "a string")
    // Most strings (a member's name, a phone, a rating: five a feed entry) end in this chunk
    // with no escape: made from the chunk's bytes at once, they cost no buffer of their own.
    // With the ratings found by one lookup, a 1 M-entry feed took 0.68 s of CPU, not 1.05
    // (medians of 11 interleaved runs, the same output).
    var end = index
    while end < chunk.count, end - index <= maximumByteCount {
      let byte = chunk[end]
      if byte == UInt8(ascii: "\"") {
        guard let text = String(validating: chunk[index..<end], as: UTF8.self) else {
          throw fail("a string that is not UTF-8")
        }
        index = end + 1
        return text
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
      end += 1
    }
    var bytes: [UInt8] = []
    while true {
      let byte = try take()
      switch byte {
      case UInt8(ascii: "\""):
        guard let text = String(validating: bytes, as: UTF8.self) else {
          throw fail("a string that is not UTF-8")
        }
        return text
      case UInt8(ascii: "\\"):
        let escape = try take()
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escape)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0c)
        case UInt8(ascii: "n"): bytes.append(0x0a)
        case UInt8(ascii: "r"): bytes.append(0x0d)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"): bytes += try readUnicodeEscape()
        default: throw fail("an unknown escape \\\(Character(Unicode.Scalar(escape)))")
        }
      case 0..<0x20: throw fail("a control character in a string")
      default: bytes.append(byte)
      }
      guard bytes.count <= maximumByteCount else {
        throw fail("a string over \(maximumByteCount) bytes")
      }
    }
  }

  private mutating func hexQuad() throws(CompileError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = try take()
      guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
        throw fail("\\u without four hex digits")
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  private mutating func readUnicodeEscape() throws(CompileError) -> [UInt8] {
    var scalar = try hexQuad()
    if (0xD800..<0xDC00).contains(scalar) {
      guard try take() == UInt8(ascii: "\\"), try take() == UInt8(ascii: "u") else {
        throw fail("a lone surrogate")
      }
      let low = try hexQuad()
      guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate") }
      scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
    } else if (0xDC00..<0xE000).contains(scalar) {
      throw fail("a lone surrogate")
    }
    guard let unicode = Unicode.Scalar(scalar) else { throw fail("an invalid \\u escape") }
    return Array(String(Character(unicode)).utf8)
  }

  /// An integer value (no fraction, no exponent), checked against Int64's range.
  mutating func readInteger() throws(CompileError) -> Int64 {
    _ = try peek()
    let negative = try take(ifNext: UInt8(ascii: "-"))
    var value: Int64 = 0
    var digits = 0
    while let byte = try peekRaw(), (0x30...0x39).contains(byte) {
      let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowB) = times.addingReportingOverflow(Int64(byte - 0x30))
      guard !overflowA, !overflowB else { throw fail("an integer past 64 bits") }
      value = sum
      digits += 1
      index += 1
    }
    guard digits > 0 else { throw fail("expected an integer") }
    if let byte = try peekRaw(),
      [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(byte)
    {
      throw fail("a number that is not a whole number")
    }
    return negative ? -value : value
  }

  /// Reads and drops one value of any kind, nested at most ``maximumDepth`` deep.
  mutating func skipValue(depth: Int = 0) throws(CompileError) {
    guard depth < Self.maximumDepth else { throw fail("nested too deep") }
    guard let next = try peek() else { throw fail("the text ends early") }
    switch next {
    case UInt8(ascii: "\""): _ = try readString(maximumByteCount: 1 << 20)
    case UInt8(ascii: "{"):
      try members(depth: depth) { (stream: inout FeedJSONStream, _: String) throws(CompileError) in
        try stream.skipValue(depth: depth + 1)
      }
    case UInt8(ascii: "["):
      try elements { (stream: inout FeedJSONStream) throws(CompileError) in
        try stream.skipValue(depth: depth + 1)
      }
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      while let byte = try peekRaw(), "+-.eE0123456789".utf8.contains(byte) { index += 1 }
    default: throw fail("expected a value")
    }
  }

  private mutating func literal(_ word: String) throws(CompileError) {
    for expected in word.utf8 {
      guard try take() == expected else { throw fail("expected \(word)") }
    }
  }

  /// An object's members, one at a time: `body` gets each name and must read its value.
  mutating func members(
    depth: Int = 0, _ body: (inout FeedJSONStream, String) throws(CompileError) -> Void
  ) throws(CompileError) {
    try expect(UInt8(ascii: "{"), "an object")
    if try take(ifNext: UInt8(ascii: "}")) { return }
    repeat {
      let name = try readString(maximumByteCount: 256)
      try expect(UInt8(ascii: ":"), "':' after a member's name")
      try body(&self, name)
    } while try take(ifNext: UInt8(ascii: ","))
    try expect(UInt8(ascii: "}"), "',' or '}' in an object")
  }

  /// An array's elements, one at a time: `body` must read each.
  mutating func elements(_ body: (inout FeedJSONStream) throws(CompileError) -> Void)
    throws(CompileError)
  {
    try expect(UInt8(ascii: "["), "an array")
    if try take(ifNext: UInt8(ascii: "]")) { return }
    repeat {
      try body(&self)
    } while try take(ifNext: UInt8(ascii: ","))
    try expect(UInt8(ascii: "]"), "',' or ']' in an array")
  }
}
