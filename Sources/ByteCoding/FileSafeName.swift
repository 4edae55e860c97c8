/// Text from input (a region, a category, a bundle identifier) as a file name, one-to-one: ASCII
/// letters, digits, `-` and the characters in `keeping` stay; every other byte becomes `_` and
/// two hex digits (`A B` → `A_20B`, `A_B` → `A_5FB`, `a/b` → `a_2Fb`). No two texts share a name,
/// and no name holds a separator, a tab or a line break.
@usableFromInline package enum FileSafeName {
  /// The file name for `text`.
  @usableFromInline package static func encode(_ text: String, keeping: Set<UInt8> = []) -> String {
    var name = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
        name.unicodeScalars.append(Unicode.Scalar(byte))
      case _ where keeping.contains(byte) && byte != UInt8(ascii: "_"):
        name.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        name += "_" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return name
  }
}
