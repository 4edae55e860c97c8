import Foundation

extension CompileBench {
  /// The compile gate: compile within ``maximumCompileToSortRatio`` times sort -u's median wall
  /// time measured in the same run, and normalize at ``minimumNormalizeRate`` numbers a second
  /// or more (a missing tool fails both, its median being NaN).
  public static func evaluate(_ runs: [Run]) -> GateVerdict {
    let ratio = compileToSortRatio(runs)
    let rate = median(runs, "normalize") { Double($0.rows) / max($0.wallSeconds, 1e-9) }
    var failures: [String] = []
    if !(ratio <= maximumCompileToSortRatio) {
      failures.append(
        String(format: "compile takes %.2f× sort -u (bar %.1f×)", ratio, maximumCompileToSortRatio))
    }
    if !(rate >= minimumNormalizeRate) {
      failures.append(
        String(format: "normalize reads %.0f numbers/s (bar %.0f)", rate, minimumNormalizeRate))
    }
    return GateVerdict(failures: failures)
  }
}
