import ByteCoding

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

/// Splits one line of TSV or CSV into fields (see ``Quoting``), as byte ranges: no `String` per
/// field (the compiler keeps rows as bytes). A quoted field that does not end on its line
/// continues on the next (the caller joins them).
enum DelimitedFields {
  enum Result {
    /// Split: each field's range is in the line, or in `unquoted` when the line had quoted
    /// fields (their quotes removed and `""` made one quote).
    case fields(inUnquoted: Bool)
    /// The line ends inside a quoted field: join it with the next line and split again.
    case needsMore
    /// Text after a closing quote (RFC 4180 quoting only).
    case badQuoting
    /// The bytes are not UTF-8.
    case badUTF8
  }

  /// Splits `line` into `fields` (cleared first); `unquoted` receives the bytes of quoted lines.
  static func split(
    _ line: ByteView, delimiter: UInt8, quoting: Quoting,
    fields: inout [Range<Int>], unquoted: inout [UInt8]
  ) -> Result {
    // Splitting at ASCII bytes and removing ASCII quotes keeps UTF-8 whole: one check per line.
    guard UTF8Validation.isValid(line) else { return .badUTF8 }
    fields.removeAll(keepingCapacity: true)
    if quoting == .none || line.firstIndex(of: UInt8(ascii: "\""), from: 0) == nil {
      var start = 0
      while true {
        let end = line.firstIndex(of: delimiter, from: start) ?? line.count
        fields.append(start..<end)
        guard end < line.count else { return .fields(inUnquoted: false) }
        start = end + 1
      }
    }
    unquoted.removeAll(keepingCapacity: true)
    var index = 0
    let count = line.count
    let quote = UInt8(ascii: "\"")
    while true {
      let start = unquoted.count
      if index < count && line[index] == quote {
        index += 1
        var closed = false
        while index < count {
          if line[index] == quote {
            if index + 1 < count && line[index + 1] == quote {
              unquoted.append(quote)
              index += 2
              continue
            }
            closed = true
            index += 1
            break
          }
          unquoted.append(line[index])
          index += 1
        }
        guard closed else { return .needsMore }
        guard index == count || line[index] == delimiter else { return .badQuoting }
      } else {
        // A quote inside an unquoted field is a character (RFC 4180 leaves it undefined).
        while index < count && line[index] != delimiter {
          unquoted.append(line[index])
          index += 1
        }
      }
      fields.append(start..<unquoted.count)
      if index >= count { return .fields(inUnquoted: true) }
      index += 1  // the delimiter
      if index == count {
        fields.append(unquoted.count..<unquoted.count)
        return .fields(inUnquoted: true)
      }
    }
  }
}
