import BaseFormat

/// Which pattern rules of a container hold a number (`calldir host lookup --container`): the
/// store knows only that a number is blocked; the container's rule bases say why.
package enum RuleLookup {
  /// The ranges of the container's rule bases that hold `number`, with each base's name.
  /// - Throws: ``ContainerError`` for an unreadable manifest, or a base's `BaseFormatError`.
  package static func ranges(holding number: Int64, inContainer container: String) throws
    -> [(base: String, range: NumberRange)]
  {
    let manifest = try Manifest.read(container: container)
    var found: [(base: String, range: NumberRange)] = []
    for base in manifest.bases where base.state != .retired {
      let path = container + "/" + base.file
      guard try BaseHeader.read(path: path).isRules else { continue }
      let reader = try RuleBaseReader(path: path)
      // Ranges ascend: stop at the first that starts past the number.
      while let range = try reader.nextRange(), range.first <= number {
        if range.last >= number { found.append((base.name, range)) }
      }
    }
    return found
  }
}

extension RuleLookup {
  /// One rule base of a container, with its first ranges.
  package struct RuleBase: Sendable {
    package var name: String
    package var kind: BaseKind
    /// Its ranges in order, at most the `limit` asked for.
    package var ranges: [NumberRange]
    /// All its ranges (more than `ranges` holds when the limit cut them).
    package var rangeCount: Int
    /// The numbers they hold.
    package var entries: Int
  }

  /// The container's rule bases, each with its first `limit` ranges (`app status`): memory
  /// stays bounded whatever a rule base holds.
  /// - Throws: ``ContainerError`` for an unreadable manifest, or a base's `BaseFormatError`.
  package static func ruleBases(inContainer container: String, limit: Int = 1_000) throws
    -> [RuleBase]
  {
    let manifest = try Manifest.read(container: container)
    var found: [RuleBase] = []
    for base in manifest.bases where base.state != .retired {
      let path = container + "/" + base.file
      guard try BaseHeader.read(path: path).isRules else { continue }
      let reader = try RuleBaseReader(path: path)
      var ranges: [NumberRange] = []
      while ranges.count < limit, let range = try reader.nextRange() { ranges.append(range) }
      found.append(
        RuleBase(
          name: base.name, kind: reader.header.kind, ranges: ranges,
          rangeCount: reader.header.blockCount, entries: reader.header.entryCount))
    }
    return found
  }
}
