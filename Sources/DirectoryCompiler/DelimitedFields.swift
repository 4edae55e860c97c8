/// Splits one line of TSV or CSV into fields with RFC 4180 quoting: a field may be wrapped in
/// double quotes, inside which the delimiter and line ends are literal and `""` is one quote. A
/// quoted field that does not end on its line continues on the next (the caller joins them).
enum DelimitedFields {
  enum Result {
    case fields([String])
    /// The line ends inside a quoted field: join it with the next line and split again.
    case needsMore
    /// A quote in the middle of an unquoted field, or text after a closing quote.
    case badQuoting
    /// The bytes are not UTF-8.
    case badUTF8
  }

  static func split(_ line: UnsafeRawBufferPointer, delimiter: UInt8) -> Result {
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
        while index < count && line[index] != delimiter {
          if line[index] == quote { return .badQuoting }
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
}
