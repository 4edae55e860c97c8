import Foundation

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
    let bytes = line.assumingMemoryBound(to: UInt8.self)
    var fields: [String] = []
    fields.reserveCapacity(8)
    var start = 0
    while true {
      var end = start
      while end < bytes.count && bytes[end] != delimiter { end += 1 }
      guard let text = validatedString(UnsafeBufferPointer(rebasing: bytes[start..<end])) else {
        return .badUTF8
      }
      fields.append(text)
      guard end < bytes.count else { return .fields(fields) }
      start = end + 1
    }
  }

  /// The string `bytes` spell, nil when they are not UTF-8. `String(validating:as:)` took the
  /// standard library's generic path, with type metadata looked up per call (an eighth of a
  /// compile's instructions); decoding, which repairs, and then checking that nothing was
  /// repaired (the bytes come back unchanged) is the standard library's fast path twice.
  static func validatedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    var text = String(decoding: bytes, as: UTF8.self)
    let unchanged = text.withUTF8 { decoded in
      decoded.count == bytes.count
        && (bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
    }
    return unchanged ? text : nil
  }
}
