import ByteCoding

// Safe (the `unsafe` uses in this file): the `@exclusivity(unchecked)` fields are touched only by
// their object's own methods, on the one thread that owns the object, so no two accesses overlap
// (a writer is one thread's); the views and buffers made here wrap bytes lent by
// `withUnsafeBytes`, `withUTF8` or `withUnsafeMutableBytes`, and are used only inside the closure
// that lends them.

/// Writes a base file atomically: records are gathered into blocks of at most
/// ``BaseHeader/maximumBlockByteCount`` bytes, each with its checksum, streamed to a temporary
/// file; ``finish()`` fills in the header and syncs and renames the file into place.
///
/// Entries must come in strictly ascending order with numbers above 0, as the system requires;
/// labels must be 1 to ``BaseHeader/maximumLabelByteCount`` UTF-8 bytes (identification only).
/// Labels are valid UTF-8 (strings, or bytes checked on the way in): readers rely on that once a
/// block's checksum matches.
package final class BaseWriter {
  /// The kind of base being written.
  package let kind: BaseKind
  private let file: AtomicFileWriter
  // Safe: touched only by this class's own methods, which never overlap (no callbacks into it while
  // it works): the dynamic exclusivity checks on each access were a tenth of a compile.
  @exclusivity(unchecked) private var blockChecksums = StreamChecksum()
  @exclusivity(unchecked) private var blockCount = 0
  @exclusivity(unchecked) private var entryCount = 0
  @exclusivity(unchecked) private var lowest: Int64 = 0
  @exclusivity(unchecked) private var highest: Int64 = 0
  @exclusivity(unchecked) private var block: [UInt8] = []
  @exclusivity(unchecked) private var blockEntryCount = 0
  private static let blockRecordCapacity =
    BaseHeader.maximumBlockByteCount - BaseHeader.blockHeaderByteCount
  /// Whether records use the compact version (deltas and a label dictionary).
  package let compact: Bool
  /// The labels worth a place in the compact dictionary (the frequent ones), each with its index
  /// in order of first use once used (``unusedCandidate`` before; written after the blocks). One
  /// table, so a label costs one lookup, not one in the dictionary and one in the candidates.
  private let dictionary: ByteStringTable
  private static let unusedCandidate = -1
  private let choice: DictionaryChoice
  @exclusivity(unchecked) private var dictionaryBytes: [UInt8] = []
  @exclusivity(unchecked) private var dictionaryEnds: [UInt32] = []

  /// How a compact base chooses the labels its dictionary holds.
  package enum DictionaryChoice: Sendable {
    /// The labels given, on their first use (the frequent ones of a whole dump; others are
    /// written inline every time), while the dictionary has room.
    case candidates
    /// Every label on its first use, while the dictionary has room: the base's bytes then
    /// depend on its own entries alone, so a change to one region's entries leaves every other
    /// region's base byte-identical (what releases and patches need). Frequent labels come
    /// early in a base sorted by number, so they are caught; on directory-4m the bases are 2.1%
    /// larger than with the dump's global frequent labels (7.68 against 7.52 bytes per entry),
    /// and 2.1% smaller than admitting a label on its second use (7.84: its first use is then
    /// written inline as well).
    case firstLabels
  }

  /// Starts a base at `path` (created or replaced when ``finish()`` succeeds).
  /// - Parameters:
  ///   - path: the base's file; written under a temporary name beside it until ``finish()``.
  ///   - kind: identification (labels) or blocking (numbers only).
  ///   - compact: write ``BaseHeader/compactVersion`` records.
  ///   - dictionaryCandidates: compact only, with ``DictionaryChoice/candidates``: labels to put
  ///     in the base's dictionary on their first use, while it has room.
  ///   - dictionaryChoice: how the dictionary's labels are chosen (compact only).
  /// - Throws: ``BaseFormatError`` when the temporary file cannot be created.
  package init(
    path: String, kind: BaseKind, compact: Bool = false, dictionaryCandidates: Set<String> = [],
    dictionaryChoice: DictionaryChoice = .candidates
  ) throws(BaseFormatError) {
    self.kind = kind
    self.compact = compact
    self.choice = dictionaryChoice
    let dictionary = ByteStringTable(capacity: dictionaryCandidates.count)
    for label in dictionaryCandidates {
      dictionary.insert(utf8: label, value: Self.unusedCandidate)
    }
    self.dictionary = dictionary
    self.file = try AtomicFileWriter(path: path)
    try file.write([UInt8](repeating: 0, count: BaseHeader.byteCount))
    unsafe block.reserveCapacity(Self.blockRecordCapacity)
  }

  /// Appends one entry.
  /// - Parameters:
  ///   - number: above the previous entry's number (and above 0).
  ///   - label: the label; ignored for blocking bases.
  /// - Throws: ``BaseFormatError`` for a number out of order or an invalid label, or when the
  ///   file cannot be written.
  package func append(_ number: Int64, label: String = "") throws(BaseFormatError) {
    var label = label
    // A string is UTF-8 already: no second check.
    try label.withUTF8 { bytes in
      Result { () throws(BaseFormatError) in
        unsafe try append(number, labelBytes: ByteView(bytes), knownUTF8: true, checked: false)
      }
    }.get()
  }

  /// Appends one entry whose label is given as bytes (the compiler's rows stay bytes from the
  /// input to the base).
  /// - Parameters:
  ///   - number: above the previous entry's number (and above 0).
  ///   - labelBytes: the label's UTF-8 bytes, checked; ignored for blocking bases.
  /// - Throws: ``BaseFormatError`` for a number out of order or a label ``LabelRule`` refuses
  ///   (empty, too long, not UTF-8, a control character), or when the file cannot be written.
  package func append(_ number: Int64, labelBytes: ByteView) throws(BaseFormatError) {
    try append(number, labelBytes: labelBytes, knownUTF8: false, checked: false)
  }

  /// Appends a label the compiler has checked already with ``LabelRule`` (its rows are checked
  /// as they are read, then stay bytes): no second check per entry.
  package func append(_ number: Int64, checkedLabelBytes label: ByteView) throws(BaseFormatError) {
    try append(number, labelBytes: label, knownUTF8: true, checked: true)
  }

  private func append(
    _ number: Int64, labelBytes label: ByteView, knownUTF8: Bool, checked: Bool
  ) throws(BaseFormatError) {
    let previous = unsafe highest
    guard number > previous else {
      throw failure(.numberNotAscending(previous: previous, number: number))
    }
    let labelCount = kind == .identification ? label.count : 0
    // Readers rely on labels being UTF-8 once a block's checksum matches; the compiler checks
    // its rows with the same rule and hands them over checked.
    if kind == .identification, !checked,
      let problem = LabelRule.problem(label, checkUTF8: !knownUTF8)
    {
      throw failure(.invalidLabel("\(problem) for \(number)"))
    }
    let index = compact && labelCount > 0 ? dictionaryIndex(of: label) : nil
    // Encoded straight into the block (one access to it, no record buffer); a record that does
    // not fit is moved to the next block.
    let start = unsafe block.count
    unsafe Self.encode(
      number: number, after: previous, label: kind == .identification ? label : nil,
      dictionaryIndex: index, compact: compact, into: &block)
    if unsafe block.count > Self.blockRecordCapacity {
      let record = unsafe Array(block[start...])
      unsafe block.removeSubrange(start...)
      try flushBlock()
      unsafe block.append(contentsOf: record)
    }
    unsafe blockEntryCount += 1
    if unsafe entryCount == 0 { unsafe lowest = number }
    unsafe highest = number
    unsafe entryCount += 1
  }

  /// The label's index in the base's dictionary, when it is a candidate (entered on first use
  /// while the dictionary has room); nil to write it inline.
  private func dictionaryIndex(of label: ByteView) -> Int? {
    let hasRoom =
      unsafe dictionaryEnds.count < BaseHeader.maximumDictionaryEntryCount
      && dictionaryBytes.count + label.count <= BaseHeader.maximumDictionaryByteCount
    guard let slot = dictionary.find(label) else {
      guard case .firstLabels = choice, hasRoom else { return nil }
      let index = unsafe dictionaryEnds.count
      _ = dictionary.insert(label, value: index)
      unsafe dictionaryBytes.append(contentsOf: label)
      unsafe dictionaryEnds.append(UInt32(dictionaryBytes.count))
      return index
    }
    let value = dictionary[slot]
    if value >= 0 { return value }
    guard hasRoom else { return nil }
    let index = unsafe dictionaryEnds.count
    dictionary[slot] = index
    unsafe dictionaryBytes.append(contentsOf: label)
    unsafe dictionaryEnds.append(UInt32(dictionaryBytes.count))
    return index
  }

  /// One record: compact (the delta from `previous`, then the label's dictionary index + 1, or
  /// 0, its length and its bytes) or plain (the number, then the label's length and bytes).
  @inline(__always)
  private static func encode(
    number: Int64, after previous: Int64, label: ByteView?, dictionaryIndex: Int?,
    compact: Bool, into bytes: inout [UInt8]
  ) {
    if compact {
      // `previous` is 0 before the first number: deltas are at least 1.
      bytes.appendLEB128(UInt64(number - previous))
      guard let label else { return }
      if let dictionaryIndex {
        bytes.appendLEB128(UInt64(dictionaryIndex + 1))
      } else {
        bytes.appendLEB128(0)
        bytes.appendLEB128(UInt64(label.count))
        bytes.append(contentsOf: label)
      }
    } else {
      bytes.appendLittleEndian(number)
      guard let label else { return }
      bytes.appendLittleEndian(UInt16(label.count))
      bytes.append(contentsOf: label)
    }
  }

  /// An error at the offset the next record would have.
  private func failure(_ problem: BaseFormatError.Problem) -> BaseFormatError {
    unsafe BaseFormatError(
      path: file.path, offset: file.byteCount + BaseHeader.blockHeaderByteCount + block.count,
      problem: problem)
  }

  private func flushBlock() throws(BaseFormatError) {
    guard unsafe blockEntryCount > 0 else { return }
    let checksum = unsafe StreamChecksum.of(block)
    var header: [UInt8] = []
    header.reserveCapacity(BaseHeader.blockHeaderByteCount)
    unsafe header.appendLittleEndian(UInt32(block.count))
    unsafe header.appendLittleEndian(UInt32(blockEntryCount))
    header.appendLittleEndian(checksum)
    // The header's sum covers the blocks' checksums as stored: their eight bytes.
    unsafe blockChecksums.update(header[8...])
    try file.write(header)
    unsafe try file.write(block)
    unsafe blockCount += 1
    unsafe block.removeAll(keepingCapacity: true)
    unsafe blockEntryCount = 0
  }

  /// Writes the last block and the header, and atomically puts the base in place.
  /// - Returns: the header written.
  /// - Throws: ``BaseFormatError`` when writing, syncing or renaming fails.
  @discardableResult
  package func finish() throws(BaseFormatError) -> BaseHeader {
    try flushBlock()
    var header = unsafe BaseHeader(
      kind: kind, entryCount: entryCount, lowestNumber: lowest, highestNumber: highest,
      blockCount: blockCount, payloadByteCount: file.byteCount - BaseHeader.byteCount,
      blockChecksumsChecksum: blockChecksums.value)
    header.version = compact ? BaseHeader.compactVersion : BaseHeader.currentVersion
    let headerBytes = header.encoded()
    if compact {
      unsafe try file.write(
        LabelDictionary.section(labels: dictionaryBytes, ends: dictionaryEnds, header: headerBytes))
    }
    try file.overwrite(at: 0, with: headerBytes)
    try file.commit()
    return header
  }

  /// Abandons the base; nothing is written at `path`.
  package func discard() { file.discard() }
}
