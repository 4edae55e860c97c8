/// How many decimal digits `value` is written with (at least 1; a phone number's digits, a
/// keyword's length).
public func decimalDigitCount(_ value: Int64) -> Int {
  var count = 1
  var rest = value / 10
  while rest != 0 {
    count += 1
    rest /= 10
  }
  return count
}
