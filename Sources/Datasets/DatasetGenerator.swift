import BaseFormat

/// Generates a dataset deterministically from its parameters: distinct CallKit numbers drawn from
/// the number plans, sorted ascending, each with the label its index gives.
///
/// Numbers are held in memory (8 bytes each: 32 MB for the 4M profile); labels are regenerated on
/// demand from `(seed, index)` so no format writer needs them stored.
public struct DatasetGenerator: Sendable {
  /// Bumped whenever the same parameters would produce different data or files (3: the base
  /// format's checksum finalizer and compact version 3), so caches refresh.
  public static let version = 3

  /// The parameters.
  public let parameters: DatasetParameters
  /// The distinct numbers, ascending.
  public let numbers: [Int64]

  /// Draws the numbers.
  /// - Throws: ``DatasetError`` for invalid parameters.
  public init(parameters: DatasetParameters) throws(DatasetError) {
    try parameters.validate()
    self.parameters = parameters
    let plans = parameters.plans.compactMap(NumberPlan.named)
    var random = SplitMix64(seed: parameters.seed)
    var drawn: [Int64] = []
    let target = parameters.entries
    drawn.reserveCapacity(target + target / 50 + 64)
    // Oversample a little, deduplicate, repeat until there are enough distinct numbers.
    while drawn.count < target {
      let missing = target - drawn.count
      for _ in 0..<(missing + missing / 50 + 64) {
        let plan = plans[Int(random.next() % UInt64(plans.count))]
        drawn.append(plan.draw(using: &random).number)
      }
      drawn.sort()
      drawn = Self.uniqued(drawn)
    }
    // Keep exactly `target` numbers, each equally likely (selection sampling, Knuth's algorithm S).
    if drawn.count > target {
      var kept: [Int64] = []
      kept.reserveCapacity(target)
      var remaining = drawn.count
      for number in drawn {
        let needed = target - kept.count
        if needed == 0 { break }
        if random.next() % UInt64(remaining) < UInt64(needed) { kept.append(number) }
        remaining -= 1
      }
      drawn = kept
    }
    numbers = drawn
  }

  private static func uniqued(_ sorted: [Int64]) -> [Int64] {
    var result: [Int64] = []
    result.reserveCapacity(sorted.count)
    for number in sorted where result.last != number { result.append(number) }
    return result
  }

  /// The base kind.
  public var kind: BaseKind { parameters.baseKind ?? .identification }

  /// The label of entry `index` (also written for blocking datasets' text forms).
  public func label(at index: Int) -> String {
    parameters.labels.label(seed: parameters.seed, index: index)
  }

  /// The order and duplicates of the raw form: indexes into ``numbers``, with
  /// `duplicateShare × entries` of them repeated, shuffled as a real dump would be.
  public func rawRowOrder() -> [Int] {
    var random = SplitMix64(seed: parameters.seed ^ 0x5241_5752_4F57)
    var rows = Array(numbers.indices)
    let duplicates = numbers.isEmpty ? 0 : Int(Double(numbers.count) * parameters.duplicateShare)
    for _ in 0..<duplicates { rows.append(Int(random.next() % UInt64(numbers.count))) }
    rows.shuffle(using: &random)
    return rows
  }
}
