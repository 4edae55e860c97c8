import DirectoryContainer
import PhoneNormalization

/// A prefix or range the user blocks, as a national plan writes one: `+33 1 62 ## ## ##` (each
/// trailing `#` any digit: a million numbers) or `+33162000000..+33162999999`. Spaces, dots,
/// dashes and brackets are ignored. No Foundation.
enum UserPrefix {
  /// The numbers `written` covers.
  /// - Parameter force: allow a prefix no longer than its country calling code.
  /// - Throws: ``ContainerAppError/Kind/badArgument`` naming the problem.
  static func range(_ written: String, force: Bool) throws(ContainerAppError) -> ClosedRange<Int64>
  {
    func refuse(_ problem: String) -> ContainerAppError {
      ContainerAppError("the prefix '\(written)': \(problem)", kind: .badArgument)
    }
    if let dots = written.firstRange(of: "..") {
      let first = try digits(written[..<dots.lowerBound], hashes: false, refuse)
      let last = try digits(written[dots.upperBound...], hashes: false, refuse)
      guard first.count == last.count else {
        throw refuse("its ends have different lengths (\(first.count) and \(last.count) digits)")
      }
      guard let low = Int64(first), let high = Int64(last), low <= high else {
        throw refuse("the range runs backwards")
      }
      try checkCountry(first, fixed: commonPrefixLength(first, last), force: force, refuse)
      return low...high
    }
    let pattern = try digits(written[...], hashes: true, refuse)
    let fixed = pattern.prefix { $0 != "#" }
    let free = pattern.count - fixed.count
    guard pattern.dropFirst(fixed.count).allSatisfy({ $0 == "#" }) else {
      throw refuse("'#' stands for the trailing digits only (+33 1 62 ## ## ##)")
    }
    guard free > 0 else { throw refuse("no '#': block one number with block, a prefix with '#'") }
    guard free <= 9 else { throw refuse("\(free) '#' is more than the lists' million numbers") }
    try checkCountry(String(fixed), fixed: fixed.count, force: force, refuse)
    let low = Int64(String(fixed) + String(repeating: "0", count: free))!
    let high = Int64(String(fixed) + String(repeating: "9", count: free))!
    guard Int(high - low) + 1 <= UserLists.maximumNumbers else {
      throw refuse(
        "it covers \(Int(high - low) + 1) numbers, more than the \(UserLists.maximumNumbers) the lists may hold"
      )
    }
    return low...high
  }

  /// The digits (and `#`) of one written number, which must start with `+`.
  private static func digits(
    _ text: Substring, hashes: Bool, _ refuse: (String) -> ContainerAppError
  ) throws(ContainerAppError) -> String {
    let trimmed = text.drop { $0 == " " }
    guard trimmed.first == "+" else { throw refuse("it does not start with '+' (an E.164 number)") }
    var digits = ""
    for character in trimmed.dropFirst() {
      switch character {
      case "0"..."9": digits.append(character)
      case "#" where hashes: digits.append(character)
      case " ", "-", "(", ")", ".": continue
      default: throw refuse("'\(character)' is not a digit\(hashes ? ", '#'" : "") or a separator")
      }
    }
    guard (2...PhoneNormalizer.maximumDigits).contains(digits.count), digits.first != "0" else {
      throw refuse("\(digits.count) digits is not the length of a phone number")
    }
    return digits
  }

  private static func commonPrefixLength(_ a: String, _ b: String) -> Int {
    zip(a, b).prefix { $0 == $1 }.count
  }

  /// Refuses a prefix whose fixed digits are only its country code, unless forced.
  private static func checkCountry(
    _ digits: String, fixed: Int, force: Bool, _ refuse: (String) -> ContainerAppError
  ) throws(ContainerAppError) {
    guard let code = CallingCode.length(in: digits) else {
      throw refuse("it starts with no country calling code")
    }
    if fixed <= code, !force {
      throw refuse(
        "it covers the whole country code +\(digits.prefix(code)) (give --force, or force: true, to mean it)"
      )
    }
  }
}
