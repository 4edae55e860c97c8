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
  /// The number whose records the batch ends with.
  private var currentNumber: Int64?
  /// The current number's kept record in each list: its rank and where it starts in the batch.
  private var identification: (rank: Int64, start: Int)?
  private var blocking: (rank: Int64, start: Int)?

  init(policy: DuplicatePolicy) { self.policy = policy }

  /// Adds `record` to `batch`, drops it, or puts it in place of the kept record of its number
  /// and list (a duplicate, per the policy). Before a record of a new number, a batch of
  /// `threshold` bytes or more goes to `handOn`, which leaves an empty one in its place.
  mutating func add(
    _ record: SortRecordView, to batch: inout [UInt8], threshold: Int,
    handOn: (inout [UInt8]) throws -> Void
  ) throws {
    let isBlocking = !record.category.isEmpty
    if currentNumber != record.number {
      if batch.count >= threshold { try handOn(&batch) }
      currentNumber = record.number
      identification = nil
      blocking = nil
    }
    guard let kept = isBlocking ? blocking : identification else {
      setKept((record.rank, batch.count), blocking: isBlocking)
      ExternalSorter.append(record, to: &batch)
      return
    }
    dropped += 1
    let replaces =
      switch policy {
      case .first: false
      case .last: true
      case .priority: record.rank > kept.rank
      }
    guard replaces else { return }
    // The other list's record of this number, when it was kept after this one, moves behind
    // the replacement (a rare case: it is copied out, a few dozen bytes).
    let other = isBlocking ? identification : blocking
    var moved: [UInt8] = []
    if let other, other.start > kept.start {
      moved = Array(batch[other.start...])
    }
    batch.removeSubrange(kept.start...)
    setKept((record.rank, batch.count), blocking: isBlocking)
    ExternalSorter.append(record, to: &batch)
    if let other, !moved.isEmpty {
      setKept((other.rank, batch.count), blocking: !isBlocking)
      batch.append(contentsOf: moved)
    }
  }

  private mutating func setKept(_ kept: (rank: Int64, start: Int), blocking isBlocking: Bool) {
    if isBlocking { blocking = kept } else { identification = kept }
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
