import ByteCoding

/// Text fields of the manifest (base names, regions, chosen regions) come from input: they are
/// percent-escaped so that no value can break a line, a field or the chosen list, and no two
/// values read back the same. Escaped: `%`, `,`, control characters (tab, line breaks) and a
/// lone `-` (the manifest's "absent"). A manifest without any of these reads as before.
enum ManifestField {
  /// `text` as written in the manifest.
  static func escaped(_ text: String) -> String {
    if text == "-" { return "%2D" }
    var result = ""
    for scalar in text.unicodeScalars {
      if scalar == "%" || scalar == "," || scalar.value < 0x20 || scalar.value == 0x7F {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += "%" + (hex.count == 1 ? "0" + hex : hex)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// The value of an escaped field.
  /// - Throws: ``ManifestError`` for a `%` not followed by two hex digits, or a raw control
  ///   character.
  static func unescaped(_ field: String, line: Int) throws(ManifestError) -> String {
    guard field.utf8.contains(UInt8(ascii: "%")) || field.utf8.contains(where: { $0 < 0x20 })
    else { return field }
    var bytes: [UInt8] = []
    var iterator = field.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte >= 0x20, byte != 0x7F else {
        throw ManifestError(line: line, problem: "a field holds a control character")
      }
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue),
        let low = iterator.next().flatMap(hexValue)
      else {
        throw ManifestError(line: line, problem: "'%' must be followed by two hex digits")
      }
      bytes.append(high << 4 | low)
    }
    guard let text = String(validatingUTF8Bytes: bytes) else {
      throw ManifestError(line: line, problem: "an escaped field is not UTF-8")
    }
    return text
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
