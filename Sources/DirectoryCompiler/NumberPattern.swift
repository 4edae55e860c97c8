/// One number pattern of a pattern file, as a national plan writes it (issue 54): an E.164
/// number with `#` for any digit (`+33 1 62 ## ## ##`: a million numbers), or an inclusive range
/// of two numbers of one length (`+33162000000..+33162999999`). Spaces are allowed anywhere.
///
/// A pattern with k `#` holds 10^k numbers. Its trailing run of `#` makes each range contiguous;
/// every `#` before it multiplies the ranges by ten (`+33 1 6# 00 00 ##`: ten ranges of 100), in
/// ascending order, so a pattern is never expanded into numbers, only into ranges.
public struct NumberPattern: Equatable, Sendable {
  /// The digits with `#` kept, without `+` or spaces.
  public let digits: [UInt8]
  /// For a range `A..B`: B's digits (A's are ``digits``); nil for a `#` pattern.
  public let rangeEnd: [UInt8]?

  /// The longest number a pattern may describe: 15 digits, E.164's longest.
  public static let maximumDigits = 15

  /// Why a pattern was refused, in words for a one-line error.
  public struct Refusal: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
  }

  /// Parses a pattern's text.
  /// - Throws: ``Refusal`` for a missing `+`, a character other than digits, `#` and spaces, a
  ///   number past 15 digits, a range whose ends differ in length or run backwards, or `#` in a
  ///   range.
  public init(_ text: String) throws(Refusal) {
    let parts = text.components(separatedBy: "..")
    guard parts.count <= 2 else { throw Refusal("more than one '..' in \"\(text)\"") }
    let first = try Self.number(parts[0], hashes: parts.count == 1)
    guard parts.count == 2 else {
      digits = first
      rangeEnd = nil
      return
    }
    let last = try Self.number(parts[1], hashes: false)
    guard first.count == last.count else {
      throw Refusal(
        "the range's ends have different lengths (\(first.count) and \(last.count) digits)")
    }
    guard first.lexicographicallyPrecedes(last) || first == last else {
      throw Refusal("the range runs backwards (its first number is above its last)")
    }
    digits = first
    rangeEnd = last
  }

  /// One side's digits: `+` first, then digits, `#` (when allowed) and spaces.
  private static func number(_ text: String, hashes: Bool) throws(Refusal) -> [UInt8] {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("+") else {
      throw Refusal("\"\(trimmed)\" does not start with '+' (patterns are E.164 numbers)")
    }
    var digits: [UInt8] = []
    for character in trimmed.utf8.dropFirst() {
      switch character {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(character)
      case UInt8(ascii: "#") where hashes: digits.append(character)
      case UInt8(ascii: " "): continue
      case UInt8(ascii: "#"): throw Refusal("'#' in a range's end \"\(trimmed)\"")
      default:
        throw Refusal(
          "'\(Character(Unicode.Scalar(character)))' in \"\(trimmed)\" (only '+', digits, '#' and spaces)"
        )
      }
    }
    guard digits.first.map({ $0 != UInt8(ascii: "0") && $0 != UInt8(ascii: "#") }) ?? false else {
      throw Refusal("\"\(trimmed)\" has no country code after '+'")
    }
    guard digits.count >= 4, digits.count <= maximumDigits else {
      throw Refusal("\"\(trimmed)\" has \(digits.count) digits (4 to \(maximumDigits))")
    }
    return digits
  }

  /// `#` characters in the pattern (0 for a range).
  public var wildcardCount: Int { digits.reduce(0) { $1 == UInt8(ascii: "#") ? $0 + 1 : $0 } }

  /// The trailing run of `#`: its numbers' contiguous part.
  var trailingWildcards: Int { digits.reversed().prefix { $0 == UInt8(ascii: "#") }.count }

  /// How many numbers the pattern holds (10^k for k `#`, last − first + 1 for a range): at most
  /// 10^15, so it never overflows.
  public var numberCount: Int {
    if rangeEnd != nil { return Int(last - first) + 1 }
    var count = 1
    for _ in 0..<wildcardCount { count *= 10 }
    return count
  }

  /// How many ranges it makes: 10 to the power of the `#` before the trailing run.
  public var rangeCount: Int {
    var count = 1
    for _ in 0..<(wildcardCount - trailingWildcards) { count *= 10 }
    return count
  }

  /// Its lowest number (every `#` a 0).
  public var first: Int64 { Self.value(digits, wildcard: 0) }
  /// Its highest number (every `#` a 9; a range's end).
  public var last: Int64 { Self.value(rangeEnd ?? digits, wildcard: 9) }

  static func value(_ digits: [UInt8], wildcard: Int64) -> Int64 {
    digits.reduce(Int64(0)) {
      $0 * 10 + ($1 == UInt8(ascii: "#") ? wildcard : Int64($1 - UInt8(ascii: "0")))
    }
  }

  /// Calls `body` with each of its ranges, ascending (``rangeCount`` of them).
  public func forEachRange(_ body: (ClosedRange<Int64>) throws -> Void) rethrows {
    if rangeEnd != nil {
      try body(first...last)
      return
    }
    let inner = digits.dropLast(trailingWildcards)
    let span = Int64(numberCount / rangeCount)
    let innerPositions = inner.indices.filter { inner[$0] == UInt8(ascii: "#") }
    var filled = Array(inner)
    for choice in 0..<rangeCount {
      // The inner `#` take the digits of `choice`, most significant first: ascending order.
      var rest = choice
      for position in innerPositions.reversed() {
        filled[position] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      }
      let start = Self.value(filled, wildcard: 0) * span
      try body(start...(start + span - 1))
    }
  }
}
