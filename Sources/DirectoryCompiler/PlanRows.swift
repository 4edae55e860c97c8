import ByteCoding

/// A plan's lines, read one at a time: the header decides the encoding and the columns, each
/// row then becomes a range, a rejection, or a row the filter leaves out.
struct PlanRows {
  let path: String
  let format: PlanFormat
  let filter: NumberingPlan.Filter
  private var encoding: PlanFormat.LineEncoding?
  private var order: [Int?]?
  private var contents = NumberingPlan.Contents()
  private var normalizers = PlanNormalizers()

  init(path: String, format: PlanFormat, filter: NumberingPlan.Filter) {
    (self.path, self.format, self.filter) = (path, format, filter)
  }

  mutating func take(_ bytes: ArraySlice<UInt8>, number: Int) throws(CompileError) {
    guard let encoding else {
      // The first line: the header, its byte-order mark dropped.
      let header = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes
      guard let found = format.encoding(ofHeader: header) else {
        throw .unreadable(path, "not \(format.encodingName), as \(format.publisher) publishes it")
      }
      let text = PlanFormat.decode(header, found) ?? ""
      guard format.acceptsHeader(text) else {
        throw .unreadable(
          path,
          "not \(format.publisher)'s \(format.fileName): the header should be \"\(format.header)\"")
      }
      self.encoding = found
      order = format.columnOrder(header: text)
      return
    }
    guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }  // a blank line
    contents.rowsRead += 1
    if encoding == .utf8, format.quoting == .none,
      let fields = Self.trimmedFields(of: bytes, delimiter: format.delimiter)
    {
      take(fields, number: number)
      return
    }
    guard let line = PlanFormat.decode(bytes, encoding) ?? format.fallbackDecode(bytes) else {
      throw .unreadable(
        path, "line \(number) is not \(format.encodingName), as \(format.publisher) publishes it")
    }
    var utf8 = line
    let fields: [String]
    do throws(CompileError) {
      fields = try utf8.withUTF8 { bytes in
        Result { () throws(CompileError) in
          unsafe try PatternFile.fields(
            of: ByteView(bytes), delimiter: format.delimiter, quoting: format.quoting,
            at: "\(path):\(number)")
        }
      }.get()
    } catch {
      contents.rejections.append(NumberingPlan.Rejection(line: number, reason: "\(error)"))
      return
    }
    take(fields.map(PlanFormat.trimmingBlanks), number: number)
  }

  /// One row's fields, each without the blanks around it: put in the format's column order,
  /// then read as a range, a rejection or a row left out.
  private mutating func take(_ trimmed: [String], number: Int) {
    var trimmed = trimmed
    if let order {
      trimmed = order.map { index in index.map { $0 < trimmed.count ? trimmed[$0] : "" } ?? "" }
    }
    switch format.range(trimmed, line: number, filter: filter, normalizers: &normalizers) {
    case .failure(let rejection):
      contents.rejections.append(rejection)
    case .success(nil):
      contents.filteredOut += 1
    case .success(let range?):
      contents.ranges.append(range)
    }
  }

  /// An unquoted line's fields, each without the spaces and tabs around it, made straight from
  /// the line's bytes; nil when a field is not valid UTF-8 (the caller then reads the line as
  /// a whole, to fall back or to refuse it). A field's bytes validate alone because the
  /// delimiter and the blanks are ASCII, which no multi-byte sequence holds. Rows are read by
  /// the million: this makes one String a field where decoding the line, splitting it and
  /// trimming each field made three (with the NANPA row read on its bytes: a 939,531-row file
  /// filtered by region, 3.09 → 1.45 s, medians of 3 on one machine, the same output).
  static func trimmedFields(of bytes: ArraySlice<UInt8>, delimiter: UInt8) -> [String]? {
    func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    var fields: [String] = []
    fields.reserveCapacity(8)
    var start = bytes.startIndex
    while true {
      let end = bytes[start...].firstIndex(of: delimiter) ?? bytes.endIndex
      var (low, high) = (start, end)
      while low < high, isBlank(bytes[low]) { low += 1 }
      while high > low, isBlank(bytes[high - 1]) { high -= 1 }
      let part = bytes[low..<high]
      if part.allSatisfy({ $0 < 0x80 }) {
        fields.append(String(decoding: part, as: UTF8.self))
      } else {
        guard let field = String(validating: part, as: UTF8.self) else { return nil }
        fields.append(field)
      }
      guard end < bytes.endIndex else { return fields }
      start = end + 1
    }
  }

  /// What the file held.
  /// - Throws: ``CompileError`` for a file with no header line.
  func finish() throws(CompileError) -> NumberingPlan.Contents {
    guard encoding != nil else {
      throw .unreadable(
        path,
        "not \(format.publisher)'s \(format.fileName): the header should be \"\(format.header)\"")
    }
    return contents
  }
}
