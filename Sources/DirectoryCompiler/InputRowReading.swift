/// One row of an input as `compile` reads it, before its number is normalized.
public struct ReadRow: Sendable {
  /// The number as written.
  public var numberText: String
  /// The label as written (may be empty: the compiler rejects empty labels later).
  public var label: String
  /// The physical line the row starts on (1-based; 0 for rows of a base).
  public var line: Int
}

/// Reads every row of one input file exactly as `compile` does (same line splitting, quoting,
/// bounds and rejections), without normalizing or writing anything: for tools that check
/// inputs, and for the row readers' fuzz target.
/// - Parameters:
///   - row: called with each well-formed row, in file order.
///   - rejected: called with each malformed line's reason and line number.
/// - Throws: ``CompileError`` for an unreadable or damaged file, or a header without the
///   columns it needs.
package func readInputRows(
  path: String, format: InputFormat, columns: ColumnSelection = ColumnSelection(),
  quoting: Quoting? = nil,
  maximumLineByteCount: Int = CompileOptions.defaultMaximumLineByteCount,
  row: (ReadRow) -> Void, rejected: @escaping (RejectionReason, Int) -> Void
) throws(CompileError) {
  do {
    let reader = try RowReader(
      path: path, format: format, columns: columns, quoting: quoting,
      maximumLineByteCount: maximumLineByteCount, reject: rejected)
    while try reader.next({ fields in
      row(
        ReadRow(
          numberText: String(decoding: fields.number, as: UTF8.self),
          label: String(decoding: fields.label, as: UTF8.self), line: fields.line))
    }) {}
  } catch let error as CompileError {
    throw error
  } catch {
    throw CompileError.unreadable(path, "\(error)")
  }
}
