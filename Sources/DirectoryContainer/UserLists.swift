import BaseFormat

/// The phone user's own lists, kept in the App Group container beside the directory and never
/// changed by it: numbers and ranges the user blocks, numbers the user allows, labels the user
/// gives, and a pause of blocking.
///
/// What wins, as the loader layers the lists over the directory:
/// - an allowed number is never blocked, whatever blocks it (the directory's blocking lists, a
///   pattern, the user's own block or range); its label, if any, is still shown;
/// - a user block adds a blocking entry, a user label an identification entry that replaces the
///   directory's label for that number;
/// - while paused, no number is blocked; labels stay.
///
/// Numbers are CallKit's (country code and national number, no `+`). The value is small and
/// `Sendable`; the container's `user-lists.txt` holds it, and the app's `UserListsEditor` edits it.
public struct UserLists: Equatable, Sendable {
  /// How blocking is paused.
  public enum Pause: Equatable, Sendable {
    /// Until the user resumes.
    case untilResumed
    /// Until this time, in seconds since 1970-01-01 UTC (the app's next sync after it resumes).
    case until(secondsSinceEpoch: Int64)
  }

  /// A number the user named.
  public struct Label: Equatable, Sendable {
    /// The number, in E.164 digits without the plus.
    public var number: Int64
    /// The user's words for it, at most ``UserLists/maximumLabelBytes`` UTF-8 bytes.
    public var text: String
    /// A label of `text` for `number`.
    public init(number: Int64, text: String) { (self.number, self.text) = (number, text) }
  }

  /// The most numbers the lists may hold, a range counting every number in it: a million,
  /// half of what one request may send (CallKit's 1,999,999), so the directory keeps the
  /// other half of a complete request.
  public static let maximumNumbers = 1_000_000
  /// The longest label, in UTF-8 bytes: the base format's own limit.
  public static let maximumLabelBytes = BaseHeader.maximumLabelByteCount

  /// Numbers the user blocks, one by one, ascending.
  public private(set) var blockedNumbers: [Int64] = []
  /// Ranges the user blocks (a prefix is one), ascending and disjoint.
  public private(set) var blockedRanges: [ClosedRange<Int64>] = []
  /// Numbers the user allows, ascending.
  public private(set) var allowedNumbers: [Int64] = []
  /// Labels the user gave, ascending by number.
  public private(set) var labels: [Label] = []
  /// The pause, if blocking is paused.
  public var pause: Pause?
  /// Counts up with every edit: tells an export from an older one.
  package var revision = 0

  /// Empty lists, nothing paused.
  public init() {}

  /// Whether every list is empty and nothing is paused.
  public var isEmpty: Bool {
    blockedNumbers.isEmpty && blockedRanges.isEmpty && allowedNumbers.isEmpty && labels.isEmpty
      && pause == nil
  }

  /// The numbers the lists hold, each range counted whole (what ``maximumNumbers`` bounds).
  public var numberCount: Int {
    blockedRanges.reduce(blockedNumbers.count + allowedNumbers.count + labels.count) {
      $0 + Int($1.upperBound - $1.lowerBound) + 1
    }
  }

  /// Whether blocking is paused at `now` (seconds since 1970 UTC).
  public func isPaused(at now: Int64) -> Bool {
    switch pause {
    case nil: false
    case .untilResumed: true
    case .until(let end): now < end
    }
  }

  // MARK: Questions

  /// Whether the user blocks `number` (by number or by range), paused or not.
  public func blocks(_ number: Int64) -> Bool {
    Self.index(of: number, in: blockedNumbers) != nil || range(holding: number) != nil
  }

  /// The user's range that holds `number`.
  package func range(holding number: Int64) -> ClosedRange<Int64>? {
    let index = Self.firstIndex(in: blockedRanges.count) { blockedRanges[$0].upperBound >= number }
    guard index < blockedRanges.count, blockedRanges[index].lowerBound <= number else { return nil }
    return blockedRanges[index]
  }

  /// Whether the user allows `number`.
  public func allows(_ number: Int64) -> Bool {
    Self.index(of: number, in: allowedNumbers) != nil
  }

