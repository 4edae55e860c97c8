import DirectoryCompiler

/// Any bytes as a pattern file's pattern field (issue 54), one per line: an error, or a pattern
/// whose ranges ascend, never overlap, lie between its first and last number and hold its count.
enum PatternProperty {
  /// Patterns with more ranges than this are checked by their counts alone (10^6 ranges would
  /// make one input take seconds).
  static let rangesExpanded = 10_000

  static func check(_ input: [UInt8]) {
    let text = String(decoding: input, as: UTF8.self)
    for line in text.split(separator: "\n").prefix(64) {
      guard let pattern = try? NumberPattern(String(line)) else { continue }
      precondition(pattern.first > 0 && pattern.first <= pattern.last, "first above last")
      precondition(pattern.last <= 999_999_999_999_999, "past 15 digits")
      precondition(pattern.rangeCount >= 1 && pattern.rangeCount <= pattern.numberCount)
      guard pattern.rangeCount <= rangesExpanded else { continue }
      var previous: Int64 = 0
      var numbers = 0
      pattern.forEachRange { range in
        precondition(range.lowerBound > previous, "ranges not ascending or overlapping")
        precondition(range.lowerBound >= pattern.first && range.upperBound <= pattern.last)
        numbers += range.count
        previous = range.upperBound
      }
      precondition(numbers == pattern.numberCount, "the ranges do not hold the pattern's count")
    }
  }
}
