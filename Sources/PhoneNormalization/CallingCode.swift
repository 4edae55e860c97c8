/// Country calling codes (ITU-T E.164 assignments, as libphonenumber's metadata has them): 1 to
/// 3 digits, a prefix code, so the digits of an international number say where its code ends.
package enum CallingCode {
  /// The number of digits of the assigned calling code that `digits` (an international number,
  /// no `+`) starts with: 1, 2 or 3; nil when it starts with none.
  package static func length(in digits: some StringProtocol) -> Int? {
    var code = 0
    for (length, character) in digits.prefix(3).enumerated() {
      guard let value = character.wholeNumberValue, !(length == 0 && value == 0) else { return nil }
      code = code * 10 + value
      if NumberingTables.shared.isCallingCode(code) { return length + 1 }
    }
    return nil
  }

  /// The country calling code and the national significant number of a CallKit number
  /// (`74951234567` → 7 and `4951234567`); nil when the number starts with no assigned code or
  /// holds nothing after it.
  package static func split(_ number: Int64) -> (code: Int64, national: String)? {
    let digits = String(number)
    guard let length = length(in: digits), digits.count > length else { return nil }
    return (Int64(digits.prefix(length))!, String(digits.dropFirst(length)))
  }
}
