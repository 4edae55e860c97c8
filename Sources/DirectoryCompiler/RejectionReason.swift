import PhoneNormalization

/// Why the compiler left out an input line: the report counts lines by reason.
package enum RejectionReason: Hashable, Sendable, CustomStringConvertible {
  /// A quoted CSV/TSV field never closes, or closes mid-field.
  case badQuoting
  /// The line's bytes are not UTF-8.
  case badUTF8
  /// The line is longer than `--max-line` (skipped in constant memory).
  case lineTooLong
  /// The line has fewer fields than the columns the header names.
  case missingColumn
  /// A JSON Lines line that is not a JSON object of strings and numbers.
  case badJSON
  /// An identification entry without a label.
  case emptyLabel
  /// A label longer than a base allows (`BaseFormat.BaseHeader.maximumLabelByteCount`).
  case labelTooLong
  /// A label holding a control character or a line break (`BaseFormat.LabelRule`): a label
  /// is one line of text.
  case labelControlCharacter
  /// A label holding a character that shows nothing (`BaseFormat.InvisibleCharacters`: a zero
  /// width space, a soft hyphen, a Hangul filler…): two labels that look alike would differ.
  case labelInvisibleCharacter
  /// A region name holding a control character, a bidirectional control or a character that
  /// shows nothing: an app's region chooser shows it.
  case regionUnreadable
  /// A rank that is not a whole number (`high`, `1e3`, `2.5`): a rank orders the seed set and
  /// the cap, so a row is not guessed into an order.
  case badRank
  /// The number cannot be normalized.
  case number(NormalizationError.Reason)

  /// The short text the report prints (`wrong length`, `bad quoting`).
  public var description: String {
    switch self {
    case .badQuoting: "bad quoting"
    case .badUTF8: "bad UTF-8"
    case .lineTooLong: "line too long"
    case .missingColumn: "missing column"
    case .badJSON: "bad JSON"
    case .emptyLabel: "empty label"
    case .labelTooLong: "label too long"
    case .labelControlCharacter:
      "control character, bidirectional control or byte order mark in label"
    case .labelInvisibleCharacter: "invisible character in label (zero width, soft hyphen, filler)"
    case .regionUnreadable:
      "control character, bidirectional control or invisible character in region"
    case .badRank: "bad rank"
    case .number(let reason): reason.rawValue
    }
  }
}
