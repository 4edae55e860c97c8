/// Country calling codes (ITU-T E.164 assignments): 1 to 3 digits, a prefix code, so the digits
/// of an international number say where its country code ends.
public enum CallingCode {
  /// The two-digit codes (ITU-T E.164 Annex, zones 2–9); every other code under 10 is `1` or `7`,
  /// every other code from 10 on has three digits.
  static let twoDigitCodes: Set<Int64> = [
    20, 27, 30, 31, 32, 33, 34, 36, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54, 55,
    56, 57, 58, 60, 61, 62, 63, 64, 65, 66, 81, 82, 84, 86, 90, 91, 92, 93, 94, 95, 98,
  ]

  /// The number of digits of the country calling code that `digits` (an international number,
  /// no `+`) starts with: 1, 2 or 3; nil when `digits` is shorter than that.
  public static func length(in digits: some StringProtocol) -> Int? {
    guard let first = digits.first, let firstValue = first.wholeNumberValue else { return nil }
    if first == "1" || first == "7" { return 1 }
    guard digits.count >= 2, let second = digits.dropFirst().first?.wholeNumberValue else {
      return nil
    }
    if twoDigitCodes.contains(Int64(firstValue * 10 + second)) { return 2 }
    return digits.count >= 3 ? 3 : nil
  }

  /// The country calling code and the national significant number of a CallKit number
  /// (`74951234567` → 7 and `4951234567`); nil when the number is too short to hold a code.
  public static func split(_ number: Int64) -> (code: Int64, national: String)? {
    let digits = String(number)
    guard let length = length(in: digits), digits.count > length else { return nil }
    return (Int64(digits.prefix(length))!, String(digits.dropFirst(length)))
  }
}
