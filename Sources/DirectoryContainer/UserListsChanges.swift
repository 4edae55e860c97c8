/// What differs between the lists the system holds and the lists as edited: what the next sync
/// sends. Counts are of numbers (a range counts each of its numbers).
public struct UserListsChanges: Equatable, Sendable {
  /// Numbers the user blocked, or unblocked, since.
  public var blocked = 0
  public var unblocked = 0
  /// Numbers the user allowed, or took off the allowed list, since.
  public var allowed = 0
  public var unallowed = 0
  /// Numbers whose user label was added, changed or removed.
  public var labels = 0
  /// The pause to start (true) or end (false), when it changes.
  public var pause: Bool?

  /// Nothing is pending.
  public var isEmpty: Bool { self == UserListsChanges() }

  /// The changes from `installed` to `current` (a pause that has ended already dropped from
  /// `current`, see ``UserLists/resolvingPause(at:)``).
  package init(from installed: UserLists, to current: UserLists) {
    func numbers(_ lists: UserLists) -> [ClosedRange<Int64>] {
      (lists.blockedRanges + lists.blockedNumbers.map { $0...$0 }).sorted {
        $0.lowerBound < $1.lowerBound
      }
    }
    blocked = Self.count(numbers(current), less: numbers(installed))
    unblocked = Self.count(numbers(installed), less: numbers(current))
    let (was, now) = (Set(installed.allowedNumbers), Set(current.allowedNumbers))
    allowed = now.subtracting(was).count
    unallowed = was.subtracting(now).count
    let before = Dictionary(
      installed.labels.map { ($0.number, $0.text) }, uniquingKeysWith: { a, _ in a })
    let after = Dictionary(
      current.labels.map { ($0.number, $0.text) }, uniquingKeysWith: { a, _ in a })
    labels = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.count
    if (installed.pause != nil) != (current.pause != nil) { pause = current.pause != nil }
  }

  /// No change.
  public init() {}

  /// How many numbers of `ranges` no range of `other` holds (both ascending by first number).
  static func count(_ ranges: [ClosedRange<Int64>], less other: [ClosedRange<Int64>]) -> Int {
    var total = 0
    for range in ranges {
      var covered = 0
      for cut in other where cut.overlaps(range) {
        covered +=
          Int(min(cut.upperBound, range.upperBound) - max(cut.lowerBound, range.lowerBound)) + 1
      }
      total += max(0, Int(range.upperBound - range.lowerBound) + 1 - covered)
    }
    return total
  }

  /// One line: "3 to block, 1 to allow, the pause to start", or "nothing".
  public var summary: String {
    var parts: [String] = []
    if blocked > 0 { parts.append("\(blocked) to block") }
    if unblocked > 0 { parts.append("\(unblocked) to unblock") }
    if allowed > 0 { parts.append("\(allowed) to allow") }
    if unallowed > 0 { parts.append("\(unallowed) to stop allowing") }
    if labels > 0 { parts.append("\(labels) label\(labels == 1 ? "" : "s") to change") }
    if let pause { parts.append(pause ? "the pause to start" : "the pause to end") }
    return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
  }
}

extension UserLists {
  /// These lists as the system is to hold them at `now`: a pause that has ended is dropped.
  package func resolvingPause(at now: Int64) -> UserLists {
    guard pause != nil, !isPaused(at: now) else { return self }
    var resolved = self
    resolved.pause = nil
    return resolved
  }
}
