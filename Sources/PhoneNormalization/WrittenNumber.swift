/// The digits of a number as people write it, and whether it was written with `+`.
///
/// Reading: skip leading text (`tel.: `, a BOM, quotes) up to the first digit, `+` or `(`; then
/// digits and separators (spaces, dashes, dots, slashes, parentheses, `~` as in Russia's `8~10`
/// "wait for the tone", no-break spaces and Unicode dashes) until anything else, which starts an
/// extension (`доб. 12`, `ext. 12`, `x12`) or a comment and is dropped.
struct WrittenNumber {
  /// The digits read, as values 0 to 9.
  var digits = DigitString()
  /// True when the number started with `+`.
  var plus = false
  /// True when there were more digits than ``DigitString/capacity``.
  var overflowed = false

  /// Reads the UTF-8 bytes of a written number (a buffer, not a generic string: this runs for
  /// every number of a dump, and a generic collection walk costs several times more).
  init(utf8: UnsafeBufferPointer<UInt8>) {
    var started = false
    var index = utf8.startIndex
    scan: while index != utf8.endIndex {
      let byte = utf8[index]
      utf8.formIndex(after: &index)
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        started = true
        if !digits.append(byte &- UInt8(ascii: "0")) { overflowed = true }
      case UInt8(ascii: "+") where !started:
        plus = true
        started = true
      case UInt8(ascii: "(") where !started:
        started = true
      case _ where !started:
        continue  // leading text, whatever its bytes
      case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"),
        UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "~"), UInt8(ascii: "\t"):
        continue
      case 0xC2:  // U+00A0 no-break space is C2 A0
        guard index != utf8.endIndex, utf8[index] == 0xA0 else { break scan }
        utf8.formIndex(after: &index)
      case 0xE2:  // U+2010...U+2014, the Unicode hyphens and dashes, are E2 80 90...94
        var next = index
        guard next != utf8.endIndex, utf8[next] == 0x80 else { break scan }
        utf8.formIndex(after: &next)
        guard next != utf8.endIndex, (0x90...0x94).contains(utf8[next]) else { break scan }
        utf8.formIndex(after: &next)
        index = next
      default:
        break scan
      }
    }
  }
}
