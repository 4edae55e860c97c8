/// Writes a base file atomically: records are streamed to a temporary file, the header is filled
/// in, and the file is synced and renamed into place by ``finish()``.
///
/// Entries must come in strictly ascending order with numbers above 0, as the system requires;
/// labels must be 1 to ``BaseHeader/maximumLabelByteCount`` UTF-8 bytes (identification only).
public final class BaseWriter {
  /// The kind of base being written.
  public let kind: BaseKind
  private let file: AtomicFileWriter
  private var checksum = StreamChecksum()
  private var entryCount = 0
  private var lowest: Int64 = 0
  private var highest: Int64 = 0
  private var record: [UInt8] = []

  /// Starts a base at `path` (created or replaced when ``finish()`` succeeds).
  /// - Throws: ``BaseFormatError`` when the temporary file cannot be created.
  public init(path: String, kind: BaseKind) throws(BaseFormatError) {
    self.kind = kind
    self.file = try AtomicFileWriter(path: path)
    try file.write([UInt8](repeating: 0, count: BaseHeader.byteCount))
    record.reserveCapacity(BaseHeader.maximumRecordByteCount)
  }

  /// Appends one entry.
  /// - Parameters:
  ///   - number: above the previous entry's number (and above 0).
  ///   - label: the label; ignored for blocking bases.
  /// - Throws: ``BaseFormatError`` for a number out of order or an invalid label.
  public func append(_ number: Int64, label: String = "") throws(BaseFormatError) {
    let offset = file.byteCount
    guard number > highest else {
      throw BaseFormatError(
        path: file.path, offset: offset,
        problem: .numberNotAscending(previous: highest, number: number))
    }
    record.removeAll(keepingCapacity: true)
    withUnsafeBytes(of: number.littleEndian) { record.append(contentsOf: $0) }
    if kind == .identification {
      let count = label.utf8.count
      guard count > 0, count <= BaseHeader.maximumLabelByteCount else {
        throw BaseFormatError(
          path: file.path, offset: offset,
          problem: .invalidLabel(
            count == 0
              ? "empty label for \(number)"
              : "\(count) bytes for \(number), over \(BaseHeader.maximumLabelByteCount)"))
      }
      withUnsafeBytes(of: UInt16(count).littleEndian) { record.append(contentsOf: $0) }
      record.append(contentsOf: label.utf8)
    }
    record.withUnsafeBytes { checksum.update($0) }
    try file.write(record)
    if entryCount == 0 { lowest = number }
    highest = number
    entryCount += 1
  }

  /// Writes the header and atomically puts the base in place.
  /// - Returns: the header written.
  /// - Throws: ``BaseFormatError`` when syncing or renaming fails.
  @discardableResult
  public func finish() throws(BaseFormatError) -> BaseHeader {
    let header = BaseHeader(
      kind: kind, entryCount: entryCount, lowestNumber: lowest, highestNumber: highest,
      payloadByteCount: file.byteCount - BaseHeader.byteCount, payloadChecksum: checksum.value)
    try file.overwrite(at: 0, with: header.encoded())
    try file.commit()
    return header
  }

  /// Abandons the base; nothing is written at `path`.
  public func discard() { file.discard() }
}
