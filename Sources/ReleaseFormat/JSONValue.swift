import ByteCoding

/// A JSON value, and a reader and writer for the release index. Written here because the app's
/// half builds for iOS without Foundation (so no JSONSerialization or Codable's JSON coders), and
/// none of the mirrored packages reads JSON without it. `JSONReader` reads exactly RFC 8259
/// (integers only) with a nesting bound, which is all the index needs.
package indirect enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Int64)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
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
  package subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  /// The text of this value: compact, members in their order.
  package var text: String {
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
  package init(parsing bytes: [UInt8], path: String) throws(ReleaseError) {
    var parser = JSONReader(bytes: bytes, path: path)
    self = try parser.value(depth: 0)
    try parser.end()
  }
}
