import Foundation

/// How each strategy's cost grows with the number of entries over a sweep (`--entries
/// 100k,500k,1M`): the exponent k of cost ∝ N^k, fitted by least squares on log-log axes. Load
/// time is fitted on each size's fastest run, not its median: noise only ever adds time, so the
/// minimum is the steadiest estimate of the work (a median of 2 repeats once fitted N^1.23 on a
/// busy machine, and N^1.0 at 3). A sweep's gate also asks ``minimumGatedRepeats``. A
/// loader in constant memory has k ≈ 0 for footprint and heap peak, k ≈ 1 for load time, and
/// k ≈ 0 for instructions per entry.
public struct SweepAnalysis: Sendable {
  /// One strategy's exponents (nil where a metric is missing at some size).
  public struct Row: Sendable {
    public let strategy: String
    public let isBaseline: Bool
    /// The sizes swept, with the strategy's medians at each.
    public let sizes: [Int]
    public let loadTime: Double?
    public let footprint: Double?
    public let heapPeak: Double?
    public let instructionsPerEntry: Double?
  }

  public let rows: [Row]

  /// The most a calldir strategy's footprint or heap peak may grow: N^0.02 is 3% over 100k → 4M.
  public static let flatMemoryExponent = 0.02
  /// The most its load time may grow: N^1.1, a little over linear.
  public static let linearTimeExponent = 1.1

  /// The fewest repeats a gated sweep takes: with fewer, one slow run is the minimum's only
  /// alternative at some size.
  public static let minimumGatedRepeats = 3

  /// Fits every strategy over `runs`: each size swept (the dataset's entries) with its records.
  public init(_ runs: [(size: Int, records: [RunRecord])]) {
    let bySize = runs.map { ($0.size, StrategySummary.all($0.records)) }
    var rows: [Row] = []
    for summary in bySize.first?.1 ?? [] {
      let points = bySize.compactMap { size, summaries in
        summaries.first { $0.strategy == summary.strategy }.map { (Double(size), $0) }
      }
      func fit(_ metric: (StrategySummary) -> Double?) -> Double? {
        Self.exponent(points.map { ($0.0, metric($0.1)) })
      }
      rows.append(
        Row(
          strategy: summary.strategy, isBaseline: summary.isBaseline,
          sizes: points.map { Int($0.0) },
          loadTime: fit(\.minimumLoadSeconds), footprint: fit(\.medianFootprintBytes),
          heapPeak: fit(\.medianHeapPeakBytes), instructionsPerEntry: fit(\.instructionsPerEntry)))
    }
    self.rows = rows
  }

  /// The least-squares slope of log(value) against log(n); nil with fewer than two points or
  /// a missing or non-positive value.
  static func exponent(_ points: [(Double, Double?)]) -> Double? {
    var xs: [Double] = []
    var ys: [Double] = []
    for (n, value) in points {
      guard let value, value > 0, n > 0 else { return nil }
      xs.append(log(n))
      ys.append(log(value))
    }
    guard xs.count >= 2 else { return nil }
    let meanX = xs.reduce(0, +) / Double(xs.count)
    let meanY = ys.reduce(0, +) / Double(ys.count)
    var covariance = 0.0
    var variance = 0.0
    for (x, y) in zip(xs, ys) {
      covariance += (x - meanX) * (y - meanY)
      variance += (x - meanX) * (x - meanX)
    }
    return variance > 0 ? covariance / variance : nil
  }

  /// The table of exponents.
  public func render() -> String {
    let sizes =
      rows.first?.sizes.map { CountText.decimal(Double($0)) }.joined(separator: ", ") ?? ""
    var lines = ["growth with N (cost ∝ N^k, least squares on log-log axes) over \(sizes):", ""]
    let header = ["strategy", "load time k", "footprint k", "heap peak k", "instr/entry k"]
    let format = { (value: Double?) in value.map { String(format: "%.3f", $0) } ?? "–" }
    lines += BenchReport.table(
      header: header,
      rows: rows.map {
        [
          $0.strategy, format($0.loadTime), format($0.footprint), format($0.heapPeak),
          format($0.instructionsPerEntry),
        ]
      })
    return lines.joined(separator: "\n") + "\n"
  }
}
