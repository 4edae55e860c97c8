import ByteCoding

/// A JSON value, and a reader and writer for the release index. Written here because the app's
/// half builds for iOS without Foundation (so no JSONSerialization or Codable's JSON coders), and
/// none of the mirrored packages reads JSON without it; the index is small (kilobytes) and this
/// reads exactly RFC 8259 with a nesting bound, which is all it needs.
public indirect enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Int64)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: return false
    }
  }

  /// The member `key` of an object, or nil.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  /// The text of this value: compact, members in their order.
  public var text: String {
    switch self {
    case .null: return "null"
    case .bool(let value): return value ? "true" : "false"
    case .number(let value): return String(value)
    case .string(let value): return Self.quoted(value)
    case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
    case .object(let members):
      return "{" + members.map { Self.quoted($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
    }
  }

  private static func quoted(_ text: String) -> String {
    "\"" + JSONStringEscaping.escaped(text) + "\""
  }

  /// Parses `bytes` (UTF-8 JSON text). Numbers must be integers that fit 64 bits.
  /// - Throws: ``ReleaseError`` naming `path` and the byte where the text stops being JSON.
  public init(parsing bytes: [UInt8], path: String) throws(ReleaseError) {
    var parser = JSONParser(bytes: bytes, path: path)
    self = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.offset == bytes.count else { throw parser.fail("text after the value") }
  }
}

private struct JSONParser {
  let bytes: [UInt8]
  let path: String
  var offset = 0
  static let maximumDepth = 32

  func fail(_ what: String) -> ReleaseError {
    ReleaseError("\(path): not the JSON expected at byte \(offset): \(what)")
  }

  mutating func skipSpace() {
    while offset < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[offset]) { offset += 1 }
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
      offset += 1
      var values: [JSONValue] = []
      skipSpace()
      if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
        offset += 1
        return .array(values)
      }
      while true {
        values.append(try value(depth: depth + 1))
        skipSpace()
        guard offset < bytes.count else { throw fail("the array is not closed") }
        offset += 1
        if bytes[offset - 1] == UInt8(ascii: "]") { return .array(values) }
        guard bytes[offset - 1] == UInt8(ascii: ",") else { throw fail("expected , or ]") }
      }
    case UInt8(ascii: "{"):
      offset += 1
      var members: [(String, JSONValue)] = []
      skipSpace()
      if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
        offset += 1
        return .object(members)
      }
      while true {
        skipSpace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
          throw fail("expected a member name")
        }
        let key = try string()
        skipSpace()
        try expect(":")
        members.append((key, try value(depth: depth + 1)))
        skipSpace()
        guard offset < bytes.count else { throw fail("the object is not closed") }
        offset += 1
        if bytes[offset - 1] == UInt8(ascii: "}") { return .object(members) }
        guard bytes[offset - 1] == UInt8(ascii: ",") else { throw fail("expected , or }") }
      }
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
    var scalars = String.UnicodeScalarView()
    var run: [UInt8] = []
    func flush() throws(ReleaseError) {
      guard run.withUnsafeBytes({ UTF8Validation.isValid(ByteView($0)) }) else {
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
        guard offset + 4 <= bytes.count,
          let code = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16),
          let scalar = Unicode.Scalar(code)
        else { throw fail("a \\u escape that is not a character") }
        offset += 4
        scalars.append(scalar)
      default: throw fail("an unknown escape")
      }
    }
    try flush()
    return String(scalars)
  }
}
