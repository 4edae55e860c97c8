import ByteCoding

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
  /// Whether records use the compact version (deltas and a label dictionary).
  public let compact: Bool
  /// The labels worth a place in the compact dictionary (the frequent ones), each with its index
  /// in order of first use once used (nil before; written after the blocks). One table, so a
  /// label costs one lookup, not one in the dictionary and one in the candidates.
  private var dictionary: [UTF8Key: Int?]
  private var dictionaryBytes: [UInt8] = []
  private var dictionaryEnds: [UInt32] = []
  private var record: [UInt8] = []

  /// Starts a base at `path` (created or replaced when ``finish()`` succeeds).
  /// - Parameters:
  ///   - compact: write ``BaseHeader/compactVersion`` records.
  ///   - dictionaryCandidates: compact only: labels to put in the base's dictionary on their
  ///     first use (the frequent ones; others are written inline every time), while it has room.
  /// - Throws: ``BaseFormatError`` when the temporary file cannot be created.
  public init(
    path: String, kind: BaseKind, compact: Bool = false, dictionaryCandidates: Set<String> = []
  ) throws(BaseFormatError) {
    self.kind = kind
    self.compact = compact
    self.dictionary = Dictionary(
      dictionaryCandidates.map { (UTF8Key($0), Int?.none) }, uniquingKeysWith: { first, _ in first }
    )
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
    var labelCount = 0
    if kind == .identification {
      labelCount = label.utf8.count
      guard labelCount > 0, labelCount <= BaseHeader.maximumLabelByteCount else {
        throw BaseFormatError(
          path: file.path, offset: offset,
          problem: .invalidLabel(
            labelCount == 0
              ? "empty label for \(number)"
              : "\(labelCount) bytes for \(number), over \(BaseHeader.maximumLabelByteCount)"))
      }
    }
    record.removeAll(keepingCapacity: true)
    if compact {
      // `highest` is the previous number (0 before the first): deltas are at least 1.
      record.appendLEB128(UInt64(number - highest))
      if kind == .identification {
        var index: Int? = nil
        if let slot = dictionary.index(forKey: UTF8Key(label)) {
          index = dictionary.values[slot]
          if index == nil, dictionaryEnds.count < BaseHeader.maximumDictionaryEntryCount,
            dictionaryBytes.count + labelCount <= BaseHeader.maximumDictionaryByteCount
          {
            index = dictionaryEnds.count
            dictionary.values[slot] = dictionaryEnds.count
            appendUTF8(of: label, to: &dictionaryBytes)
            dictionaryEnds.append(UInt32(dictionaryBytes.count))
          }
        }
        if let index {
          record.appendLEB128(UInt64(index + 1))
        } else {
          record.appendLEB128(0)
          record.appendLEB128(UInt64(labelCount))
          appendUTF8(of: label, to: &record)
        }
      }
    } else {
      record.appendLittleEndian(number)
      if kind == .identification {
        record.appendLittleEndian(UInt16(labelCount))
        record.append(contentsOf: label.utf8)
      }
    }
    if block.count + record.count > Self.blockRecordCapacity { try flushBlock() }
    block.append(contentsOf: record)
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
    header.appendLittleEndian(UInt32(block.count))
    header.appendLittleEndian(UInt32(blockEntryCount))
    header.appendLittleEndian(checksum)
    // The header's sum covers the blocks' checksums as stored: their eight bytes.
    header.withUnsafeBytes { blockChecksums.update(UnsafeRawBufferPointer(rebasing: $0[8...])) }
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
    var header = BaseHeader(
      kind: kind, entryCount: entryCount, lowestNumber: lowest, highestNumber: highest,
      blockCount: blockCount, payloadByteCount: file.byteCount - BaseHeader.byteCount,
      blockChecksumsChecksum: blockChecksums.value)
    header.version = compact ? BaseHeader.compactVersion : BaseHeader.currentVersion
    let headerBytes = header.encoded()
    if compact {
      try file.write(
        LabelDictionary.section(labels: dictionaryBytes, ends: dictionaryEnds, header: headerBytes))
    }
    try file.overwrite(at: 0, with: headerBytes)
    try file.commit()
    return header
  }

  /// Abandons the base; nothing is written at `path`.
  public func discard() { file.discard() }
}

/// Appends `text`'s UTF-8 bytes through its contiguous storage (appending a UTF-8 view went
/// byte by byte through the generic path).
func appendUTF8(of text: String, to bytes: inout [UInt8]) {
  var text = text
  text.withUTF8 { bytes.append(contentsOf: $0) }
}
