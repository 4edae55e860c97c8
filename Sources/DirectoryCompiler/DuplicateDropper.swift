// Safe (the `unsafe` uses in this file): a record decoded from a batch points into that batch,
// lent by `withUnsafeBytes`, and is used inside the closure only.

/// Keeps one record per number and list as the merge passes them in (number, input order), per
/// the ``DuplicatePolicy``, writing the kept ones into a batch of encoded records
/// (``ExternalSorter/append(_:to:)``). A batch is handed on only before a record of a new
/// number, so the records a later duplicate may replace are always still in it.
///
/// iOS keeps two lists: a number may be identified (with a label) and blocked. A record with a
/// category belongs to the blocking list, one without to the identification list; duplicates
/// are dropped within a list only, so a labelled number that is also blocked keeps both records.
struct DuplicateDropper {
  let policy: DuplicatePolicy
  /// Records dropped as duplicates so far (per list: a number in both lists drops nothing).
  private(set) var dropped = 0
  /// A kept record: its number, rank, list, and where it starts in the batch.
  private typealias Kept = (number: Int64, rank: Int64, start: Int, isBlocking: Bool)
  /// The batch's last kept record.
  private var last: Kept?
  /// The kept record of the same number in the other list, just before `last`, if any.
  private var earlier: Kept?

  init(policy: DuplicatePolicy) { self.policy = policy }

  /// Adds `record` to `batch`, drops it, or puts it in place of the kept record of its number
  /// and list (a duplicate, per the policy). Before a record of a new number, a batch of
  /// `threshold` bytes or more goes to `handOn`, which leaves an empty one in its place.
  ///
  /// A record of a new number (the common case) costs what it did when one record was kept
  /// per number: the second list's slot is touched only by a number in both lists.
  mutating func add(
    _ record: SortRecordView, to batch: inout [UInt8], threshold: Int,
    handOn: (inout [UInt8]) throws -> Void
  ) throws {
    let isBlocking = unsafe !record.category.isEmpty
    if let last, last.number == record.number {
      if last.isBlocking == isBlocking {
        guard replaces(last, with: record) else { return }
        batch.removeSubrange(last.start...)
        self.last = (record.number, record.rank, batch.count, isBlocking)
        ExternalSorter.append(record, to: &batch)
      } else if let earlier, earlier.isBlocking == isBlocking {
        guard replaces(earlier, with: record) else { return }
        replaceEarlier(earlier, last, with: record, in: &batch)
      } else {
        // The number's first record in the other list: kept beside the first.
        earlier = last
        self.last = (record.number, record.rank, batch.count, isBlocking)
        ExternalSorter.append(record, to: &batch)
      }
      return
    }
    if batch.count >= threshold { try handOn(&batch) }
    earlier = nil
    last = (record.number, record.rank, batch.count, isBlocking)
    ExternalSorter.append(record, to: &batch)
  }

  /// Puts `record` in place of `earlier`, and `last` (the other list's record of the number)
  /// behind it: a rare case, a few dozen bytes copied. Kept out of line: inlined, its array
  /// copy cost the common path two retains a record (a 200k-row compile: 2,132 M instructions
  /// against 2,078 M out of line).
  @inline(never)
  private mutating func replaceEarlier(
    _ earlier: Kept, _ last: Kept, with record: SortRecordView, in batch: inout [UInt8]
  ) {
    let moved = Array(batch[last.start...])
    batch.removeSubrange(earlier.start...)
    self.earlier = (record.number, record.rank, batch.count, earlier.isBlocking)
    ExternalSorter.append(record, to: &batch)
    self.last = (last.number, last.rank, batch.count, last.isBlocking)
    batch.append(contentsOf: moved)
  }

  /// Whether `record` takes the place of `kept`, a record of its number and list; counts the
  /// duplicate either way.
  private mutating func replaces(_ kept: Kept, with record: SortRecordView) -> Bool {
    dropped += 1
    return switch policy {
    case .first: false
    case .last: true
    case .priority: record.rank > kept.rank
    }
  }

  /// Calls `body` with each record of `batch`, in order.
  /// - Throws: what `body` throws; `ByteCoding.ByteCodingError` for a batch cut short (a bug).
  static func forEachRecord(in batch: [UInt8], _ body: (SortRecordView) throws -> Void) throws {
    unsafe try batch.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let (record, end) = unsafe try ExternalSorter.decode(bytes, at: offset)
        try body(record)
        offset = end
      }
    }
  }
}
