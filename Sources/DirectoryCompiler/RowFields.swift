import ByteCoding

/// One input row's fields as the input spells them, before normalization: views of the reader's
/// buffer, valid only inside the closure they are handed to (rows stay bytes from the file to
/// the base; a `String` per field was a fifth of a compile's instructions). Texts are UTF-8.
struct RowFields {
  /// The number as written.
  var number: ByteView
  /// The label as written (may be empty: the compiler rejects empty labels later).
  var label: ByteView
  /// The region column, nil when absent or empty.
  var region: ByteView?
  var rank: Int64?
  /// The category column, nil when absent or empty.
  var category: ByteView?
  /// The row's own country (ISO code), trimmed; nil when absent or empty.
  var country: ByteView?
  /// The physical line the row starts on (1-based; 0 for rows of a base).
  var line: Int
  /// Read from a blocking base: blocked whatever the categories say.
  var fromBlockingBase = false

  /// `text`, or nil when it is empty.
  static func nonEmpty(_ text: ByteView) -> ByteView? {
    text.isEmpty ? nil : text
  }

  /// The decimal integer `text` spells after trimming whitespace, as `Int64(_: String)` reads
  /// it (an optional sign, then digits); nil otherwise or on overflow.
  static func integer(_ text: ByteView) -> Int64? {
    let digits = UTF8Validation.trimmingWhitespace(text)
    guard let first = digits.first else { return nil }
    let negative = first == UInt8(ascii: "-")
    let start = negative || first == UInt8(ascii: "+") ? 1 : 0
    guard start < digits.count else { return nil }
    var value: Int64 = 0
    for byte in digits.rebased(from: start) {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      let digit = Int64(byte - UInt8(ascii: "0"))
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) =
        negative
        ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
      guard !overflow, !overflow2 else { return nil }
      value = next
    }
    return value
  }
}
