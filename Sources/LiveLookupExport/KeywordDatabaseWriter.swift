import BaseFormat

/// Writes a `KeywordDatabase` (`{ repeated KeywordDatabaseRow rows = 1; }`) row by row: each row
/// is the outer message's field 1, its key, its length and its bytes, so the file is the one
/// serialized message without the message ever being in memory. Keywords must ascend (the
/// export's order), which makes the same input give the same bytes.
final class KeywordDatabaseWriter {
  private let file: AtomicFileWriter
  private var row: [UInt8] = []
  private var previous: Int64 = 0
  /// Rows written.
  private(set) var rowCount = 0

  /// A database written under a temporary name until ``commit()``.
  /// - Throws: `BaseFormat.BaseFormatError` when the file cannot be created.
  init(path: String) throws(BaseFormatError) {
    file = try AtomicFileWriter(path: path)
    row.reserveCapacity(256)
  }

  /// Bytes written so far.
  var byteCount: Int { file.byteCount }

  /// Appends the row of `number` (a CallKit number: E.164's digits) with `value`.
  /// - Throws: `BaseFormat.BaseFormatError` when the file cannot be written.
  func append(number: Int64, value: [UInt8]) throws(BaseFormatError) {
    precondition(number > previous, "rows are written in ascending order")
    previous = number
    var keyword: [UInt8] = []
    E164.appendKeyword(of: number, to: &keyword)
    row.removeAll(keepingCapacity: true)
    ProtobufWire.appendBytesField(1, keyword, to: &row)
    ProtobufWire.appendBytesField(2, value, to: &row)
    var framing: [UInt8] = []
    framing.reserveCapacity(6)
    framing.append(ProtobufWire.key(field: 1, wireType: ProtobufWire.lengthDelimited))
    ProtobufWire.appendVarint(UInt64(row.count), to: &framing)
    try file.write(framing)
    try file.write(row)
    rowCount += 1
  }

  /// Makes the file durable under its name (temporary file, fsync, rename, folder fsync).
  /// - Throws: `BaseFormat.BaseFormatError` when it cannot.
  func commit() throws(BaseFormatError) { try file.commit() }

  /// Removes the temporary file.
  func discard() { file.discard() }
}

/// Numbers as Live Caller ID Lookup's keywords: E.164 with its plus sign, as UTF-8.
public enum E164 {
  /// The most digits an E.164 number has (ITU-T E.164, section 6.1).
  public static let maximumDigits = 15

  /// Whether `number` (a CallKit number) has an E.164 form: 1 to 15 digits.
  public static func hasForm(_ number: Int64) -> Bool {
    number > 0 && number < 1_000_000_000_000_000
  }

  /// Appends `+` and the digits of `number`.
  static func appendKeyword(of number: Int64, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "+"))
    var digits: [UInt8] = []
    var rest = number
    repeat {
      digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
      rest /= 10
    } while rest > 0
    bytes.append(contentsOf: digits.reversed())
  }

  /// `+` and the digits of `number`, as text.
  public static func keyword(of number: Int64) -> String {
    var bytes: [UInt8] = []
    appendKeyword(of: number, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}
