import ByteCoding

/// Up to ``capacity`` decimal digits held in a value (no heap allocation per number: normalizing
/// millions of numbers a second allocates nothing). Digits are stored as their values, 0 to 9,
/// which is what the automata index by. A suffix shares the storage and moves its start, so
/// dropping a prefix (an international or national prefix, a calling code) copies nothing.
struct DigitString {
  /// More digits than any written number holds: an international prefix of at most 9 digits
  /// (Australia's `14xx0011`), a 3-digit calling code, a national number of at most 17, and a
  /// national prefix. Under 64, so that match ends (0 to 48) fit one `UInt64` bitmask.
  static let capacity = 48

  private var storage = SIMD64<UInt8>()
  private var start = 0
  private var end = 0

  init() {}

  /// The digits of `value` (`7`, `44`): calling codes are compared and prepended this way.
  init(_ value: Int) {
    var length = 1
    var power = 10
    while value >= power && length < 18 {
      length += 1
      power *= 10
    }
    var rest = value
    for index in stride(from: length - 1, through: 0, by: -1) {
      storage[index] = UInt8(rest % 10)
      rest /= 10
    }
    end = length
  }

  /// The number of digits.
  /// The digits of ASCII text that holds only the digits 0-9, at most ``capacity`` of them, in
  /// one pass over the storage (an append per digit copies the whole vector each time).
  /// - Precondition: every byte is an ASCII digit, and there are at most ``capacity``.
  init(asciiDigits text: ByteView) {
    precondition(text.count <= Self.capacity, "more digits than a DigitString holds")
    // Safe: `digits` is the tuple's own bytes, alive for the closure, and every index is below
    // `text.count`, which the precondition holds to at most `capacity`, the tuple's byte count.
    unsafe withUnsafeMutableBytes(of: &storage) { digits in
      for (index, byte) in text.enumerated() { unsafe digits[index] = byte &- UInt8(ascii: "0") }
    }
    end = text.count
  }

  var count: Int { end - start }

  /// The digit at `index` (0 to 9), counted from this string's start.
  subscript(index: Int) -> UInt8 { storage[start + index] }

  /// Appends one digit value; false when full.
  mutating func append(_ digit: UInt8) -> Bool {
    guard end < Self.capacity else { return false }
    storage[end] = digit
    end += 1
    return true
  }

  /// The digits from `index` on.
  func suffix(from index: Int) -> DigitString {
    var result = self
    result.start = start + min(index, count)
    return result
  }

  /// These digits without the last `count`.
  func dropping(last count: Int) -> DigitString {
    var result = self
    result.end = max(start, end - count)
    return result
  }

  /// These digits, then `other`'s from `index` on; nil when they do not fit.
  func appending(_ other: DigitString, from index: Int) -> DigitString? {
    var result = self
    for position in index..<other.count where !result.append(other[position]) { return nil }
    return result
  }

  /// True when the digits start with `prefix`'s.
  func hasPrefix(_ prefix: DigitString) -> Bool {
    guard prefix.count <= count else { return false }
    for index in 0..<prefix.count where self[index] != prefix[index] { return false }
    return true
  }

  /// The number these digits spell; nil past 18 digits (an Int64 holds every 18-digit number).
  var int64Value: Int64? {
    guard count <= 18 else { return nil }
    var value: Int64 = 0
    for index in start..<end { value = value &* 10 &+ Int64(storage[index]) }
    return value
  }

  /// The digits as text (`4951234567`), for error messages.
  var text: String {
    String(decoding: (0..<count).map { self[$0] + UInt8(ascii: "0") }, as: UTF8.self)
  }
}
