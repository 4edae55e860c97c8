import BenchMeasuring
import Foundation

/// Finds where each metric of a history changed.
///
/// - Deterministic counts (instructions and allocations per entry repeat to 0.002% run to run)
///   change in exact steps: any move past ``countStepTolerance`` between consecutive measured
///   commits is a change at that commit (or between the commits a gap in the series leaves).
/// - Noisy figures (wall time, footprint) are read at each commit's least-disturbed repeat (the
///   fastest, ``HistoryFigure/trendValue``: noise on a shared machine only ever adds time, and
///   on this one a busy minute lifts a run's median by 45% but its minimum by 2%), then
///   segmented by **optimal partitioning** (Jackson et
///   al. 2005; the exact dynamic program PELT, Killick et al. 2012, prunes — unpruned here, as a
///   history of 500 commits costs 125,000 steps): the segmentation of log(value) into
///   piecewise-constant means that minimises the squared error plus a penalty β per change,
///   β = ``penaltyFactor`` · σ² · ln n, with σ estimated robustly from the series itself (the
///   median absolute successive difference, which a step barely moves) after each point is
///   clipped to 3σ around the series' median (one busy minute is not a change). Segments are
///   at least ``minimumSegment`` commits, so a change is confirmed by that many after it. Why
///   this method: the cost is the likelihood of Gaussian noise around a mean (on log values a
///   ±20% machine is near enough to that), it is exact rather than greedy (binary segmentation
///   misplaces close changes), and unlike E-divisive it needs no permutation test to decide
///   significance: the penalty is calibrated once, on A/A histories of this machine's noise
///   (`ChangePointTests`, and the README's figures).
/// - Where the data cannot say more, a change is a range: every commit whose split of the
///   segment costs within the 95% likelihood-ratio bound (3.84 σ²) of the best.
public enum ChangePointDetector {
  /// Relative move of a deterministic count that is a change: 0.1%, 50 times the counts' noise.
  public static let countStepTolerance = 0.001
  /// β per change, in units of σ² ln n. Calibrated on A/A histories (see the type's comment).
  public static let penaltyFactor = 6.0
  /// The fewest commits a noisy segment holds.
  public static let minimumSegment = 3
  /// Noisy changes under this fraction are not reported (1%: below what a CI gate acts on).
  public static let minimumNoisyChange = 0.01
  /// χ²(1) at 95%: the likelihood-ratio bound of a change's place.
  static let placeBound = 3.84

  /// Every change in every series of a history, in series order.
  public static func changes(in series: [BenchHistory.Series], commits: [BenchHistory.Commit])
    -> [ChangePoint]
  {
    let order = Dictionary(
      commits.enumerated().map { ($1.sha, $0) }, uniquingKeysWith: { first, _ in first })
    var found: [ChangePoint] = []
    for one in series {
      let values = one.points.map(\.figure.trendValue)
      let splits: [(index: Int, first: Int, last: Int)] =
        one.isDeterministic
        ? steps(values).map { ($0, $0, $0) }
        : segment(values).map { ($0.index, $0.range.lowerBound, $0.range.upperBound) }
      let boundaries = [0] + splits.map(\.index) + [values.count]
      for (number, split) in splits.enumerated() {
        let before = Array(values[boundaries[number]..<split.index])
        let after = Array(values[split.index..<boundaries[number + 2]])
        // The earliest commit: the one after the last point before the range (a gap in the
        // series widens it to the commits measured nothing).
        let previous = one.points[split.first - 1].commit
        let firstPosition = (order[previous.sha] ?? 0) + 1
        let last = one.points[split.last].commit
        let first = commits.indices.contains(firstPosition) ? commits[firstPosition] : last
        let likeliest = one.points[split.index].commit
        found.append(
          ChangePoint(
            metric: one.metric, strategy: one.strategy, commit: likeliest, firstCommit: first,
            lastCommit: last,
            before: Statistics.median(before) ?? 0, after: Statistics.median(after) ?? 0,
            environmentChanged: commits.indices.contains(firstPosition - 1)
              && commits[firstPosition - 1].environment != last.environment))
      }
    }
    return found
  }

