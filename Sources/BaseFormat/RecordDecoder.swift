/// Decodes records and checks each one against the header, for both readers, so that they accept
/// and reject exactly the same files.
///
/// Every record is checked before its entry is handed on: the label length against the maximum and
/// against the bytes left in the payload, the label's UTF-8, the number strictly above the previous
/// one and inside the header's range. The payload checksum can only be compared at the end; a reader
/// that reports a mismatch there makes the whole load fail, which the system treats as "keep
/// nothing from this request".
struct RecordDecoder {
  let header: BaseHeader
  let path: String
  private(set) var decodedCount = 0
  private var previous: Int64

  init(header: BaseHeader, path: String) {
    self.header = header
    self.path = path
    self.previous = header.lowestNumber &- 1
  }

  /// Bytes a record of this base occupies before its label.
  var fixedByteCount: Int { header.kind == .identification ? 10 : 8 }

  var isComplete: Bool { decodedCount == header.entryCount }

  private func fail(_ offset: Int, _ problem: BaseFormatError.Problem) -> BaseFormatError {
    BaseFormatError(path: path, offset: offset, problem: problem)
  }

  /// Decodes the record at `pointer`.
  /// - Parameters:
  ///   - available: bytes readable at `pointer`.
  ///   - reachesPayloadEnd: whether those bytes run to the end of the payload (no more can come).
  ///   - fileOffset: the record's offset in the file, for errors.
  /// - Returns: the entry and the record's size, or nil when more bytes are needed.
  @inline(__always)
  mutating func decode(
    _ pointer: UnsafeRawPointer, available: Int, reachesPayloadEnd: Bool, fileOffset: Int
  ) throws(BaseFormatError) -> (entry: BaseEntry, byteCount: Int)? {
    guard available >= fixedByteCount else {
      if reachesPayloadEnd { throw fail(fileOffset, .recordPastEnd) }
      return nil
    }
    let number = Int64(littleEndian: pointer.loadUnaligned(as: Int64.self))
    guard number > previous else {
      throw fail(fileOffset, .numberNotAscending(previous: previous, number: number))
    }
    guard number <= header.highestNumber else { throw fail(fileOffset, .numberOutOfRange(number)) }
    var label = ""
    var byteCount = 8
    if header.kind == .identification {
      let labelCount = Int(
        UInt16(littleEndian: pointer.loadUnaligned(fromByteOffset: 8, as: UInt16.self)))
      guard labelCount <= BaseHeader.maximumLabelByteCount else {
        throw fail(fileOffset + 8, .labelTooLong(byteCount: labelCount))
      }
      byteCount = 10 + labelCount
      guard available >= byteCount else {
        if reachesPayloadEnd { throw fail(fileOffset, .recordPastEnd) }
        return nil
      }
      let bytes = UnsafeRawBufferPointer(start: pointer + 10, count: labelCount)
      guard let decoded = String(validating: bytes, as: UTF8.self) else {
        throw fail(fileOffset + 10, .invalidUTF8Label)
      }
      label = decoded
    }
    decodedCount += 1
    if decodedCount == header.entryCount, number != header.highestNumber {
      throw fail(fileOffset, .numberOutOfRange(number))
    }
    previous = number
    return (BaseEntry(number: number, label: label), byteCount)
  }
}
