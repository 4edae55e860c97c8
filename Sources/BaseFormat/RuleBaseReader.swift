import ByteCoding
import SystemPackage

// Safe (the `unsafe` uses in this file): the views and buffers made here wrap bytes lent by
// `withUnsafeBytes`, `withUTF8` or `withUnsafeMutableBytes`, and are used only inside the closure
// that lends them.

/// Reads a rule base (``RuleBaseFormat``) and expands its ranges one number at a time, as a list
/// base's reader hands on entries: a merge takes it as one more sorted source.
///
/// Memory is one buffer of records and one range, whatever the ranges hold: 120 M numbers cost
/// what twelve do. No allocation per number: a range's label is made into a string once, when
/// the range is reached. Every record is checked as it is read (ascending, disjoint, within the
/// header's bounds, references inside the dictionary, the count never past the header's), and
/// after the last one the payload's checksum and the header's count: a hostile rule base ends in
/// a ``BaseFormatError``, never in a trap or a loop of 10^18 numbers the header did not promise.
@usableFromInline package final class RuleBaseReader: BaseReader {
  /// Records read per `pread` (4 KiB of them).
  static let recordsPerRead = 4096 / RuleBaseFormat.recordByteCount

  @usableFromInline package let header: BaseHeader
  /// Whether entries come back without labels (a numbers-only pass).
  package var skipsLabels = false
  private let path: String
  private let descriptor: FileDescriptor
  private let dictionary: LabelDictionary?
  private var buffer: [UInt8] = []
  private var bufferPosition = 0
  private var rangesRead = 0
  private var numbersSeen: UInt64 = 0
  private var previousLast: Int64 = 0
  private var checksum = StreamChecksum()
  /// The range being expanded: the next number to hand on, its last, and its label.
  private var nextNumber: Int64 = 1
  private var currentLast: Int64 = 0
  private var currentLabel = ""
  private var finished = false

  /// Opens a rule base and validates its header, size and dictionary.
  /// - Parameters:
  ///   - path: the rule base's file.
  ///   - validatesLabels: also validate every dictionary string's UTF-8.
  /// - Throws: ``BaseFormatError`` for a missing, foreign, truncated or corrupt file, or a list
  ///   base (read those with ``MappedBaseReader``).
  @usableFromInline package init(path: String, validatesLabels: Bool = false)
    throws(BaseFormatError)
  {
    self.path = path
    let opened = try OpenedBase(path: path, validatesLabels: validatesLabels, rules: true)
    descriptor = opened.descriptor
    header = opened.header
    dictionary = opened.dictionary
  }

  deinit { try? descriptor.close() }

  @usableFromInline package func next() throws(BaseFormatError) -> BaseEntry? {
    if nextNumber <= currentLast {
      let number = nextNumber
      nextNumber += 1
      return BaseEntry(number: number, label: currentLabel)
    }
    guard let range = try nextRecord() else { return nil }
    currentLabel = skipsLabels ? "" : range.label
    currentLast = range.last
    nextNumber = range.first + 1
    return BaseEntry(number: range.first, label: currentLabel)
  }

  /// The rest of the range being expanded, up to `limit`, consumed at once (a merge's run).
  @usableFromInline package func extendRun(from number: Int64, through limit: Int64) -> Int64 {
    // `number` is the entry just handed on when the next one is its successor in this range.
    guard number &+ 1 == nextNumber, nextNumber <= currentLast, limit > number else {
      return number
    }
    // Both inside the header's range (at most 10^15): no overflow.
    let last = min(limit, currentLast)
    nextNumber = last + 1
    return last
  }

  /// The next whole range (inspection, lookups), or nil after the last once the checksum and the
  /// count are verified. Not to be mixed with ``next()`` on one reader.
  package func nextRange() throws(BaseFormatError) -> NumberRange? {
    try nextRecord()
  }

  /// Reads, checks and decodes the next record.
  private func nextRecord() throws(BaseFormatError) -> NumberRange? {
    guard !finished else { return nil }
    if rangesRead == header.blockCount {
      try finish()
      return nil
    }
    if bufferPosition == buffer.count { try refill() }
    let offset = BaseHeader.byteCount + rangesRead * RuleBaseFormat.recordByteCount
    func fail(_ why: String) -> BaseFormatError {
      BaseFormatError(path: path, offset: offset, problem: .invalidBlock(why))
    }
    let record = unsafe buffer.withUnsafeBytes { raw in
      let view = unsafe ByteView(raw).rebased(
        bufferPosition..<bufferPosition + RuleBaseFormat.recordByteCount)
      return (
        first: view.loadLittleEndian(Int64.self, at: 0),
        last: view.loadLittleEndian(Int64.self, at: 8),
        label: Int(view.loadLittleEndian(UInt32.self, at: 16)),
        rule: Int(view.loadLittleEndian(UInt32.self, at: 20))
      )
    }
    bufferPosition += RuleBaseFormat.recordByteCount
    rangesRead += 1
    guard record.first > previousLast, record.first <= record.last,
      rangesRead != 1 || record.first == header.lowestNumber,
      record.first >= header.lowestNumber, record.last <= header.highestNumber
    else {
      throw fail(
        "range \(record.first)...\(record.last) is not above \(previousLast) and inside the header's \(header.lowestNumber)...\(header.highestNumber)"
      )
    }
    // Both ends lie inside the header's range (at most 10^15 apart): no overflow.
    numbersSeen += UInt64(record.last - record.first) + 1
    guard numbersSeen <= UInt64(header.entryCount) else {
      throw fail("the ranges hold more than the header's \(header.entryCount) numbers")
    }
    let strings = dictionary?.count ?? 0
    guard record.label <= strings, record.rule <= strings,
      (record.label > 0) == (header.kind == .identification)
    else {
      throw fail("label \(record.label) or rule \(record.rule) is not in the dictionary")
    }
    previousLast = record.last
    return NumberRange(
      first: record.first, last: record.last, label: string(record.label),
      rule: string(record.rule))
  }

  /// The dictionary's string for a reference (0: none).
  private func string(_ reference: Int) -> String {
    guard reference > 0, let dictionary else { return "" }
    return String(decoding: dictionary.label(at: reference - 1), as: UTF8.self)
  }

  /// Reads the next records into the buffer, adding them to the payload's checksum.
  private func refill() throws(BaseFormatError) {
    let left = header.blockCount - rangesRead
    let offset = BaseHeader.byteCount + rangesRead * RuleBaseFormat.recordByteCount
    let byteCount = min(left, Self.recordsPerRead) * RuleBaseFormat.recordByteCount
    buffer = try FileHandleIO.readFully(descriptor, at: offset, byteCount: byteCount, path: path)
    guard buffer.count == byteCount else {
      throw BaseFormatError(path: path, offset: offset + buffer.count, problem: .recordPastEnd)
    }
    checksum.update(buffer)
    bufferPosition = 0
  }

  /// After the last record: the checksum and the count must be the header's.
  private func finish() throws(BaseFormatError) {
    finished = true
    guard checksum.value == header.blockChecksumsChecksum else {
      throw BaseFormatError(
        path: path, offset: 48,
        problem: .payloadChecksumMismatch(
          expected: header.blockChecksumsChecksum, actual: checksum.value))
    }
    guard numbersSeen == UInt64(header.entryCount), previousLast == header.highestNumber else {
      throw BaseFormatError(
        path: path, offset: 16,
        problem: .inconsistentHeader(
          "the ranges hold \(numbersSeen) numbers up to \(previousLast); the header says \(header.entryCount) up to \(header.highestNumber)"
        ))
    }
  }
}
