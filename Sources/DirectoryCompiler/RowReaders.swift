import BaseFormat
import ByteCoding
import Foundation

// Safe (the `unsafe` uses in this file): the `@exclusivity(unchecked)` fields are touched only by
// their object's own methods, on the one thread that owns the object, so no two accesses overlap
// (a row reader is one thread's); the views and buffers made here wrap bytes lent by
// `withUnsafeBytes`, `withUTF8` or `withUnsafeMutableBytes`, and are used only inside the closure
// that lends them.

/// Reads the rows of one input file in its format, reporting malformed lines to `reject` with a
/// reason instead of stopping.
final class RowReader {
  let path: String
  let format: InputFormat
  private let lines: InputLines?
  private let base: MappedBaseReader?
  // Safe: the per-row fields below are touched only by this class's own methods on its one thread,
  // never overlapping: their dynamic exclusivity checks were 2% of a compile (callgrind).
  @exclusivity(unchecked) private var columns: ResolvedColumns?
  private let selection: ColumnSelection
  /// The quoting of TSV and CSV lines; nil for the format's own (none for TSV, RFC 4180 for CSV).
  private let quoting: Quoting?
  private let reject: (RejectionReason, Int) -> Void
  /// The longest record a quoted field may spread over before the line is called badly quoted.
  private static let maximumJoinedRecordByteCount = 64 * 1024
  /// The most physical lines a quoted field may continue over (a label with line breaks is a few
  /// lines; an unbalanced quote would otherwise take every line after it).
  private static let maximumQuotedLineCount = 16
  /// Lines read past a quote that never closed, to be read again as records.
  @exclusivity(unchecked) private var replay: [([UInt8], Int)] = []
  /// The current line's fields: ranges in the line, or in ``scratch``.
  @exclusivity(unchecked) private var fieldRanges: [Range<Int>] = []
  /// Bytes of the current row when they are not the line's own: quoted fields without their
  /// quotes, or a row read as strings.
  @exclusivity(unchecked) private var scratch: [UInt8] = []
  static let russianSeparator = ArticleFormats.russianSeparator

  /// True when a JSON number was not written as a whole number (`1e3`, `2.5`) or is a boolean:
  /// JSONSerialization keeps the kind it read as the number's type.
  static func isFloatingPoint(_ value: NSNumber) -> Bool {
    unsafe !["q", "l", "i", "s", "Q", "L", "I", "S"].contains(String(cString: value.objCType))
  }

  /// The Chinese article's file and the Russian guide's lines hold numbers as CallKit takes them
  /// (country code first, no `+`): read them as international numbers, never as national ones
  /// (`861095614` must not become `86861095614`).
  static func callKitDigits(_ text: String) -> String {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    return trimmed.hasPrefix("+") ? trimmed : "+" + trimmed
  }

  /// A reader of the file at `path`, or with `part`, of one byte range of it (a plain TSV or
  /// CSV file read by several threads: ``InputSplit``): the first part reads the header; the
  /// others take the columns it named (`part.columns`).
  init(
    path: String, format: InputFormat, columns: ColumnSelection, quoting: Quoting? = nil,
    maximumLineByteCount: Int = CompileOptions.defaultMaximumLineByteCount,
    part: (byteRange: Range<Int>, columns: ResolvedColumns?)? = nil,
    reject: @escaping (RejectionReason, Int) -> Void
  ) throws {
    self.path = path
    self.format = format
    self.quoting = quoting
    self.selection = columns
    self.reject = reject
    if format == .base {
      do {
        base = try MappedBaseReader(path: path, validatesLabels: true)
      } catch {
        throw CompileError.unreadable(path, error.problemDescription)
      }
      lines = nil
    } else if let part {
      lines = try InputLines(
        path: path, byteRange: part.byteRange, maximumLineByteCount: maximumLineByteCount)
      base = nil
      unsafe self.columns = part.columns
    } else {
      lines = try InputLines(path: path, maximumLineByteCount: maximumLineByteCount)
      base = nil
    }
  }

