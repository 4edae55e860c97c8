/// How a delimited file quotes its fields.
public enum Quoting: String, Sendable, CaseIterable {
  /// RFC 4180: a field may be wrapped in double quotes, inside which the delimiter and line ends
  /// are literal and `""` is one quote. A quote inside an unquoted field is a character, as
  /// Python's csv module and spreadsheet exports read it. CSV's default.
  case rfc4180
  /// No quoting: a double quote is a character (`ООО "Ромашка"`). TSV's default: the format
  /// has no quoting, and Russian company names are full of quotes.
  case none
}

/// Splits one line of TSV or CSV into fields (see ``Quoting``). A quoted field that does not end
/// on its line continues on the next (the caller joins them).
enum DelimitedFields {
  enum Result {
    case fields([String])
    /// The line ends inside a quoted field: join it with the next line and split again.
    case needsMore
    /// Text after a closing quote (RFC 4180 quoting only).
    case badQuoting
    /// The bytes are not UTF-8.
    case badUTF8
  }

  static func split(_ line: UnsafeRawBufferPointer, delimiter: UInt8, quoting: Quoting) -> Result {
    if quoting == .none { return splitUnquoted(line, delimiter: delimiter) }
    var fields: [String] = []
    var field: [UInt8] = []
    var index = 0
    let count = line.count
    let quote = UInt8(ascii: "\"")
    while true {
      field.removeAll(keepingCapacity: true)
      if index < count && line[index] == quote {
        index += 1
        var closed = false
        while index < count {
          if line[index] == quote {
            if index + 1 < count && line[index + 1] == quote {
              field.append(quote)
              index += 2
              continue
            }
            closed = true
            index += 1
            break
          }
          field.append(line[index])
          index += 1
        }
        guard closed else { return .needsMore }
        guard index == count || line[index] == delimiter else { return .badQuoting }
      } else {
        // A quote inside an unquoted field is a character (RFC 4180 leaves it undefined).
        while index < count && line[index] != delimiter {
          field.append(line[index])
          index += 1
        }
      }
      guard let text = String(validating: field, as: UTF8.self) else { return .badUTF8 }
      fields.append(text)
      if index >= count { return .fields(fields) }
      index += 1  // the delimiter
      if index == count {
        fields.append("")
        return .fields(fields)
      }
    }
  }

  /// Fields separated by `delimiter`, quotes and all.
  private static func splitUnquoted(_ line: UnsafeRawBufferPointer, delimiter: UInt8) -> Result {
    var fields: [String] = []
    for bytes in line.split(separator: delimiter, omittingEmptySubsequences: false) {
      guard let text = String(validating: bytes, as: UTF8.self) else { return .badUTF8 }
      fields.append(text)
    }
    return .fields(fields)
  }
}
