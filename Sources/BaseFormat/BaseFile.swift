/// Opening a base of either shape: a list (``MappedBaseReader``) or a rule base of number
/// ranges (``RuleBaseReader``), chosen by the header's version.
package enum BaseFile {
  /// A reader of the base at `path`, whichever shape it has.
  /// - Parameters:
  ///   - path: the base's file.
  ///   - validatesLabels: also validate every label's UTF-8.
  ///   - windowByteCount: a list's mapped window (a rule base reads 4 KiB of ranges at a time).
  ///   - labelCacheByteBudget: a list's label-string cache (a rule base makes a string per range).
  ///   - skipsLabels: hand entries on without labels (numbers-only passes).
  /// - Throws: ``BaseFormatError`` for a missing, foreign, truncated or corrupt file.
  package static func reader(
    path: String, validatesLabels: Bool = false,
    windowByteCount: Int = MappedBaseReader.windowByteCount,
    labelCacheByteBudget: Int = MappedBaseReader.defaultLabelCacheByteBudget,
    skipsLabels: Bool = false
  ) throws(BaseFormatError) -> any BaseReader {
    if try BaseHeader.read(path: path).isRules {
      let reader = try RuleBaseReader(path: path, validatesLabels: validatesLabels)
      reader.skipsLabels = skipsLabels
      return reader
    }
    let reader = try MappedBaseReader(
      path: path, validatesLabels: validatesLabels, windowByteCount: windowByteCount,
      labelCacheByteBudget: labelCacheByteBudget)
    reader.skipsLabels = skipsLabels
    return reader
  }
}

extension BaseFile {
  /// Reads the whole base at `path` to check it (every block's or range's checksum, every label
  /// valid), as staging a downloaded base does; a rule base is checked range by range, never
  /// expanded.
  /// - Returns: its header.
  /// - Throws: ``BaseFormatError`` for a missing, foreign, truncated or corrupt file.
  package static func verify(path: String) throws(BaseFormatError) -> BaseHeader {
    // Never stopped, so always a header.
    try verify(path: path, shouldStop: { false })!
  }

  /// The entries (or ranges) ``verify(path:shouldStop:)`` reads between two asks of its
  /// `shouldStop`: about a millisecond of reading.
  package static let stopCheckEntries = 1 << 16

  /// ``verify(path:)``, asking `shouldStop` every ``stopCheckEntries`` entries: true ends the
  /// read early.
  /// - Parameters:
  ///   - path: the base.
  ///   - shouldStop: whether to stop (an app's expiring background time).
  /// - Returns: its header; nil when stopped before the end (nothing is known of the rest).
  /// - Throws: ``BaseFormatError`` for a missing, foreign, truncated or corrupt file.
  package static func verify(path: String, shouldStop: () -> Bool) throws(BaseFormatError)
    -> BaseHeader?
  {
    var untilCheck = stopCheckEntries
    func stops() -> Bool {
      untilCheck -= 1
      guard untilCheck == 0 else { return false }
      untilCheck = stopCheckEntries
      return shouldStop()
    }
    if try BaseHeader.read(path: path).isRules {
      let reader = try RuleBaseReader(path: path, validatesLabels: true)
      while try reader.nextRange() != nil { if stops() { return nil } }
      return reader.header
    }
    let reader = try MappedBaseReader(path: path, validatesLabels: true)
    while try reader.next() != nil { if stops() { return nil } }
    return reader.header
  }
}

extension BaseFile {
  /// Whether the file at `path` is a rule base (number ranges); false for a list base or a
  /// file whose header cannot be read.
  package static func isRuleBase(at path: String) -> Bool {
    (try? BaseHeader.read(path: path).isRules) ?? false
  }
}