  /// The columns the header named, once it is read.
  var resolvedColumns: ResolvedColumns? { unsafe columns }

  /// Lines read so far (a part's own, numbered from 1).
  var linesRead: Int { unsafe lines?.lineNumber ?? 0 }

  /// Bytes of the file consumed so far.
  var bytesConsumed: Int { lines?.bytesConsumed ?? 0 }

  /// Hands the next well-formed row to `body`; false at the end.
  func next(_ body: (RowFields) throws -> Void) throws -> Bool {
    if let base {
      let next: BaseEntry?
      do {
        next = try base.next()
      } catch {
        throw CompileError.unreadable(path, error.problemDescription)
      }
      guard let entry = next else { return false }
      try deliver(
        InputRow(
          numberText: "+\(entry.number)", label: entry.label, region: nil, rank: nil,
          category: nil, line: 0, fromBlockingBase: base.header.kind == .blocking), to: body)
      return true
    }
    guard let lines else { return false }
    // Safe: the line source and this reader, unretained in the line's closure (`self` holds both
    // for the whole call): captured as classes, each was retained and released per line where the
    // closure was specialized into the reading loop (callgrind).
    let source = unsafe Unmanaged.passUnretained(lines)
    let reader = unsafe Unmanaged.passUnretained(self)
    while true {
      var delivered = false
      var pending: [UInt8]?
      var opening = 0
      let more: Bool
      if unsafe replay.isEmpty {
        // The hot path: each line parsed where it lies in the reader's buffer.
        more = unsafe try source._withUnsafeGuaranteedRef { lines in
          try lines.next { bytes in
            opening = unsafe lines.lineNumber
            if unsafe lines.lastLineWasTooLong {
              unsafe reader._withUnsafeGuaranteedRef { $0.reject(.lineTooLong, opening) }
              return
            }
            delivered = unsafe try reader._withUnsafeGuaranteedRef {
              try $0.parse(bytes, line: opening, pending: &pending, body)
            }
          }
        }
      } else {
        let (bytes, line) = unsafe replay.removeFirst()
        opening = line
        delivered = unsafe try bytes.withUnsafeBytes {
          unsafe try parse(ByteView($0), line: line, pending: &pending, body)
        }
        more = true
      }
      if let joined = pending { delivered = try joinQuotedRecord(joined, openedAt: opening, body) }
      if !more {
        // A damaged input fails the whole run before anything is written: a truncated
        // download must not replace a good container with part of itself.
        if let error = lines.streamError {
          throw CompileError.unreadable(path, unsafe "after line \(lines.lineNumber): \(error)")
        }
        return false
      }
      if delivered { return true }
    }
  }

  /// Hands a row read as strings to `body`, through the reader's scratch bytes.
  private func deliver(_ row: InputRow, to body: (RowFields) throws -> Void) throws {
    unsafe scratch.removeAll(keepingCapacity: true)
    func add(_ text: String?) -> Range<Int>? {
      guard let text, !text.isEmpty else { return nil }
      let start = unsafe scratch.count
      unsafe scratch.append(contentsOf: text.utf8)
      return unsafe start..<scratch.count
    }
    let number = add(row.numberText) ?? 0..<0
    let label = add(row.label) ?? 0..<0
    let region = add(row.region)
    let category = add(row.category)
    let country = add(row.country?.trimmingWhitespace())
    unsafe try scratch.withUnsafeBytes { bytes in
      func view(_ range: Range<Int>) -> ByteView { unsafe ByteView(bytes).rebased(range) }
      try body(
        RowFields(
          number: view(number), label: view(label), region: region.map(view), rank: row.rank,
          category: category.map(view), country: country.map(view), line: row.line,
          fromBlockingBase: row.fromBlockingBase))
    }
  }

