import ByteCoding

// Safe (the `unsafe` uses in this file): the views and buffers made here wrap bytes lent by
// `withUnsafeBytes`, `withUTF8` or `withUnsafeMutableBytes`, and are used only inside the closure
// that lends them.

/// Writes a rule base (``RuleBaseFormat``) atomically: ranges in ascending order, disjoint, each
/// with its label (identification) and the text of the rule it came from.
package final class RuleBaseWriter {
  /// The kind of base being written.
  package let kind: BaseKind
  private let file: AtomicFileWriter
  private var payloadChecksum = StreamChecksum()
  private var rangeCount = 0
  private var entryCount = 0
  private var lowest: Int64 = 0
  private var highest: Int64 = 0
  /// Each dictionary string's index, and the section's bytes and ends.
  private var indices: [String: Int] = [:]
  private var dictionaryBytes: [UInt8] = []
  private var dictionaryEnds: [UInt32] = []

  /// Starts a rule base at `path` (created or replaced when ``finish()`` succeeds).
  /// - Throws: ``BaseFormatError`` when the temporary file cannot be created.
  package init(path: String, kind: BaseKind) throws(BaseFormatError) {
    self.kind = kind
    file = try AtomicFileWriter(path: path)
    try file.write([UInt8](repeating: 0, count: BaseHeader.byteCount))
  }

  /// Appends one range.
  /// - Parameters:
  ///   - range: its first and last number; the first above the previous range's last.
  ///   - label: shown on an incoming call (identification: required; blocking: ignored).
  ///   - rule: the rule's text, for lookups and inspection (may be empty).
  /// - Throws: ``BaseFormatError`` for a range out of order or past 15 digits, an invalid label,
  ///   a dictionary past its bounds, too many ranges, or a write that fails.
  package func append(_ range: ClosedRange<Int64>, label: String, rule: String)
    throws(BaseFormatError)
  {
    func fail(_ problem: BaseFormatError.Problem) -> BaseFormatError {
      BaseFormatError(path: file.path, offset: file.byteCount, problem: problem)
    }
    guard range.lowerBound > highest, range.upperBound <= RuleBaseFormat.highestNumber else {
      throw fail(.numberNotAscending(previous: highest, number: range.lowerBound))
    }
    guard rangeCount < RuleBaseFormat.maximumRangeCount else {
      throw fail(.inconsistentHeader("more than \(RuleBaseFormat.maximumRangeCount) ranges"))
    }
    var labelReference: UInt32 = 0
    if kind == .identification {
      var bytes = label
      if let problem = bytes.withUTF8({ unsafe LabelRule.problem(ByteView($0), checkUTF8: false) })
      {
        throw fail(.invalidLabel("\(problem) for the range from \(range.lowerBound)"))
      }
      labelReference = try reference(label)
    }
    let ruleReference = rule.isEmpty ? 0 : try reference(rule)
    var record: [UInt8] = []
    record.reserveCapacity(RuleBaseFormat.recordByteCount)
    record.appendLittleEndian(range.lowerBound)
    record.appendLittleEndian(range.upperBound)
    record.appendLittleEndian(labelReference)
    record.appendLittleEndian(ruleReference)
    payloadChecksum.update(record)
    try file.write(record)
    if rangeCount == 0 { lowest = range.lowerBound }
    highest = range.upperBound
    rangeCount += 1
    entryCount += Int(range.upperBound - range.lowerBound) + 1
  }

  /// The string's reference (its dictionary index + 1), entering it on first use.
  private func reference(_ text: String) throws(BaseFormatError) -> UInt32 {
    if let index = indices[text] { return UInt32(index + 1) }
    let bytes = Array(text.utf8)
    guard bytes.count <= BaseHeader.maximumLabelByteCount,
      dictionaryEnds.count < BaseHeader.maximumDictionaryEntryCount,
      dictionaryBytes.count + bytes.count <= BaseHeader.maximumDictionaryByteCount
    else {
      throw BaseFormatError(
        path: file.path, offset: file.byteCount,
        problem: .invalidDictionary(
          "more than \(BaseHeader.maximumDictionaryEntryCount) distinct labels and rules, or \(BaseHeader.maximumDictionaryByteCount) bytes of them"
        ))
    }
    let index = dictionaryEnds.count
    indices[text] = index
    dictionaryBytes += bytes
    dictionaryEnds.append(UInt32(dictionaryBytes.count))
    return UInt32(index + 1)
  }

  /// Writes the header and the dictionary, and atomically puts the base in place.
  /// - Returns: the header written.
  /// - Throws: ``BaseFormatError`` when writing, syncing or renaming fails.
  @discardableResult
  package func finish() throws(BaseFormatError) -> BaseHeader {
    var header = BaseHeader(
      kind: kind, entryCount: entryCount, lowestNumber: lowest, highestNumber: highest,
      blockCount: rangeCount, payloadByteCount: rangeCount * RuleBaseFormat.recordByteCount,
      blockChecksumsChecksum: payloadChecksum.value)
    header.version = BaseHeader.rulesVersion
    let headerBytes = header.encoded()
    try file.write(
      LabelDictionary.section(labels: dictionaryBytes, ends: dictionaryEnds, header: headerBytes))
    try file.overwrite(at: 0, with: headerBytes)
    try file.commit()
    return header
  }

  /// Abandons the base; nothing is written at `path`.
  package func discard() { file.discard() }
}
