import ByteCoding

/// A reader of JSON text (RFC 8259, integers only, nesting bounded), value by value: a whole
/// ``JSONValue``, or an array's elements and an object's members one at a time, so a large
/// document is read without building its tree.
struct JSONReader {
  let bytes: [UInt8]
  let path: String
  var offset = 0
  /// The deepest nesting read: far above the index's three levels, and low enough that hostile
  /// text cannot exhaust the stack.
  static let maximumDepth = 32

  init(bytes: [UInt8], path: String) {
    self.bytes = bytes
    self.path = path
  }

  func fail(_ what: String) -> ReleaseError {
    ReleaseError("\(path): not the JSON expected at byte \(offset): \(what)")
  }

  mutating func skipSpace() {
    while offset < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[offset]) { offset += 1 }
  }

  /// Whether the next value (after white space) starts with `byte`.
  mutating func next(is byte: UInt8) -> Bool {
    skipSpace()
    return offset < bytes.count && bytes[offset] == byte
  }

  /// Reads an array whose opening bracket is next, handing `body` the reader at each element,
  /// which `body` must read whole. Elements are read one at a time, never held: a 12,000-patch
  /// index is read in the memory of one patch (issue 52, item 11).
  mutating func elements(
    depth: Int, _ body: (inout JSONReader) throws(ReleaseError) -> Void
  ) throws(ReleaseError) {
    guard try open(UInt8(ascii: "["), UInt8(ascii: "]"), depth: depth, "an array") else { return }
    repeat {
      try body(&self)
    } while try !closes(UInt8(ascii: "]"), "the array")
  }

  /// Reads `opening` (after white space) at `depth`; returns false when `closing` follows at
  /// once (an empty array or object, read whole).
  private mutating func open(
    _ opening: UInt8, _ closing: UInt8, depth: Int, _ what: String
  ) throws(ReleaseError) -> Bool {
    guard depth < Self.maximumDepth else { throw fail("nested too deep") }
    guard next(is: opening) else { throw fail("expected \(what)") }
    offset += 1
    guard next(is: closing) else { return true }
    offset += 1
    return false
  }

  /// Reads the comma before the next element or member (false) or `closing` (true).
  private mutating func closes(_ closing: UInt8, _ what: String) throws(ReleaseError) -> Bool {
    skipSpace()
    guard offset < bytes.count else { throw fail("\(what) is not closed") }
    offset += 1
    if bytes[offset - 1] == closing { return true }
    guard bytes[offset - 1] == UInt8(ascii: ",") else {
      throw fail("expected , or \(Character(Unicode.Scalar(closing)))")
    }
    return false
  }

  /// Reads an object whose opening brace is next, handing `body` the reader at each member's
  /// value with the member's name; `body` must read the value whole.
  mutating func members(
    depth: Int, _ body: (inout JSONReader, String) throws(ReleaseError) -> Void
  ) throws(ReleaseError) {
    guard try open(UInt8(ascii: "{"), UInt8(ascii: "}"), depth: depth, "an object") else { return }
    // A name twice is refused at any depth: this reader took the first and Python's json the
    // last, so `{"version":3,"version":9}` was two different releases (issue 65, item 13).
    var names = Set<String>()
    repeat {
      guard next(is: UInt8(ascii: "\"")) else { throw fail("expected a member name") }
      let key = try string()
      guard names.insert(key).inserted else {
        throw fail("two members named \(key) in one object")
      }
      skipSpace()
      try expect(":")
      try body(&self, key)
    } while try !closes(UInt8(ascii: "}"), "the object")
  }

  /// Reads the rest: white space only, or fails.
  mutating func end() throws(ReleaseError) {
    skipSpace()
    guard offset == bytes.count else { throw fail("text after the value") }
  }

  mutating func expect(_ literal: String) throws(ReleaseError) {
    for byte in literal.utf8 {
      guard offset < bytes.count, bytes[offset] == byte else { throw fail("expected \(literal)") }
      offset += 1
    }
  }

  mutating func value(depth: Int) throws(ReleaseError) -> JSONValue {
    guard depth < Self.maximumDepth else { throw fail("nested too deep") }
    skipSpace()
    guard offset < bytes.count else { throw fail("the text ends") }
    switch bytes[offset] {
    case UInt8(ascii: "n"):
      try expect("null")
      return .null
    case UInt8(ascii: "t"):
      try expect("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expect("false")
      return .bool(false)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "["):
      var values: [JSONValue] = []
      try elements(depth: depth) { (reader: inout JSONReader) throws(ReleaseError) in
        values.append(try reader.value(depth: depth + 1))
      }
      return .array(values)
    case UInt8(ascii: "{"):
      var pairs: [(String, JSONValue)] = []
      try members(depth: depth) { (reader: inout JSONReader, key: String) throws(ReleaseError) in
        pairs.append((key, try reader.value(depth: depth + 1)))
      }
      return .object(pairs)
    default: return .number(try integer())
    }
  }

  mutating func integer() throws(ReleaseError) -> Int64 {
    let negative = bytes[offset] == UInt8(ascii: "-")
    if negative { offset += 1 }
    let start = offset
    var value: Int64 = 0
    while offset < bytes.count, (0x30...0x39).contains(bytes[offset]) {
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(Int64(bytes[offset] - 0x30))
      guard !overflow1, !overflow2 else { throw fail("a number past 64 bits") }
      value = sum
      offset += 1
    }
    guard offset > start else { throw fail("expected a value") }
    if offset < bytes.count,
      [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[offset])
    {
      throw fail("a number that is not an integer")
    }
    return negative ? -value : value
  }

  mutating func string() throws(ReleaseError) -> String {
    offset += 1  // the opening quote
    // Most strings (every name, hash and file in an index) have no escape: one allocation, the
    // result's, rather than a scalar at a time.
    var end = offset
    while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
      bytes[end] >= 0x20
    {
      end += 1
    }
    if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
      let text = bytes[offset..<end]
      // Safe: the view of the bytes is read only inside the closure.
      guard unsafe text.withUnsafeBytes({ unsafe UTF8Validation.isValid(ByteView($0)) }) else {
        throw fail("a string that is not UTF-8")
      }
      offset = end + 1
      return String(decoding: text, as: UTF8.self)
    }
    var scalars = String.UnicodeScalarView()
    var run: [UInt8] = []
    func flush() throws(ReleaseError) {
      // Safe: the view of the bytes is read only inside the closure.
      guard unsafe run.withUnsafeBytes({ unsafe UTF8Validation.isValid(ByteView($0)) }) else {
        throw fail("a string that is not UTF-8")
      }
      scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
      run.removeAll()
    }
    while true {
      guard offset < bytes.count else { throw fail("the string is not closed") }
      let byte = bytes[offset]
      offset += 1
      if byte == UInt8(ascii: "\"") { break }
      guard byte >= 0x20 else { throw fail("a control character in a string") }
      guard byte == UInt8(ascii: "\\") else {
        run.append(byte)
        continue
      }
      try flush()
      guard offset < bytes.count else { throw fail("the string is not closed") }
      let escape = bytes[offset]
      offset += 1
      switch escape {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{8}")
      case UInt8(ascii: "f"): scalars.append("\u{c}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        scalars.append(try escapedScalar())
      default: throw fail("an unknown escape")
      }
    }
    try flush()
    return String(scalars)
  }

  /// Four hex digits after `\\u`, exactly (`UInt32(_:radix:)` took `\\u+041`).
  private mutating func hexCodeUnit() throws(ReleaseError) -> UInt32 {
    guard offset + 4 <= bytes.count else { throw fail("a \\u escape that is not a character") }
    var code: UInt32 = 0
    for byte in bytes[offset..<offset + 4] {
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x41...0x46: digit = byte - 0x41 + 10
      case 0x61...0x66: digit = byte - 0x61 + 10
      default: throw fail("a \\u escape that is not four hex digits")
      }
      code = code << 4 | UInt32(digit)
    }
    offset += 4
    return code
  }

  /// The character a `\\u` escape names, its `u` read: one code unit, or a surrogate pair
  /// written as two escapes (RFC 8259, section 7), which this reader refused.
  private mutating func escapedScalar() throws(ReleaseError) -> Unicode.Scalar {
    let first = try hexCodeUnit()
    if (0xD800...0xDBFF).contains(first) {
      guard offset + 2 <= bytes.count, bytes[offset] == UInt8(ascii: "\\"),
        bytes[offset + 1] == UInt8(ascii: "u")
      else { throw fail("a lone surrogate in a \\u escape") }
      offset += 2
      let second = try hexCodeUnit()
      guard (0xDC00...0xDFFF).contains(second),
        let scalar = Unicode.Scalar(0x10000 + (first - 0xD800) << 10 + (second - 0xDC00))
      else { throw fail("a lone surrogate in a \\u escape") }
      return scalar
    }
    guard let scalar = Unicode.Scalar(first) else {
      throw fail("a lone surrogate in a \\u escape")
    }
    return scalar
  }
}
