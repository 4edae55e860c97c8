import ByteCoding
import PhoneNormalization

/// Any bytes as a written number, read with several countries (and none) and both validations,
/// as `normalize`, `compile` and `host lookup` read it: an error, or a CallKit number of at
/// most 18 digits that starts with an assigned calling code and whose national digits are the
/// digits written, in order, after a documented prefix (``WrittenDigitsProperty``); the same
/// bytes read as a String give the same answer.
enum NormalizeProperty {
  /// None, and regions whose rules exercise every path: transforms (AR, BR, AG), several
  /// international prefixes (AU, CN), a national prefix kept as part of the number (IT).
  static let countries: [String?] = [nil, "RU", "US", "AR", "BR", "AG", "AU", "CN", "IT", "JP"]
  static let normalizers: [PhoneNormalizer] = countries.flatMap { country in
    PhoneNormalizer.Validation.allCases.map { validation in
      try! PhoneNormalizer(country: country, validation: validation)
    }
  }

  static func check(_ input: [UInt8]) {
    let text = String(validatingUTF8Bytes: input)
    for normalizer in normalizers {
      let fromBytes = unsafe input.withUnsafeBufferPointer {
        unsafe try? normalizer.normalize(utf8: ByteView($0))
      }
      if let number = fromBytes {
        precondition(number > 0 && number <= 999_999_999_999_999_999, "\(number) out of range")
        precondition(CallingCode.split(number) != nil, "\(number) has no calling code")
        if let text, let violation = WrittenDigitsProperty.violation(written: text, number: number)
        {
          preconditionFailure(violation)
        }
      }
      if let text {
        precondition((try? normalizer.normalize(text)) == fromBytes, "String and bytes disagree")
      }
    }
  }
}
