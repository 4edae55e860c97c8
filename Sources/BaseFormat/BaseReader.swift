/// A reader that streams a base's entries in file order (ascending numbers).
///
/// Entries are checked one by one before they are returned (see ``BaseFormatError``); the payload
/// checksum is compared after the last entry, so a caller must treat its entries as provisional
/// until `next()` has returned nil.
public protocol BaseReader: AnyObject {
  /// The validated header.
  var header: BaseHeader { get }
  /// The next entry, or nil after the last one once the checksum has been verified.
  /// - Throws: ``BaseFormatError`` naming the byte offset of a corrupt record, a truncated file or
  ///   a checksum mismatch.
  func next() throws(BaseFormatError) -> BaseEntry?
}

extension BaseReader {
  /// Calls `body` with every entry, then verifies the checksum.
  /// - Throws: the reader's ``BaseFormatError``; rethrows nothing else.
  @inlinable
  public func forEach(_ body: (BaseEntry) -> Void) throws(BaseFormatError) {
    while let entry = try next() { body(entry) }
  }

  /// Every entry, in memory (tests and small bases only).
  public func readAll() throws(BaseFormatError) -> [BaseEntry] {
    var entries: [BaseEntry] = []
    while let entry = try next() { entries.append(entry) }
    return entries
  }
}
