import BenchMeasuring
import Foundation
import ProcessMetrics

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
      "\(metric) \(strategy): \(percent) \(direction) \(place) (\(BenchHistoryFormat.figure(before, metric: metric)) → \(BenchHistoryFormat.figure(after, metric: metric)))\(environment)"
  }
}

/// Numbers as a history prints them: enough digits to see a 0.1% step.
extension ChangePoint {
  /// What `history changes --gate` does with `changes`: a regression at the newest commit fails
  /// the gate, unless the environment changed there (a new toolchain, allocator, CPU or host
  /// starts a new series): that one is reported, not gated, or an environment change would read
  /// as a regression.
  public static func gate(_ changes: [ChangePoint], newestCommit: String?) -> (
    failing: [ChangePoint], reported: [ChangePoint]
  ) {
    let atNewest = changes.filter { $0.isRegression && $0.lastCommit.sha == newestCommit }
    return (atNewest.filter { !$0.environmentChanged }, atNewest.filter(\.environmentChanged))
  }
}

enum BenchHistoryFormat {
  /// A figure in a table: never an exponent (a reader compares digits, not "1.942e+06").
  static func number(_ value: Double) -> String {
    let magnitude = abs(value)
    if !value.isFinite { return "\(value)" }
    if magnitude >= 100_000 { return String(format: "%.0f", value) }
    if magnitude >= 100 { return String(format: "%.1f", value) }
    if magnitude >= 1 || magnitude == 0 { return String(format: "%.3f", value) }
    // Four significant digits below 1, written out: 0.004312, 0.0000123.
    let decimals = min(15, 3 - Int(log10(magnitude).rounded(.down)))
    return String(format: "%.\(decimals)f", value)
  }

  /// A figure in a change's "before → after", in its metric's unit and precise enough to show a
  /// change of a tenth of a percent: bytes as KiB (one decimal) or MiB (three), times as ms or
  /// s (four significant digits), anything else as `number`.
  static func figure(_ value: Double, metric: String) -> String {
    guard value.isFinite else { return "\(value)" }
    if metric.hasSuffix("_bytes") {
      let mebibyte = 1_048_576.0
      return abs(value) >= mebibyte
        ? String(format: "%.3f MiB", value / mebibyte) : String(format: "%.1f KiB", value / 1024)
    }
    if metric.hasSuffix("_s") {
      return abs(value) < 1 ? number(value * 1000) + " ms" : number(value) + " s"
    }
    return number(value)
  }

  /// A figure on a chart's axis, in the unit the tables use: binary units for a `…_bytes`
  /// metric (1.85 MiB), milliseconds or seconds for a `…_s` one, a decimal prefix otherwise.
  static func axis(_ value: Double, metric: String) -> String {
    if metric.hasSuffix("_bytes") { return ByteCount.format(Int(value.rounded())) }
    if metric.hasSuffix("_s") {
      return abs(value) < 1
        ? CountText.decimal(value * 1000) + " ms" : CountText.decimal(value) + " s"
    }
    return abs(value) >= 1000 ? CountText.decimal(value) : number(value)
  }
}
