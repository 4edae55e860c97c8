/// Keeps the highest-priority entries when the union is over the system's cap, chosen in O(k)
/// memory: a first pass counts, per base priority, the entries the merge would emit (a histogram
/// with one bucket per distinct priority); the plan then admits every entry above a threshold
/// priority and, at the threshold, only as many as fill the cap, in the order they are sent.
package struct CapPlan: Equatable, Sendable {
  /// Entries of lower priority are dropped; nil when everything fits.
  package var thresholdPriority: Int?
  /// How many entries of exactly the threshold priority are admitted.
  package var quotaAtThreshold: Int
  /// Entries the plan admits in all.
  package var admittedCount: Int
  /// Entries the merge emits, admitted or not (the set's size, duplicates merged; an upper bound
  /// from the manifest's counts when no counting pass was needed).
  package var totalCount: Int

  /// A plan that admits everything.
  package static func unlimited(total: Int) -> CapPlan {
    CapPlan(thresholdPriority: nil, quotaAtThreshold: 0, admittedCount: total, totalCount: total)
  }

  /// The plan for a histogram of emitted entries per priority and a cap.
  package init(histogram: [Int: Int], cap: Int) {
    let total = histogram.values.reduce(0, +)
    guard total > cap else {
      self = .unlimited(total: total)
      return
    }
    var remaining = cap
    for priority in histogram.keys.sorted(by: >) {
      let count = histogram[priority]!
      if count >= remaining {
        self.init(
          thresholdPriority: priority, quotaAtThreshold: remaining, admittedCount: cap,
          totalCount: total)
        return
      }
      remaining -= count
    }
    self = .unlimited(total: total)
  }

  init(thresholdPriority: Int?, quotaAtThreshold: Int, admittedCount: Int, totalCount: Int) {
    self.thresholdPriority = thresholdPriority
    self.quotaAtThreshold = quotaAtThreshold
    self.admittedCount = admittedCount
    self.totalCount = totalCount
  }
}

/// Applies a ``CapPlan`` to a stream of entries, in order.
package struct CapFilter {
  private let threshold: Int?
  private var quota: Int

  package init(_ plan: CapPlan) {
    threshold = plan.thresholdPriority
    quota = plan.quotaAtThreshold
  }

  /// Whether the entry with `priority` is sent.
  @inline(__always)
  package mutating func admits(priority: Int) -> Bool {
    guard let threshold else { return true }
    if priority > threshold { return true }
    if priority < threshold || quota == 0 { return false }
    quota -= 1
    return true
  }

  /// How many of a run of `count` entries of one `priority`, sent in order, are sent: always the
  /// run's first ones, as ``admits(priority:)`` would answer them one by one.
  @inline(__always)
  package mutating func admits(priority: Int, count: Int) -> Int {
    guard let threshold, priority <= threshold else { return count }
    if priority < threshold { return 0 }
    let admitted = min(quota, count)
    quota -= admitted
    return admitted
  }
}
