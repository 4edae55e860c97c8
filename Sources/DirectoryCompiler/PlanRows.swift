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
    var trimmed = fields.map(PlanFormat.trimmingBlanks)
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
