/// A change in one metric of one strategy, found in a history (``ChangePointDetector``).
public struct ChangePoint: Sendable, Equatable {
  public var metric: String
  public var strategy: String
  /// The commit most likely to have made the change (the best split of the series).
  public var commit: BenchHistory.Commit
  /// The earliest commit that may have made the change and the latest: the same commit when the
  /// data say exactly which ("at X"), else a range ("between X and Y").
  public var firstCommit: BenchHistory.Commit
  public var lastCommit: BenchHistory.Commit
  /// The metric's median over the commits before the change and after it (up to the next
  /// change): for a deterministic count, the two values on either side.
  public var before: Double
  public var after: Double
  /// Whether the environment fingerprint changed at the change: the machine, not the code, may
  /// have made it.
  public var environmentChanged: Bool

  /// The change as a fraction of the value before it (+0.01 is 1% more).
  public var relativeChange: Double { before == 0 ? 0 : after / before - 1 }
  /// Whether the data name one commit.
  public var isExact: Bool { firstCommit.sha == lastCommit.sha }
  /// Every metric a history keeps is smaller-is-better: a rise is a regression.
  public var isRegression: Bool { after > before }

  /// "at abc1234" or "between abc1234 and def5678".
  public var place: String {
    isExact
      ? "at \(firstCommit.sha.prefix(12))"
      : "between \(firstCommit.sha.prefix(12)) and \(lastCommit.sha.prefix(12)) (likeliest \(commit.sha.prefix(12)))"
  }

  /// One line: metric, strategy, where, size and direction.
  public var line: String {
    let percent = String(format: "%+.2f%%", relativeChange * 100)
    let direction = isRegression ? "regression" : "improvement"
    let environment = environmentChanged ? " (the environment changed there too)" : ""
    return
      "\(metric) \(strategy): \(percent) \(direction) \(place) (\(BenchHistoryFormat.number(before)) → \(BenchHistoryFormat.number(after)))\(environment)"
  }
}

/// Numbers as a history prints them: enough digits to see a 0.1% step.
enum BenchHistoryFormat {
  static func number(_ value: Double) -> String {
    let magnitude = abs(value)
    if magnitude >= 1_000_000 { return String(format: "%.4g", value) }
    if magnitude >= 100 { return String(format: "%.1f", value) }
    if magnitude >= 1 { return String(format: "%.3f", value) }
    return String(format: "%.4g", value)
  }
}
