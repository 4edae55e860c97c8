import ArgumentParser

// Every numeric option's transform: a value outside its range is a usage error naming the
// range, at parse time (issue 52, item 12: `--seed-size` 2^62 trapped, `--repeat` 2^63−1 ran
// for ever, `--max-time-to-enabled inf` spun). `OptionBoundsTests` walks every numeric option
// the parser lists with 2^63−1, −1, 0, inf and nan.

/// A whole number in `range`.
/// - Returns: the transform an `@Option` takes.
func wholeNumber(in range: ClosedRange<Int>) -> @Sendable (String) throws -> Int {
  { text in
    guard let value = Int(text), range.contains(value) else {
      throw ValidationError(
        "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
  }
}

/// A finite number in `range` (never `inf` or `nan`).
/// - Returns: the transform an `@Option` takes.
func finiteNumber(in range: ClosedRange<Double>) -> @Sendable (String) throws -> Double {
  { text in
    guard let value = Double(text), value.isFinite, range.contains(value) else {
      throw ValidationError(
        "must be a number from \(plain(range.lowerBound)) to \(plain(range.upperBound))")
    }
    return value
  }
}

/// `30` rather than `30.0`, for the messages.
private func plain(_ value: Double) -> String {
  value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}

/// The bounds the options share, each with why.
enum OptionBounds {
  /// Repeats of a measured run: 1,000 is hours of a bench already.
  static let repeats = 1...1_000
  /// Seconds a step may take (a timeout, a target): a day.
  static let seconds = 0.0...86_400.0
  /// Threads: far more than any machine's cores.
  static let threads = 1...1_024
  /// A priority, a version, a count of kept things: a billion, beyond any real use and far
  /// from overflow when added up.
  static let count = 0...1_000_000_000
  /// A base's priority: higher wins; a billion either way.
  static let priority = -1_000_000_000...1_000_000_000
  /// A percentage.
  static let percent = 0.0...100.0
  /// Entries of one kind: the largest dump a generator or a compile takes (ten billion).
  static let entries = 0...10_000_000_000
}
