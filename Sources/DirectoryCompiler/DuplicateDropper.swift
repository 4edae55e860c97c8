/// Keeps one record per number as the merge passes them in (number, input order), per the
/// ``DuplicatePolicy``, writing the kept ones into a batch of encoded records
/// (``ExternalSorter/append(_:to:)``). A batch is handed on only before a record of a new
/// number, so the record a later duplicate may replace is always still in it.
struct DuplicateDropper {
  let policy: DuplicatePolicy
  /// Records dropped as duplicates so far.
  private(set) var dropped = 0
  /// The last kept record's number and rank, and where it starts in the batch.
  private var last: (number: Int64, rank: Int64, start: Int)?

  init(policy: DuplicatePolicy) { self.policy = policy }

  /// Adds `record` to `batch`, drops it, or puts it in place of the batch's last record (a
  /// duplicate, per the policy). Before a record of a new number, a batch of `threshold` bytes
  /// or more goes to `handOn`, which leaves an empty one in its place.
  mutating func add(
    _ record: SortRecordView, to batch: inout [UInt8], threshold: Int,
    handOn: (inout [UInt8]) throws -> Void
  ) throws {
    if let last, last.number == record.number {
      dropped += 1
      let replaces =
        switch policy {
        case .first: false
        case .last: true
        case .priority: record.rank > last.rank
        }
      guard replaces else { return }
      batch.removeSubrange(last.start...)
      self.last = (record.number, record.rank, batch.count)
      ExternalSorter.append(record, to: &batch)
      return
    }
    if batch.count >= threshold { try handOn(&batch) }
    last = (record.number, record.rank, batch.count)
    ExternalSorter.append(record, to: &batch)
  }

  /// Calls `body` with each record of `batch`, in order.
  /// - Throws: what `body` throws; ``ByteCoding/ByteCodingError`` for a batch cut short (a bug).
  static func forEachRecord(in batch: [UInt8], _ body: (SortRecordView) throws -> Void) throws {
    try batch.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let (record, end) = try ExternalSorter.decode(bytes, at: offset)
        try body(record)
        offset = end
      }
    }
  }
}
