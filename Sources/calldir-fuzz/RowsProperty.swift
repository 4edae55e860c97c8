import DirectoryCompiler

/// Any bytes as a dump (plain or gzip), read as TSV, CSV with each quoting, and JSON lines, as
/// `compile` reads them: an error, or rows and rejections that account for the lines, in order.
enum RowsProperty {
  static let file = FuzzInputFile(extension: "tsv")
  /// Short enough that inputs reach the overlong-line path often.
  static let maximumLineByteCount = 1024

  static func check(_ input: [UInt8]) {
    file.replaceContents(with: input)
    let path = file.path
    // Every byte may end a line (LF, or CR alone); gzip may hold up to its expansion cap.
    let isGzip = input.count >= 2 && input[0] == 0x1F && input[1] == 0x8B
    let lineBound = isGzip ? Int.max : input.count + 1
    for (format, quoting) in [
      (InputFormat.tsv, Quoting?.none), (.tsv, .rfc4180), (.csv, nil), (.csv, Quoting.none),
      (.jsonl, nil),
    ] {
      var lastRowLine = 0
      var accounted = 0
      do throws(CompileError) {
        try readInputRows(
          path: path, format: format, quoting: quoting,
          maximumLineByteCount: maximumLineByteCount,
          row: { row in
            precondition(row.line > lastRowLine, "rows out of line order")
            precondition(row.line <= lineBound, "a row past the last line")
            lastRowLine = row.line
            accounted += 1
          },
          rejected: { _, line in
            precondition(line >= 1 && line <= lineBound, "a rejection outside the file")
            accounted += 1
          })
        precondition(accounted <= lineBound, "more rows and rejections than lines")
      } catch {
        // An unreadable or damaged file, or a header without the columns: an error, as it
        // must be.
      }
    }
  }
}
