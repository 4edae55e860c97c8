import BaseFormat
import ByteCoding

/// Writes a `KeywordDatabase` (`{ repeated KeywordDatabaseRow rows = 1; }`) row by row: each row
/// is the outer message's field 1, its key, its length and its bytes, so the file is the one
/// serialized message without the message ever being in memory. Keywords must ascend (the
/// export's order), which makes the same input give the same bytes.
final class KeywordDatabaseWriter {
  private let file: AtomicFileWriter
  /// One row's bytes, framing included, reused row after row: no allocation per row (the
  /// export writes tens of millions).
  private var record: [UInt8] = []
  private var previous: Int64 = 0
  /// Rows written.
  private(set) var rowCount = 0
  /// The largest value written, bytes: what sizes the processor's cuckoo buckets.
  private(set) var largestValueByteCount = 0
  /// The values' bytes in all (no keyword: a cuckoo bucket holds a hash in its place).
  private(set) var valueByteCount = 0

  /// A database written under a temporary name until ``commit()``.
  /// - Throws: `BaseFormat.BaseFormatError` when the file cannot be created.
  init(path: String) throws(BaseFormatError) {
    file = try AtomicFileWriter(path: path)
    record.reserveCapacity(1_024)
  }

  /// Bytes written so far.
  var byteCount: Int { file.byteCount }

  /// Appends the row of `number` (a CallKit number: E.164's digits) with `value`.
  /// - Throws: `BaseFormat.BaseFormatError` when the file cannot be written.
  func append(number: Int64, value: [UInt8]) throws(BaseFormatError) {
    precondition(number > previous, "rows are written in ascending order")
    previous = number
    let keywordCount = 1 + decimalDigitCount(number)
    // KeywordDatabaseRow { bytes keyword = 1; bytes value = 2; }: both lengths are known, so
    // the outer field's length is written first and the row after it, in one buffer.
    let rowCount =
      1 + ProtobufWire.varintByteCount(UInt64(keywordCount)) + keywordCount + 1
      + ProtobufWire.varintByteCount(UInt64(value.count)) + value.count
    record.removeAll(keepingCapacity: true)
    record.append(ProtobufWire.key(field: 1, wireType: ProtobufWire.lengthDelimited))
    ProtobufWire.appendVarint(UInt64(rowCount), to: &record)
    record.append(ProtobufWire.key(field: 1, wireType: ProtobufWire.lengthDelimited))
    ProtobufWire.appendVarint(UInt64(keywordCount), to: &record)
    E164.appendKeyword(of: number, to: &record)
    record.append(ProtobufWire.key(field: 2, wireType: ProtobufWire.lengthDelimited))
    ProtobufWire.appendVarint(UInt64(value.count), to: &record)
    record.append(contentsOf: value)
    try file.write(record)
    self.rowCount += 1
    largestValueByteCount = max(largestValueByteCount, value.count)
    valueByteCount += value.count
  }

  /// The file while it is written: complete after ``writeOut()``, renamed at ``commit()``.
  var temporaryPath: String { file.temporaryPath }

  /// Writes the buffered rows out, so that the temporary file holds every row appended.
  /// - Throws: `BaseFormat.BaseFormatError` when it cannot.
  func writeOut() throws(BaseFormatError) { try file.writeOut() }

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

  /// Appends `+` and the digits of `number`, written in place from the last digit back.
  static func appendKeyword(of number: Int64, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "+"))
    let start = bytes.count
    let count = decimalDigitCount(number)
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
    var rest = number
    var index = start + count - 1
    while rest > 0 {
      bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
      index -= 1
    }
  }

  /// `+` and the digits of `number`, as text.
  public static func keyword(of number: Int64) -> String {
    var bytes: [UInt8] = []
    appendKeyword(of: number, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}
