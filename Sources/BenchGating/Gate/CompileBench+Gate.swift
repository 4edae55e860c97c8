import BenchMeasuring
import BenchReporting
import Foundation

extension CompileBench {
  /// The compile gate, on CPU time, which a busy machine does not stretch as it stretches the
  /// wall clock (a loaded run measured compile at 3.06× sort -u's wall time, normalize at
  /// 620,678 numbers a wall-clock second): compile within ``/BenchMeasuring/CompileBench/maximumCompileToSortRatio`` times
  /// the CPU time of sort -u in the same run, and normalize at ``/BenchMeasuring/CompileBench/minimumNormalizeRate`` numbers
  /// per CPU second or more (a missing tool fails both, its median being NaN).
  public static func evaluate(_ runs: [Run]) -> GateVerdict {
    let ratio = compileToSortCPURatio(runs)
    let rate = median(runs, "normalize") { Double($0.rows) / max($0.cpuSeconds, 1e-9) }
    var failures: [String] = []
    if !(ratio <= maximumCompileToSortRatio) {
      failures.append(
        String(
          format: "compile takes %.2f× the CPU time of sort -u (bar %.1f×)", ratio,
          maximumCompileToSortRatio))
    }
    if !(rate >= minimumNormalizeRate) {
      failures.append(
        String(
          format: "normalize reads %.0f numbers per CPU second (bar %.0f)", rate,
          minimumNormalizeRate))
    }
    return GateVerdict(failures: failures)
  }

}