  /// The user's label for `number`.
  public func label(of number: Int64) -> String? {
    let index = Self.firstIndex(in: labels.count) { labels[$0].number >= number }
    return index < labels.count && labels[index].number == number ? labels[index].text : nil
  }

  // MARK: Edits (each answers whether anything changed)

  /// Blocks `number`, and takes it off the allowed list.
  @discardableResult
  package mutating func block(_ number: Int64) -> Bool {
    let unallowed = Self.remove(number, from: &allowedNumbers)
    return Self.insert(number, into: &blockedNumbers) || unallowed
  }

  /// Blocks every number of `range`; ranges it overlaps or touches join it.
  @discardableResult
  package mutating func block(_ range: ClosedRange<Int64>) -> Bool {
    guard
      !blockedRanges.contains(where: {
        $0.lowerBound <= range.lowerBound && range.upperBound <= $0.upperBound
      })
    else { return false }
    var joined = range
    blockedRanges.removeAll { other in
      let touches =
        other.lowerBound <= joined.upperBound &+ 1 && joined.lowerBound <= other.upperBound &+ 1
      if touches {
        joined = min(joined.lowerBound, other.lowerBound)...max(joined.upperBound, other.upperBound)
      }
      return touches
    }
    let index = Self.firstIndex(in: blockedRanges.count) {
      blockedRanges[$0].lowerBound > joined.lowerBound
    }
    blockedRanges.insert(joined, at: index)
    return true
  }

  /// Takes `number` off the blocked numbers and the allowed list: the directory decides again.
  @discardableResult
  package mutating func unblock(_ number: Int64) -> Bool {
    let unblocked = Self.remove(number, from: &blockedNumbers)
    return Self.remove(number, from: &allowedNumbers) || unblocked
  }

  /// Removes the blocked range that is exactly `range`.
  @discardableResult
  package mutating func unblock(_ range: ClosedRange<Int64>) -> Bool {
    guard let index = blockedRanges.firstIndex(of: range) else { return false }
    blockedRanges.remove(at: index)
    return true
  }

  /// Allows `number`, and takes it off the user's blocked numbers.
  @discardableResult
  package mutating func allow(_ number: Int64) -> Bool {
    let unblocked = Self.remove(number, from: &blockedNumbers)
    return Self.insert(number, into: &allowedNumbers) || unblocked
  }

  /// Gives `number` the label `text`, or removes its label when `text` is nil.
  @discardableResult
  package mutating func setLabel(_ text: String?, for number: Int64) -> Bool {
    let index = Self.firstIndex(in: labels.count) { labels[$0].number >= number }
    let present = index < labels.count && labels[index].number == number
    switch (text, present) {
    case (nil, false): return false
    case (nil, true): labels.remove(at: index)
    case (let text?, true):
      guard labels[index].text != text else { return false }
      labels[index].text = text
    case (let text?, false): labels.insert(Label(number: number, text: text), at: index)
    }
    return true
  }

  // MARK: Sorted arrays

  /// The first index in `0..<count` where `isAtOrPast` holds (it holds from there on): the
  /// search the lists' sorted arrays share with the loader's layer.
  package static func firstIndex(in count: Int, _ isAtOrPast: (Int) -> Bool) -> Int {
    var (low, high) = (0, count)
    while low < high {
      let middle = (low + high) / 2
      if isAtOrPast(middle) { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// Where `number` is in the ascending `numbers`, if it is there.
  package static func index(of number: Int64, in numbers: [Int64]) -> Int? {
    let index = firstIndex(in: numbers.count) { numbers[$0] >= number }
    return index < numbers.count && numbers[index] == number ? index : nil
  }

  static func insert(_ number: Int64, into numbers: inout [Int64]) -> Bool {
    let index = firstIndex(in: numbers.count) { numbers[$0] >= number }
    guard index == numbers.count || numbers[index] != number else { return false }
    numbers.insert(number, at: index)
    return true
  }

  static func remove(_ number: Int64, from numbers: inout [Int64]) -> Bool {
    guard let index = index(of: number, in: numbers) else { return false }
    numbers.remove(at: index)
    return true
  }
}
