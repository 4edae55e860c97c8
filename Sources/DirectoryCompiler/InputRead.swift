import ByteCoding
import SystemCalls

/// Reads one input's rows into ``RowIngest``s: whole, on the calling thread, or in parts
/// (``InputSplit``), one thread per part.
struct InputRead {
  let path: String
  let format: InputFormat
  let columns: ColumnSelection
  let options: CompileOptions
  /// The country of numbers written without one.
  let country: String

  private func reader(
    _ part: (byteRange: Range<Int>, columns: ResolvedColumns?)?, into ingest: RowIngest
  ) throws -> RowReader {
    try RowReader(
      path: path, format: format, columns: columns, quoting: options.quoting,
      maximumLineByteCount: options.maximumLineByteCount, part: part
    ) { reason, line in ingest.rejectRead(reason, line: line) }
  }

  /// Every row of the file into `ingest`, in order.
  func whole(into ingest: RowIngest) throws {
    let reader = try reader(nil, into: ingest)
    // A static function handed values, not `self`: a row's closure capturing `self` copied this
    // struct (the options' strings and arrays, a retain each) for every row.
    try Self.readAll(reader, into: ingest, country: country, blocksAll: columns.blockingList)
  }

  /// Hands every row `reader` reads to `ingest`. The row's closure captures only trivial values:
  /// a captured class (the ingest) or string (the country) was retained and released several
  /// times per row where the closure was specialized into the reading loop (callgrind: 32
  /// reference-count calls a row in the loop, a quarter of the reading phase's instructions).
  private static func readAll(
    _ reader: RowReader, into ingest: RowIngest, country: String, blocksAll: Bool
  ) throws {
    unsafe ingest.fileDefaults = (country, blocksAll)
    // Safe: the caller holds `ingest` for the whole loop (`withExtendedLifetime`).
    let target = unsafe Unmanaged.passUnretained(ingest)
    try withExtendedLifetime(ingest) {
      while try reader.next({ row in
        unsafe try target._withUnsafeGuaranteedRef { try $0.ingest(row) }
      }) {
      }
    }
  }

  /// The columns the header names, read from the first part; nil when it names none (the
  /// file is then read whole, which reports why).
  func headerColumns(_ first: Range<Int>) throws -> ResolvedColumns? {
    let probe = RowIngest(
      sorter: ExternalSorter(budget: 0, directory: "/nonexistent"),
      normalizers: NormalizerCache(validation: options.validation),
      blockingCategories: ByteStringTable(), entryTags: ByteStringTable(),
      prefixes: RegionPrefixes(rules: [:]))
    let reader = try reader((first, nil), into: probe)
    _ = try reader.next { _ in }
    return reader.resolvedColumns
  }

  /// The parts of the file (`ranges`, in order), each read by its ingest on a thread of its
  /// own (the first on this one), the part `k` numbered `firstOrdinal + k`.
  /// - Returns: each part's line count, to number the next part's lines after it.
  /// - Throws: the first part's error in file order, once every thread has stopped.
  func parallel(
    _ ranges: [Range<Int>], columns header: ResolvedColumns, ingests: [RowIngest],
    firstOrdinal: UInt64
  ) throws -> [Int] {
    let outcomes = ranges.indices.map { _ in PartOutcome() }
    let blocksAll = columns.blockingList
    let country = country
    // Each thread reads its own range into its own ingest and outcome (index `k` alone), and
    // the caller reads them only after the join.
    let shared = JoinedHandoff((self, ingests, header))
    JoinableThread.forkJoin(ranges.count) { index in
      let (split, ingests, header) = shared.value
      let ingest = ingests[index]
      ingest.start(ordinal: firstOrdinal + UInt64(index))
      do {
        let reader = try split.reader((ranges[index], index == 0 ? nil : header), into: ingest)
        try Self.readAll(reader, into: ingest, country: country, blocksAll: blocksAll)
        // The part's last records sorted and written here, on its own thread, not one part
        // after another before the merge.
        try ingest.sorter.spillRemainder()
        outcomes[index].lines = reader.linesRead
      } catch {
        outcomes[index].error = error
      }
    }
    if let error = outcomes.compactMap(\.error).first { throw error }
    return outcomes.map(\.lines)
  }
}

// Safe: written by its part's thread alone, read after the join.
/// What one part's thread found: written by that thread alone, read after it is joined.
private final class PartOutcome: @unchecked Sendable {
  var lines = 0
  var error: (any Error)?
}
