/// How many decimal digits `value` is written with (at least 1; a phone number's digits, a
/// keyword's length).
@usableFromInline package func decimalDigitCount(_ value: Int64) -> Int {
  var count = 1
  var rest = value / 10
  while rest != 0 {
    count += 1
    rest /= 10
  }
  return count
}

/// Decimal text made as bytes: a file of a million numbers written without a String a line.
@usableFromInline package enum DecimalText {
  /// Appends the decimal digits of `value` (≥ 0; a negative value is written as 0).
  @usableFromInline package static func append(_ value: Int64, to bytes: inout [UInt8]) {
    let count = decimalDigitCount(max(value, 0))
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
    var rest = max(value, 0)
    var index = start + count - 1
    while rest > 0 {
      bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
      index -= 1
    }
  }
}
