import Foundation

/// A reader of the two databases for the tests, independent of the writer: the wire format's
/// rules applied to the bytes (`.ci/run` checks the same files with protoc). Memory grows with the
/// file: for tests only.
public enum KeywordDatabaseReader {
  /// One row: its keyword as text and its value's bytes.
  public struct Row: Equatable, Sendable {
    public var keyword: String
    public var value: [UInt8]
  }
  /// Bytes that are not the message.
  public struct Malformed: Error {}

  static func varint(_ bytes: [UInt8], _ index: inout Int) throws -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
      guard shift < 64 else { throw Malformed() }
    }
    throw Malformed()
  }

  /// The (field, bytes) pairs of a message whose fields are all length-delimited or varints.
  static func fields(_ bytes: [UInt8]) throws -> [(UInt64, [UInt8])] {
    var index = 0
    var found: [(UInt64, [UInt8])] = []
    while index < bytes.count {
      let key = try varint(bytes, &index)
      switch key & 7 {
      case 0:
        // A varint field: its bytes as written (``category(in:)`` reads them).
        let start = index
        _ = try varint(bytes, &index)
        found.append((key >> 3, Array(bytes[start..<index])))
      case 2:
        let length = Int(try varint(bytes, &index))
        guard index + length <= bytes.count else { throw Malformed() }
        found.append((key >> 3, Array(bytes[index..<index + length])))
        index += length
      default: throw Malformed()
      }
    }
    return found
  }

  /// Every row of the database file at `path`, in file order.
  public static func rows(of path: String) throws -> [Row] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    return try fields(bytes).map { field, row in
      guard field == 1 else { throw Malformed() }
      let parts = try fields(row)
      guard parts.count == 2, parts[0].0 == 1, parts[1].0 == 2 else { throw Malformed() }
      return Row(keyword: String(decoding: parts[0].1, as: UTF8.self), value: parts[1].1)
    }
  }

  /// A CallIdentity's name (field 1).
  public static func name(in identity: [UInt8]) throws -> String {
    let name = try fields(identity).first { $0.0 == 1 }
    return String(decoding: name?.1 ?? [], as: UTF8.self)
  }

  /// A CallIdentity's category (field 4, a varint: 1 person, 2 business), 0 when absent.
  public static func category(in identity: [UInt8]) throws -> UInt64 {
    guard let field = try fields(identity).first(where: { $0.0 == 4 }) else { return 0 }
    var index = 0
    return try varint(field.1, &index)
  }
}
