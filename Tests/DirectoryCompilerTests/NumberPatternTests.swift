import DirectoryCompiler
import Testing

/// Patterns as national plans write them, and the rule sets they resolve to (issue 54).
@Suite("Number patterns and rule sets")
struct NumberPatternTests {
  func ranges(_ text: String) throws -> [ClosedRange<Int64>] {
    var ranges: [ClosedRange<Int64>] = []
    try NumberPattern(text).forEachRange { ranges.append($0) }
    return ranges
  }

  @Test func trailingWildcardsMakeOneRangeAndInnerOnesMultiplyThem() throws {
    #expect(try ranges("+33 1 62 ## ## ##") == [33_162_000_000...33_162_999_999])
    #expect(try NumberPattern("+33 1 62 ## ## ##").numberCount == 1_000_000)
    // A `#` before the last run: ten ranges of 100, ascending.
    let inner = try ranges("+33 1 6# 00 00 ##")
    #expect(inner.count == 10)
    #expect(inner.first == 33_160_000_000...33_160_000_099)
    #expect(inner.last == 33_169_000_000...33_169_000_099)
    #expect(zip(inner, inner.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound })
    // Two inner `#` and no trailing run: 100 ranges of one number, matching a naive expansion.
    let naive: [Int64] = (0..<Int64(100)).map { (choice: Int64) -> Int64 in
      let thousands: Int64 = (choice / 10) * 1_000
      return 331_620_000_000 + thousands + (choice % 10) * 10
    }
    #expect(try ranges("+33 1 62 00 0# 0# 0").map(\.lowerBound) == naive)
    #expect(try ranges("+33162000000..+33162000099") == [33_162_000_000...33_162_000_099])
  }

  @Test(arguments: [
    ("33162", "does not start with '+'"), ("+33 1 62 ## ## #x", "'x'"),
    ("+33 1..+33 2..+33 3", "more than one '..'"), ("+33162..+3316", "different lengths"),
    ("+33163..+33162", "runs backwards"), ("+3316#..+33169", "'#' in a range's end"),
    ("+0331", "no country code"), ("+#331", "no country code"),
    ("+3316299999999999", "16 digits"),
  ])
  func malformedPatternsAreRefusedWithTheReason(text: String, reason: String) {
    #expect {
      _ = try NumberPattern(text)
    } throws: { error in
      "\(error)".contains(reason)
    }
  }

  func rule(_ text: String, priority: Int = 0, label: String = "") throws -> PatternRule {
    PatternRule(
      source: "t:1", pattern: try NumberPattern(text), text: text, label: label,
      priority: priority, category: "")
  }

  func resolved(_ rules: [PatternRule], allowed: [Int64] = [], budget: Int = 1 << 40) throws
    -> [(ClosedRange<Int64>, Int)]
  {
    var out: [(ClosedRange<Int64>, Int)] = []
    _ = try RuleSet.resolve(rules, allowed: allowed, budget: budget) { out.append(($0, $1)) }
    return out
  }

  @Test func overlapsGoToTheHigherPriorityThenTheEarlierRuleAndEachNumberOnce() throws {
    let rules = [
      try rule("+33162000000..+33162000999"),
      try rule("+33162000500..+33162001499", priority: 2),
      try rule("+33162000000..+33162002999"),
    ]
    let out = try resolved(rules)
    #expect(
      out.map(\.0) == [
        33_162_000_000...33_162_000_499, 33_162_000_500...33_162_001_499,
        33_162_001_500...33_162_002_999,
      ])
    #expect(out.map(\.1) == [0, 1, 2])
    // Every number once: the ranges are disjoint and cover the union.
    #expect(out.reduce(0) { $0 + $1.0.count } == 3_000)
  }

  @Test func allowedNumbersAreCutOutAndTheBudgetHolds() throws {
    let rules = [try rule("+33 1 62 00 00 ##")]
    let out = try resolved(rules, allowed: [1, 33_162_000_000, 33_162_000_050, 33_162_000_099])
    #expect(out.map(\.0) == [33_162_000_001...33_162_000_049, 33_162_000_051...33_162_000_098])
    #expect(throws: CompileError.self) { try resolved(rules, budget: 99) }
    #expect(try resolved(rules, budget: 100).count == 1)
  }

  /// Random rule sets against a naive expansion: each number given once, by the rule of highest
  /// priority then the earliest, the allowed ones absent.
  @Test func randomRuleSetsMatchANaiveExpansion() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      var rules: [PatternRule] = []
      for _ in 0..<Int.random(in: 1...6, using: &generator) {
        let first = Int64.random(in: 0...300, using: &generator)
        let last = first + Int64.random(in: 0...120, using: &generator)
        rules.append(
          try rule(
            "+3316200\(String(format: "%04d", first))..+3316200\(String(format: "%04d", last))",
            priority: Int.random(in: 0...2, using: &generator)))
      }
      let allowed = (0..<5).map { _ in 33_162_000_000 + Int64.random(in: 0...420) }
      var expected: [Int64: Int] = [:]
      for (index, rule) in rules.enumerated() {
        for number in rule.pattern.first...rule.pattern.last where !allowed.contains(number) {
          if let holder = expected[number], rules[holder].priority >= rule.priority { continue }
          expected[number] = index
        }
      }
      var got: [Int64: Int] = [:]
      for (range, index) in try resolved(rules, allowed: Array(Set(allowed)).sorted()) {
        for number in range {
          #expect(got[number] == nil)
          got[number] = index
        }
      }
      #expect(got == expected)
    }
  }
}