  /// Indices where a deterministic series steps: its value moved past the tolerance from the
  /// point before.
  public static func steps(_ values: [Double], tolerance: Double = countStepTolerance) -> [Int] {
    values.indices.dropFirst().filter { index in
      let before = values[index - 1]
      return before != 0 && abs(values[index] / before - 1) > tolerance
    }
  }

  /// The changes of a noisy series: each the index its new segment starts at, and the range of
  /// indices it may start at.
  public static func segment(_ values: [Double], penaltyFactor: Double = penaltyFactor)
    -> [(index: Int, range: ClosedRange<Int>)]
  {
    let m = minimumSegment
    guard values.count >= 2 * m, values.allSatisfy({ $0 > 0 && $0.isFinite }) else { return [] }
    let logs = values.map { log($0) }
    let sigma = noiseScale(logs)
    guard sigma > 0 else {
      // A figure that moves in quanta (a footprint in 4 KiB pages) repeats exactly more often
      // than not: a step is then a move of at least the smallest change reported. (At the
      // counts' 0.1%, each page a footprint gained or lost between commits was a change: 50 in
      // a history of 30 commits, none real.)
      return steps(values, tolerance: minimumNoisyChange).map { ($0, $0...$0) }
    }
    let clipped = clip(logs, sigma: sigma)
    let cost = SegmentCost(clipped)
    let n = clipped.count
    let penalty = penaltyFactor * sigma * sigma * log(Double(n))
    // best[t]: the least cost of y[0..<t]; last[t]: where its last segment starts.
    var best = [Double](repeating: .infinity, count: n + 1)
    var last = [Int](repeating: 0, count: n + 1)
    best[0] = -penalty
    for end in stride(from: m, through: n, by: 1) {
      for start in stride(from: 0, through: end - m, by: 1) where start == 0 || start >= m {
        guard best[start].isFinite else { continue }
        let total = best[start] + cost(start, end) + penalty
        if total < best[end] {
          best[end] = total
          last[end] = start
        }
      }
    }
    var starts: [Int] = []
    var end = n
    while end > 0 {
      let start = last[end]
      if start > 0 { starts.append(start) }
      end = start
    }
    starts.reverse()
    var changes: [(index: Int, range: ClosedRange<Int>)] = []
    let bounds = [0] + starts + [n]
    for (number, split) in starts.enumerated() {
      let (low, high) = (bounds[number], bounds[number + 2])
      let before = clipped[low..<split].reduce(0, +) / Double(split - low)
      let after = clipped[split..<high].reduce(0, +) / Double(high - split)
      guard abs(exp(after - before) - 1) >= minimumNoisyChange else { continue }
      let bestSplit = cost(low, split) + cost(split, high)
      let places = stride(from: low + 1, through: high - 1, by: 1).filter { place in
        cost(low, place) + cost(place, high) - bestSplit <= placeBound * sigma * sigma
      }
      changes.append((split, (places.min() ?? split)...(places.max() ?? split)))
    }
    return changes
  }

  /// σ of the noise: 1.4826 · median |y[i] − y[i−1]| / √2, which a few steps barely move.
  static func noiseScale(_ values: [Double]) -> Double {
    let differences = zip(values.dropFirst(), values).map { abs($0 - $1) }
    return 1.4826 * (Statistics.median(differences) ?? 0) / 2.0.squareRoot()
  }

  /// Each point clipped to 3σ around the series' median: a run disturbed by a busy machine
  /// weighs as a 3σ point, not as the +50% it measured. (Around a moving median instead, two
  /// disturbed runs side by side dragged their neighbours up with them.)
  static func clip(_ values: [Double], sigma: Double) -> [Double] {
    let center = Statistics.median(values) ?? 0
    return values.map { min(max($0, center - 3 * sigma), center + 3 * sigma) }
  }
}

/// The squared error of a segment about its mean, from prefix sums: O(1) per segment.
private struct SegmentCost {
  private var sums: [Double] = [0]
  private var squares: [Double] = [0]

  init(_ values: [Double]) {
    for value in values {
      sums.append(sums.last! + value)
      squares.append(squares.last! + value * value)
    }
  }

  /// The cost of `values[start..<end]`.
  func callAsFunction(_ start: Int, _ end: Int) -> Double {
    let count = Double(end - start)
    let sum = sums[end] - sums[start]
    return max(0, squares[end] - squares[start] - sum * sum / count)
  }
}
