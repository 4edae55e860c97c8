import BaseFormat

/// Which pattern rules of a container hold a number (`calldir host lookup --container`): the
/// store knows only that a number is blocked; the container's rule bases say why.
public enum RuleLookup {
  /// The ranges of the container's rule bases that hold `number`, with each base's name.
  /// - Throws: ``ContainerError`` for an unreadable manifest, or a base's ``BaseFormatError``.
  public static func ranges(holding number: Int64, inContainer container: String) throws
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
