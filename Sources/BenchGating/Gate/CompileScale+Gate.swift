import BenchMeasuring
import BenchReporting
import Foundation

extension CompileScale {
  /// Memory flat and CPU time at most linear, over two sizes or more (one size fails: there is
  /// no slope to read).
  public func evaluate() -> GateVerdict {
    let (wall, cpu, memory) = compileExponents
    guard let cpu, let memory else {
      return GateVerdict(failures: ["a scale needs two sizes or more to fit exponents"])
    }
    var verdict = GateVerdict()
    if memory > Self.flatMemoryExponent {
      verdict.failures.append(
        String(
          format: "compile's peak RSS grows as N^%.3f (bar N^%.2f)", memory,
          Self.flatMemoryExponent))
    }
    if cpu > Self.linearTimeExponent {
      verdict.failures.append(
        String(
          format: "compile's CPU time grows as N^%.3f (bar N^%.2f)", cpu, Self.linearTimeExponent))
    }
    if let wall, wall > Self.linearTimeExponent {
      verdict.notes.append(
        String(format: "compile's wall time grows as N^%.3f (not gated: the wall clock)", wall))
    }
    return verdict
  }
}
