/// A reader that streams a base's entries in file order (ascending numbers).
///
/// Entries are checked one by one before they are returned (see ``BaseFormatError``); the payload
/// checksum is compared after the last entry, so a caller must treat its entries as provisional
/// until `next()` has returned nil.
@usableFromInline package protocol BaseReader: AnyObject {
  /// The validated header.
  var header: BaseHeader { get }
  /// The next entry, or nil after the last one once the checksum has been verified.
  /// - Throws: ``BaseFormatError`` naming the byte offset of a corrupt record, a truncated file or
  ///   a checksum mismatch.
  func next() throws(BaseFormatError) -> BaseEntry?

  /// Consumes the numbers that continue `number`, the entry ``next()`` last returned, as one
  /// run: consecutive, with its label, up to `limit`. Returns the run's last number: `number`
  /// itself when none follows, or when the reader keeps no runs (a list base hands its numbers
  /// one at a time). The next ``next()`` continues after it.
  ///
  /// A rule base's reader answers from the range it is expanding, in O(1): a merge then moves
  /// through 120 M numbers of unchanged ranges in as many steps as there are ranges.
  func extendRun(from number: Int64, through limit: Int64) -> Int64
}

extension BaseReader {
  /// A list base keeps no runs: each entry is its own.
  @usableFromInline package func extendRun(from number: Int64, through limit: Int64) -> Int64 {
    number
  }

  /// Calls `body` with every entry, then verifies the checksum.
  /// - Throws: the reader's ``BaseFormatError``; rethrows nothing else.
  @inlinable
  package func forEach(_ body: (BaseEntry) -> Void) throws(BaseFormatError) {
    while let entry = try next() { body(entry) }
  }

  /// Every entry, in memory (tests and small bases only).
  package func readAll() throws(BaseFormatError) -> [BaseEntry] {
    var entries: [BaseEntry] = []
    while let entry = try next() { entries.append(entry) }
    return entries
  }
}