  /// A CSV record whose quoted field continues past its line: joins the following lines until
  /// the field closes, within ``maximumQuotedLineCount`` lines and
  /// ``maximumJoinedRecordByteCount`` bytes. A quote that does not close by then is rejected at
  /// the line where it opened, and the lines after it are read again as records of their own:
  /// one stray quote must not swallow the rows that follow it. Returns whether a row went to
  /// `body`.
  private func joinQuotedRecord(
    _ first: [UInt8], openedAt line: Int, _ body: (RowFields) throws -> Void
  ) throws -> Bool {
    var joined = first
    var span: [([UInt8], Int)] = []
    while span.count < Self.maximumQuotedLineCount,
      joined.count <= Self.maximumJoinedRecordByteCount,
      let (bytes, number) = try nextPhysicalLine()
    {
      span.append((bytes, number))
      joined.append(UInt8(ascii: "\n"))
      joined.append(contentsOf: bytes)
      var again: [UInt8]?
      let delivered = unsafe try joined.withUnsafeBytes {
        unsafe try parse(ByteView($0), line: line, pending: &again, body)
      }
      if again == nil { return delivered }
    }
    reject(.badQuoting, line)
    unsafe replay.insert(contentsOf: span, at: 0)
    return false
  }

  /// The next physical line and its number: lines put back for another reading first.
  private func nextPhysicalLine() throws -> ([UInt8], Int)? {
    if unsafe !replay.isEmpty { return unsafe replay.removeFirst() }
    guard let lines else { return nil }
    var line: ([UInt8], Int)?
    while true {
      line = nil
      guard lines.next({ bytes in line = unsafe (Array(bytes), lines.lineNumber) }) else {
        return nil
      }
      guard unsafe lines.lastLineWasTooLong else { return line }
      unsafe reject(.lineTooLong, lines.lineNumber)
    }
  }

  /// Parses one line and hands its row to `body`; returns false for a skipped or rejected line,
  /// and sets `pending` to the bytes when a quoted field continues on the next line.
  private func parse(
    _ bytes: ByteView, line: Int, pending: inout [UInt8]?,
    _ body: (RowFields) throws -> Void
  ) throws -> Bool {
    switch format {
    case .tsv, .csv:
      let delimiter = format == .tsv ? UInt8(ascii: "\t") : UInt8(ascii: ",")
      switch unsafe DelimitedFields.split(
        bytes, delimiter: delimiter,
        quoting: quoting ?? (format == .tsv ? .none : .rfc4180),
        fields: &fieldRanges, unquoted: &scratch)
      {
      case .needsMore:
        pending = [UInt8](bytes)
        return false
      case .badQuoting:
        reject(.badQuoting, line)
        return false
      case .badUTF8:
        reject(.badUTF8, line)
        return false
      case .fields(let inUnquoted):
        return unsafe try inUnquoted
          ? scratch.withUnsafeBytes { unsafe try deliverFields(of: ByteView($0), line: line, body) }
          : deliverFields(of: bytes, line: line, body)
      }
    case .russian, .jsonl, .chinese:
      guard let row = try parseText(bytes, line: line) else { return false }
      try deliver(row, to: body)
      return true
    case .base:
      return false
    }
  }

  /// Hands the split fields (``fieldRanges`` in `storage`) to `body` as a row; the first line is
  /// the header. Returns false for the header, a blank line or a short row.
  private func deliverFields(
    of storage: ByteView, line: Int, _ body: (RowFields) throws -> Void
  ) throws -> Bool {
    // Moved out and back, not copied: a copy of the array retained and released it per row.
    var moved: [Range<Int>] = []
    unsafe swap(&moved, &fieldRanges)
    defer { unsafe swap(&moved, &fieldRanges) }
    return try deliverFields(moved, of: storage, line: line, body)
  }

