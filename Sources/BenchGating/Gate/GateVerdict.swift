import BenchMeasuring
import BenchReporting

/// What a gate check found in a run: failures, each of which fails the run (`--gate` exits 2,
/// one line per failure), and notes, said but not failing (an improvement to record, a check
/// skipped).
///
/// Every pass/fail decision of `calldir bench` is in this folder, one `evaluate` per check:
/// - ``BenchGate/evaluate(_:)``: each strategy completes, stays in memory and the RSS budget,
///   starts in time, reaches the throughput floor and beats every baseline of the same run;
/// - ``BenchMeasuring/BenchBaseline/evaluate(_:profile:toolchain:allocator:maximumRegression:)``:
///   instructions and allocations per entry, heap and footprint against the committed baseline;
/// - ``BenchMeasuring/ABComparison/evaluate(maximumRegression:maximumCountRegression:)``: this build against
///   another, run interleaved;
/// - ``BenchMeasuring/SweepAnalysis/evaluate()``: memory flat and time at most linear over a sweep of sizes;
/// - ``BenchMeasuring/TwoPhaseReport/evaluate(_:maximumTimeToEnabled:gatesWallClock:maximumFootprintGrowth:)``: every phase completes in memory,
///   enabled in time;
/// - ``BenchMeasuring/CompileBench/evaluate(_:)``: compile against sort -u, normalize's rate;
/// - ``BenchMeasuring/CompileScale/evaluate()``: the compile's memory flat and CPU time linear over sizes.
public struct GateVerdict: Sendable, Equatable {
  /// One line per failed check.
  public var failures: [String]
  /// Lines worth saying that fail nothing.
  public var notes: [String]

  /// A verdict with these failures and notes.
  public init(failures: [String] = [], notes: [String] = []) {
    self.failures = failures
    self.notes = notes
  }

  /// Whether every check passed.
  public var passed: Bool { failures.isEmpty }

  /// Both verdicts' failures and notes, this one's first.
  public static func + (left: GateVerdict, right: GateVerdict) -> GateVerdict {
    GateVerdict(failures: left.failures + right.failures, notes: left.notes + right.notes)
  }

  /// This verdict with every line prefixed (a sweep's size, say).
  public func prefixed(_ prefix: String) -> GateVerdict {
    GateVerdict(failures: failures.map { prefix + $0 }, notes: notes.map { prefix + $0 })
  }
}
