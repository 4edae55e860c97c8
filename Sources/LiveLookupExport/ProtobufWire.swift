/// The protobuf wire encoding of the three messages Live Caller ID Lookup's tools take
/// (`KeywordDatabase`, `KeywordDatabaseRow`, `CallIdentity`), written by hand.
///
/// Why not swift-protobuf: a `KeywordDatabase` is one message with a repeated field, and
/// swift-protobuf serializes a message it holds whole, so 40 M rows would be built in memory
/// first; the export instead writes each row's tag, length and bytes as it goes, which is the
/// encoding of the same message. What is left to encode is two varint kinds and one
/// length-delimited kind, a few dozen lines, against a dependency whose code generator takes
/// minutes to build. `.ci/run` decodes the outputs with `protoc --decode` against the `.proto`
/// files in `Protos/`, so the bytes are checked against the schema, not against this code.
enum ProtobufWire {
  /// Wire type 0: a varint.
  static let varint: UInt8 = 0
  /// Wire type 2: a length, then that many bytes.
  static let lengthDelimited: UInt8 = 2

  /// The key of field `number` with `wireType` (fields 1–15 take one byte).
  static func key(field number: UInt8, wireType: UInt8) -> UInt8 {
    number << 3 | wireType
  }

  /// Appends `value` as a base-128 varint, least significant group first.
  static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  /// How many bytes `value` takes as a varint.
  static func varintByteCount(_ value: UInt64) -> Int {
    var count = 1
    var rest = value >> 7
    while rest != 0 {
      count += 1
      rest >>= 7
    }
    return count
  }

  /// Appends field `number` as bytes: its key, the length, the bytes.
  static func appendBytesField(
    _ number: UInt8, _ payload: some Collection<UInt8>, to bytes: inout [UInt8]
  ) {
    bytes.append(key(field: number, wireType: lengthDelimited))
    appendVarint(UInt64(payload.count), to: &bytes)
    bytes.append(contentsOf: payload)
  }

  /// Appends field `number` as a varint (proto3 leaves a zero out: it is the default).
  static func appendVarintField(_ number: UInt8, _ value: UInt64, to bytes: inout [UInt8]) {
    guard value != 0 else { return }
    bytes.append(key(field: number, wireType: varint))
    appendVarint(value, to: &bytes)
  }
}
