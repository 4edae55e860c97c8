/// Phone numbers as people type them for a lookup: CallKit digits (`74951234567`) or the `+`
/// form with spaces, dashes, dots and parentheses (`+7 (495) 123-45-67`). National forms
/// (`8 495 …`) need a country's rules: that is the compiler's normalizer.
public enum PhoneNumberText {
  /// The CallKit number.
  /// - Throws: ``HostError/input(_:)`` naming the text and what is wrong with it.
  public static func parse(_ text: String) throws -> Int64 {
    var digits = ""
    for (index, character) in text.enumerated() {
      if character.isASCII && character.isNumber {
        digits.append(character)
      } else if character == "+" && index == 0 {
        continue
      } else if " -.()".contains(character) {
        continue
      } else {
        throw HostError.input("'\(text)' is not a phone number: unexpected '\(character)'")
      }
    }
    guard !digits.isEmpty, digits.first != "0", digits.count <= 18, let number = Int64(digits)
    else {
      throw HostError.input(
        "'\(text)' is not a phone number: expected a country code and a national number (1 to 18 digits, no leading 0)"
      )
    }
    return number
  }
}
