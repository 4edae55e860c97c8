import Datasets
import Foundation

/// Comparing two builds' timings from the same interleaved run: the ratio of their medians with a
/// bootstrap confidence interval, and the Mann–Whitney U test. Both make no assumption about the
/// shape of the noise, which on a shared machine is anything but normal (bimodal here).
public enum TwoSampleStatistics {
  /// The median of `b` over the median of `a`, and its two-sided `confidence` interval from
  /// `resamples` bootstrap resamples of each sample (percentile method). The generator is seeded,
  /// so the same samples always give the same interval.
  public static func medianRatio(
    _ a: [Double], _ b: [Double], confidence: Double = 0.95, resamples: Int = 4_000
  ) -> (ratio: Double, low: Double, high: Double)? {
    guard let medianA = Statistics.median(a), let medianB = Statistics.median(b), medianA > 0
    else { return nil }
    var generator = SplitMix64(seed: 0x0A_B0_0B_0A)
    var ratios: [Double] = []
    ratios.reserveCapacity(resamples)
    var resampleA = a
    var resampleB = b
    for _ in 0..<resamples {
      for index in resampleA.indices { resampleA[index] = a.randomElement(using: &generator)! }
      for index in resampleB.indices { resampleB[index] = b.randomElement(using: &generator)! }
      if let x = Statistics.median(resampleA), let y = Statistics.median(resampleB), x > 0 {
        ratios.append(y / x)
      }
    }
    ratios.sort()
    let tail = (1 - confidence) / 2
    let low = ratios[Int((Double(ratios.count - 1) * tail).rounded())]
    let high = ratios[Int((Double(ratios.count - 1) * (1 - tail)).rounded())]
    return (medianB / medianA, low, high)
  }

  /// The two-sided p-value of the Mann–Whitney U test that `a` and `b` come from the same
  /// distribution: exact (by counting rank arrangements) for small samples without ties, the
  /// normal approximation with tie and continuity corrections otherwise.
  public static func mannWhitneyP(_ a: [Double], _ b: [Double]) -> Double? {
    let (m, n) = (a.count, b.count)
    guard m > 0, n > 0 else { return nil }
    // U counts the pairs where a is below b (ties count a half).
    var u = 0.0
    for x in a {
      for y in b { u += x < y ? 1 : (x == y ? 0.5 : 0) }
    }
    let all = (a + b).sorted()
    let hasTies = zip(all, all.dropFirst()).contains { $0 == $1 }
    if !hasTies && m + n <= 40 {
      let counts = arrangementsByU(m, n)
      let total = counts.reduce(0, +)
      let observed = Int(u.rounded())
      let low = min(observed, m * n - observed)
      let tail = counts[0...low].reduce(0, +)
      return min(1, 2 * tail / total)
    }
    let mean = Double(m * n) / 2
    var tieTerm = 0.0
    var index = 0
    while index < all.count {
      var end = index
      while end + 1 < all.count && all[end + 1] == all[index] { end += 1 }
      let t = Double(end - index + 1)
      tieTerm += t * t * t - t
      index = end + 1
    }
    let total = Double(m + n)
    let variance = Double(m * n) / 12 * (total + 1 - tieTerm / (total * (total - 1)))
    guard variance > 0 else { return 1 }
    let z = (abs(u - mean) - 0.5) / variance.squareRoot()
    return min(1, erfc(max(0, z) / 2.0.squareRoot()))
  }

  /// How many of the C(m + n, m) arrangements of two untied samples give each U (0…m·n): the
  /// recurrence f(m, n, u) = f(m − 1, n, u − n) + f(m, n − 1, u), as doubles (C(40, 20) ≈ 1.4e11
  /// is exact in a double).
  static func arrangementsByU(_ m: Int, _ n: Int) -> [Double] {
    // table[j][u] for the current i (rows of the first sample), built up over i.
    var previous = [[Double]](repeating: [1], count: n + 1)  // i = 0: U is 0, one way
    for i in 1...max(1, m) where m > 0 {
      var current = [[Double]](repeating: [], count: n + 1)
      current[0] = [1]  // j = 0: every a is above nothing, U = 0
      for j in 1...max(1, n) where n > 0 {
        var counts = [Double](repeating: 0, count: i * j + 1)
        // The largest value is from b (U unchanged, from (i, j − 1)) or from a (it is above
        // all j values of b: U − j, from (i − 1, j)).
        for (u, value) in current[j - 1].enumerated() { counts[u] += value }
        for (u, value) in previous[j].enumerated() { counts[u + j] += value }
        current[j] = counts
      }
      previous = current
    }
    return m == 0 ? [1] : previous[n]
  }
}
