import BaseFormat

/// What a base's name and region may be, wherever they come from (`app stage`'s arguments, a
/// release's index): a name becomes part of file names in the container and in a release
/// folder, and both are fields of the manifest's lines, so neither may break them. An index whose
/// names broke the manifest made every later command refuse the container (issue 39, item 5).
package enum BaseNaming {
  /// The longest name, in UTF-8 bytes: a release's file name adds a 16-digit hash and `.cdb` to
  /// it, and a file name holds at most 255 bytes.
  package static let maximumNameByteCount = 128

  /// Whether `name` is letters, digits, `-`, `_` or `.`, not empty and at most
  /// ``maximumNameByteCount`` bytes.
  package static func isValidName(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= maximumNameByteCount && name != "." && name != ".."
      && name.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) }
  }

  /// The rule ``isValidName(_:)`` checks, for error messages.
  package static let nameRule = "letters, digits, '-', '_' or '.', at most 128 bytes"

  /// Whether `region` can be a region: not empty, not the manifest's `-`, and without a tab, a
  /// comma, a line break, NUL or another control character, a bidirectional control or a
  /// character that shows nothing (an app's region chooser shows the name).
  package static func isValidRegion(_ region: String) -> Bool {
    !region.isEmpty && region != "-" && region.utf8.count <= maximumNameByteCount
      && !region.unicodeScalars.contains(",")
      && LabelRule.controlCharacterOffset(in: region) == nil
      && InvisibleCharacters.offset(in: region) == nil
  }
}