  private func deliverFields(
    _ fields: [Range<Int>], of storage: ByteView, line: Int,
    _ body: (RowFields) throws -> Void
  ) throws -> Bool {
    func field(_ index: Int) -> ByteView { storage.rebased(fields[index]) }
    guard let columns = unsafe columns else {
      unsafe columns = try selection.resolve(
        header: fields.indices.map { String(decoding: field($0), as: UTF8.self) }, path: path)
      return false
    }
    if fields.count == 1 && fields[0].isEmpty { return false }  // blank line
    guard fields.count > columns.highest else {
      reject(.missingColumn, line)
      return false
    }
    // An empty rank is no rank; anything else must be a whole number.
    let rankText = columns.rank.map { UTF8Validation.trimmingWhitespace(field($0)) }
      .flatMap(RowFields.nonEmpty)
    let rank = rankText.flatMap(RowFields.integer)
    if rankText != nil && rank == nil {
      reject(.badRank, line)
      return false
    }
    try body(
      RowFields(
        number: field(columns.number),
        label: columns.label.map(field) ?? .empty,
        region: columns.region.map(field).flatMap(RowFields.nonEmpty),
        rank: rank,
        category: columns.category.map(field).flatMap(RowFields.nonEmpty),
        country: columns.country.map { UTF8Validation.trimmingWhitespace(field($0)) }
          .flatMap(RowFields.nonEmpty),
        line: line))
    return true
  }

  /// Parses one line of the formats read as text (the articles' files, JSON lines); nil for a
  /// skipped or rejected line.
  private func parseText(_ bytes: ByteView, line: Int) throws -> InputRow? {
    switch format {
    case .russian:
      guard let text = String(validatingUTF8Bytes: bytes) else {
        reject(.badUTF8, line)
        return nil
      }
      if text.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
      let parts = text.components(separatedBy: Self.russianSeparator)
      guard parts.count >= 2 else {
        reject(.missingColumn, line)
        return nil
      }
      return InputRow(
        numberText: Self.callKitDigits(parts[0]),
        label: parts[1...].joined(separator: Self.russianSeparator),
        region: nil,
        rank: nil, category: nil, line: line)
    case .jsonl, .chinese:
      guard let text = String(validatingUTF8Bytes: bytes) else {
        reject(.badUTF8, line)
        return nil
      }
      var trimmed = text.trimmingCharacters(in: .whitespaces)
      if format == .chinese {
        if trimmed == "[" || trimmed == "]" || trimmed.isEmpty { return nil }
        if trimmed.hasSuffix(",") { trimmed.removeLast() }
      } else if trimmed.isEmpty {
        return nil
      }
      guard
        let object = try? JSONSerialization.jsonObject(with: Data(trimmed.utf8)) as? [String: Any]
      else {
        reject(.badJSON, line)
        return nil
      }
      if format == .chinese {
        guard object.count == 1, let (number, value) = object.first, let label = value as? String
        else {
          reject(.missingColumn, line)
          return nil
        }
        return InputRow(
          numberText: Self.callKitDigits(number), label: label, region: nil, rank: nil,
          category: nil, line: line)
      }
      func field(_ key: String?) -> String? {
        guard let key, let value = object[key] else { return nil }
        if let string = value as? String { return string }
        if let number = value as? NSNumber { return number.stringValue }
        return nil
      }
      guard let number = field(selection.number) ?? field("phone") else {
        reject(.missingColumn, line)
        return nil
      }
      let rank: Int64?
      switch selection.rank.flatMap({ object[$0] }) {
      case nil, is NSNull: rank = nil
      case let text as String:
        rank = text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : Int64(text)
        guard rank != nil || text.trimmingCharacters(in: .whitespaces).isEmpty else {
          reject(.badRank, line)
          return nil
        }
      case let value as NSNumber:
        // JSON reads 1e3 and 2.5 as floating-point numbers: a rank is a whole number as written.
        guard !Self.isFloatingPoint(value), let whole = Int64(exactly: value.int64Value) else {
          reject(.badRank, line)
          return nil
        }
        rank = whole
      default:
        reject(.badRank, line)
        return nil
      }
      return InputRow(
        numberText: number, label: field(selection.label) ?? field("name") ?? "",
        region: field(selection.region), rank: rank,
        category: field(selection.category), country: field(selection.country), line: line)
    case .tsv, .csv, .base:
      return nil
    }
  }
}
