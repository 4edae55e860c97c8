/// A prefix pattern of libphonenumber's (an international prefix such as `00|810`, a national
/// prefix for parsing such as `0?(?:(11|…)15)?`) compiled by the generator into the alternatives
/// a backtracking matcher would try, in its order, each a sequence of digit automata; some
/// capture a group, some only match the end. Matching it is running automata: no regular
/// expression is parsed at run time. The generator checks this model against libphonenumber on
/// every example number (`Scripts/phone_automata.py`).
struct PrefixPattern: Sendable {
  /// One step of an alternative: an automaton to match (capturing `group` when not 0), or the end
  /// of the number when `automaton` is nil.
  struct Item: Sendable {
    let automaton: Int?
    let group: Int
  }

  /// The most capture groups a pattern may have (libphonenumber's have at most 2).
  static let maximumGroups = 3

  /// The pattern's number of capture groups (its last one decides whether a transform applies).
  let groups: Int
  /// The alternatives, in the order they are tried.
  let alternatives: [[Item]]
}

/// Where a prefix pattern matched: the end of the match and each group's span (nil when the group
/// took no part).
struct PrefixMatch {
  /// The number of digits the match covers, from the start.
  let end: Int
  fileprivate var spans: SIMD8<Int8>

  /// The span of capture group `group` (1-based), nil when it took no part in the match.
  func span(_ group: Int) -> Range<Int>? {
    guard group >= 1, group <= PrefixPattern.maximumGroups else { return nil }
    let start = spans[2 * group]
    return start < 0 ? nil : Int(start)..<Int(spans[2 * group + 1])
  }
}

extension NumberingTables {
  /// The first match of `pattern` at the start of `digits`, as a backtracking matcher finds it:
  /// alternatives in order, and within each automaton the longest match first.
  func lookingAt(_ pattern: PrefixPattern, in digits: DigitString) -> PrefixMatch? {
    for items in pattern.alternatives {
      var spans = SIMD8<Int8>(repeating: -1)
      if let end = match(items, item: 0, digits: digits, position: 0, spans: &spans) {
        return PrefixMatch(end: end, spans: spans)
      }
    }
    return nil
  }

  private func match(
    _ items: [PrefixPattern.Item], item index: Int, digits: DigitString, position: Int,
    spans: inout SIMD8<Int8>
  ) -> Int? {
    guard index < items.count else { return position }
    let item = items[index]
    guard let automaton = item.automaton else {
      guard position == digits.count else { return nil }
      return match(items, item: index + 1, digits: digits, position: position, spans: &spans)
    }
    var ends = matchEnds(automaton, in: digits, from: position)
    while ends != 0 {
      let end = 63 - ends.leadingZeroBitCount  // the longest first
      ends &= ~(UInt64(1) << UInt64(end))
      if item.group > 0 {
        spans[2 * item.group] = Int8(position)
        spans[2 * item.group + 1] = Int8(end)
      }
      if let found = match(items, item: index + 1, digits: digits, position: end, spans: &spans) {
        return found
      }
      if item.group > 0 { spans[2 * item.group] = -1 }
    }
    return nil
  }
}
