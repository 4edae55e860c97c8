/// Writes a base file atomically: records are gathered into blocks of at most
/// ``BaseHeader/maximumBlockByteCount`` bytes, each with its checksum, streamed to a temporary
/// file; ``finish()`` fills in the header and syncs and renames the file into place.
///
/// Entries must come in strictly ascending order with numbers above 0, as the system requires;
/// labels must be 1 to ``BaseHeader/maximumLabelByteCount`` UTF-8 bytes (identification only).
/// Labels are taken from Swift strings, so they are valid UTF-8: readers rely on that once a
/// block's checksum matches.
public final class BaseWriter {
  /// The kind of base being written.
  public let kind: BaseKind
  private let file: AtomicFileWriter
  private var blockChecksums = StreamChecksum()
  private var blockCount = 0
  private var entryCount = 0
  private var lowest: Int64 = 0
  private var highest: Int64 = 0
  private var block: [UInt8] = []
  private var blockEntryCount = 0
  private static let blockRecordCapacity =
    BaseHeader.maximumBlockByteCount - BaseHeader.blockHeaderByteCount

  /// Starts a base at `path` (created or replaced when ``finish()`` succeeds).
  /// - Throws: ``BaseFormatError`` when the temporary file cannot be created.
  public init(path: String, kind: BaseKind) throws(BaseFormatError) {
    self.kind = kind
    self.file = try AtomicFileWriter(path: path)
    try file.write([UInt8](repeating: 0, count: BaseHeader.byteCount))
    block.reserveCapacity(Self.blockRecordCapacity)
  }

  /// Appends one entry.
  /// - Parameters:
  ///   - number: above the previous entry's number (and above 0).
  ///   - label: the label; ignored for blocking bases.
  /// - Throws: ``BaseFormatError`` for a number out of order or an invalid label, or when the
  ///   file cannot be written.
  public func append(_ number: Int64, label: String = "") throws(BaseFormatError) {
    let offset = file.byteCount + BaseHeader.blockHeaderByteCount + block.count
    guard number > highest else {
      throw BaseFormatError(
        path: file.path, offset: offset,
        problem: .numberNotAscending(previous: highest, number: number))
    }
    var recordByteCount = 8
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
      recordByteCount += 2 + count
    }
    if block.count + recordByteCount > Self.blockRecordCapacity { try flushBlock() }
    withUnsafeBytes(of: number.littleEndian) { block.append(contentsOf: $0) }
    if kind == .identification {
      withUnsafeBytes(of: UInt16(recordByteCount - 10).littleEndian) {
        block.append(contentsOf: $0)
      }
      block.append(contentsOf: label.utf8)
    }
    blockEntryCount += 1
    if entryCount == 0 { lowest = number }
    highest = number
    entryCount += 1
  }

  private func flushBlock() throws(BaseFormatError) {
    guard blockEntryCount > 0 else { return }
    let checksum = block.withUnsafeBytes { StreamChecksum.of($0) }
    var header: [UInt8] = []
    header.reserveCapacity(BaseHeader.blockHeaderByteCount)
    withUnsafeBytes(of: UInt32(block.count).littleEndian) { header.append(contentsOf: $0) }
    withUnsafeBytes(of: UInt32(blockEntryCount).littleEndian) { header.append(contentsOf: $0) }
    withUnsafeBytes(of: checksum.littleEndian) {
      header.append(contentsOf: $0)
      blockChecksums.update($0)
    }
    try file.write(header)
    try file.write(block)
    blockCount += 1
    block.removeAll(keepingCapacity: true)
    blockEntryCount = 0
  }

  /// Writes the last block and the header, and atomically puts the base in place.
  /// - Returns: the header written.
  /// - Throws: ``BaseFormatError`` when writing, syncing or renaming fails.
  @discardableResult
  public func finish() throws(BaseFormatError) -> BaseHeader {
    try flushBlock()
    let header = BaseHeader(
      kind: kind, entryCount: entryCount, lowestNumber: lowest, highestNumber: highest,
      blockCount: blockCount, payloadByteCount: file.byteCount - BaseHeader.byteCount,
      blockChecksumsChecksum: blockChecksums.value)
    try file.overwrite(at: 0, with: header.encoded())
    try file.commit()
    return header
  }

  /// Abandons the base; nothing is written at `path`.
  public func discard() { file.discard() }
}
