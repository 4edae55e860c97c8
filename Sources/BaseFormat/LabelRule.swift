import ByteCoding

/// What a label may hold: 1 to ``BaseHeader/maximumLabelByteCount`` bytes of UTF-8 making one
/// line of text. No control character (U+0000–U+001F: NUL, tab, line feed, carriage return…;
/// U+007F; U+0080–U+009F) and no line or paragraph separator (U+2028, U+2029): a call screen
/// shows one line, and `calldir inspect --dump` prints one entry per line, unambiguously. No
/// bidirectional control (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and no byte
/// order mark (U+FEFF) inside: they reorder or hide what a call screen shows, so a label could
/// disguise a caller's name ("‮knaB" reads "Bank"; issue 52, item 13).
/// The compiler refuses such rows with a reason, the writer refuses such labels, and readers
/// refuse them when they validate labels (an empty one always).
package enum LabelRule {
  /// Why `label` is not a label; nil when it is one.
  /// - Parameters:
  ///   - label: the label's bytes.
  ///   - checkUTF8: false when the bytes are known UTF-8 (taken from a `String`).
  package static func problem(_ label: ByteView, checkUTF8: Bool = true) -> String? {
    if label.isEmpty { return "empty label" }
    if label.count > BaseHeader.maximumLabelByteCount {
      return "\(label.count) bytes, over \(BaseHeader.maximumLabelByteCount)"
    }
    if checkUTF8 && !UTF8Validation.isValid(label) { return "not UTF-8" }
    if let offset = controlCharacterOffset(label) {
      return
        "a control character, line break, bidirectional control or byte order mark at byte \(offset + 1)"

    }
    return nil
  }

  /// The byte offset of the first control character, line separator, bidirectional control or
  /// byte order mark in `text`, or nil.
  package static func controlCharacterOffset(in text: String) -> Int? {
    var copy = text
    return copy.withUTF8 { unsafe controlCharacterOffset(ByteView($0)) }
  }

  /// The byte offset of the first control character, line separator, bidirectional control or
  /// byte order mark in valid UTF-8 bytes.
  package static func controlCharacterOffset(_ label: ByteView) -> Int? {
    // One pass over the bytes without a check each (most labels hold none of these); the
    // lookahead below reads through the checked subscript.
    var index = 0
    for byte in label {
      switch byte {
      case 0x00...0x1F, 0x7F: return index
      case 0xC2 where index + 1 < label.count && (0x80...0x9F).contains(label[index + 1]):
        return index  // C1 controls are C2 80 ... C2 9F
      case 0xE2
      where index + 2 < label.count && label[index + 1] == 0x80
        && (label[index + 2] == 0xA8 || label[index + 2] == 0xA9):
        return index  // U+2028, U+2029 are E2 80 A8, E2 80 A9
      case 0xE2
      where index + 2 < label.count && label[index + 1] == 0x80
        && (label[index + 2] == 0x8E || label[index + 2] == 0x8F
          || (0xAA...0xAE).contains(label[index + 2])):
        return index  // U+200E, U+200F, U+202A–U+202E: E2 80 8E/8F, E2 80 AA–AE
      case 0xE2
      where index + 2 < label.count && label[index + 1] == 0x81
        && (0xA6...0xA9).contains(label[index + 2]):
        return index  // U+2066–U+2069: E2 81 A6–A9
      case 0xEF
      where index + 2 < label.count && label[index + 1] == 0xBB && label[index + 2] == 0xBF:
        return index  // U+FEFF: EF BB BF
      case 0xD8 where index + 1 < label.count && label[index + 1] == 0x9C:
        return index  // U+061C: D8 9C
      default: index += 1
      }
    }
    return nil
  }
}
