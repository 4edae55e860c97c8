/// JSON string escaping (RFC 8259 §7), shared by the writers of JSON text: quotes, backslashes
/// and control characters escaped, everything else as it is.
@usableFromInline package enum JSONStringEscaping {
  /// `text` escaped for the inside of a JSON string (without the quotes).
  @usableFromInline package static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
