import BaseFormat
import HeapModule

/// The rules of one kind resolved into a rule base's sorted, disjoint ranges (issue 54): where
/// patterns overlap, each number is given once, by the rule of highest priority (then the
/// earlier one); allowed numbers (`--allow`) are cut out of every range.
///
/// A sweep over the ranges' starts with swift-collections' `Heap` of the ranges that cover the
/// current number: O(r log r) for r ranges, and never a number at a time.
public enum RuleSet {
  /// What resolving wrote.
  public struct Written: Equatable, Sendable {
    /// Numbers in the rule base.
    public var numbers = 0
    /// Ranges in the rule base.
    public var ranges = 0
    /// Allowed numbers that a rule held (cut out).
    public var allowedCut = 0
  }

  /// One range of one rule, before overlaps are resolved.
  struct Piece {
    var first: Int64
    var last: Int64
    var rule: Int
  }

  /// The ranges of `rules` (overlaps resolved), less `allowed`, through `emit` in ascending
  /// order.
  /// - Parameters:
  ///   - allowed: numbers no rule may give, ascending and distinct.
  ///   - budget: the most numbers the rules may hold together (`--max-pattern-entries`).
  ///   - emit: called with each range and the index of the rule that gives it.
  /// - Throws: ``CompileError`` past the budget or past the format's range count, or what
  ///   `emit` throws.
  public static func resolve(
    _ rules: [PatternRule], allowed: [Int64], budget: Int,
    emit: (ClosedRange<Int64>, Int) throws -> Void
  ) throws -> Written {
    let rangeTotal = rules.reduce(0) { $0 + $1.pattern.rangeCount }
    guard rangeTotal <= RuleBaseFormat.maximumRangeCount else {
      throw CompileError.usage(
        "the patterns make \(rangeTotal) ranges, past the rule base's \(RuleBaseFormat.maximumRangeCount) ('#' before the last digits multiplies ranges by ten each)"
      )
    }
    var pieces: [Piece] = []
    pieces.reserveCapacity(rangeTotal)
    for (index, rule) in rules.enumerated() {
      rule.pattern.forEachRange {
        pieces.append(Piece(first: $0.lowerBound, last: $0.upperBound, rule: index))
      }
    }
    pieces.sort { ($0.first, $0.rule) < ($1.first, $1.rule) }
    var written = Written()
    var allowedIndex = 0
    // Emits one resolved segment, cut around the allowed numbers inside it.
    func segment(_ first: Int64, _ last: Int64, _ rule: Int) throws {
      var start = first
      while allowedIndex < allowed.count, allowed[allowedIndex] < first { allowedIndex += 1 }
      while allowedIndex < allowed.count, allowed[allowedIndex] <= last {
        let cut = allowed[allowedIndex]
        if cut > start { try piece(start, cut - 1, rule) }
        start = cut + 1
        written.allowedCut += 1
        allowedIndex += 1
      }
      if start <= last { try piece(start, last, rule) }
    }
    // Gathers adjacent segments of one rule into one range.
    var pending: (first: Int64, last: Int64, rule: Int)?
    func piece(_ first: Int64, _ last: Int64, _ rule: Int) throws {
      if let open = pending, open.rule == rule, open.last + 1 == first {
        pending!.last = last
        return
      }
      try flush()
      pending = (first, last, rule)
    }
    func flush() throws {
      guard let open = pending else { return }
      written.numbers += Int(open.last - open.first) + 1
      guard written.numbers <= budget else {
        // The line that crossed the budget, and the plan's size: its patterns' counts added up
        // (numbers two patterns share count twice; resolving stops here).
        let rule = rules[open.rule]
        let (sum, overflowed) = rules.reduce((0, false)) { total, rule in
          let (next, over) = total.0.addingReportingOverflow(rule.pattern.numberCount)
          return (next, total.1 || over)
        }
        let size = overflowed ? "more than \(Int.max)" : "up to \(sum)"
        throw CompileError.usage(
          "\(rule.source): \(rule.text) takes the patterns past --max-pattern-entries \(budget) numbers; together they hold \(size) (raise it to allow them)"
        )
      }
      written.ranges += 1
      try emit(open.first...open.last, open.rule)
      pending = nil
    }
    struct Active: Comparable {
      let priority: Int
      let rule: Int
      let last: Int64
      // The heap's minimum is the winner: highest priority, then the earliest rule.
      static func < (left: Active, right: Active) -> Bool {
        left.priority != right.priority ? left.priority > right.priority : left.rule < right.rule
      }
    }
    var active = Heap<Active>()
    var next = 0
    var current = pieces.first?.first ?? 0
    while next < pieces.count || !active.isEmpty {
      if active.isEmpty { current = max(current, pieces[next].first) }
      while next < pieces.count, pieces[next].first <= current {
        let piece = pieces[next]
        active.insert(
          Active(priority: rules[piece.rule].priority, rule: piece.rule, last: piece.last))
        next += 1
      }
      // Ranges that ended before the current number leave only when they are the minimum.
      while let top = active.min, top.last < current { active.removeMin() }
      guard let winner = active.min else { continue }
      var end = winner.last
      if next < pieces.count { end = min(end, pieces[next].first - 1) }
      try segment(current, end, winner.rule)
      current = end + 1
    }
    try flush()
    return written
  }
}
