/// Where a `calldir bench` run is, as ``BenchRunner/progress`` hears it: the phase, the runs
/// done of its total, and the run under way.
public struct BenchProgress: Sendable, Equatable {
  /// A bench's phases, in order.
  public enum Phase: String, Sendable, CaseIterable {
    /// Each strategy on the empty container (its idle RSS).
    case idle
    /// Each strategy loading the dataset, `--repeat` times.
    case loading
    /// Each counted strategy under valgrind, on the empty input and the dataset.
    case counting
  }

  /// The phase.
  public var phase: Phase
  /// Runs done in the phase, and its runs in all.
  public var done: Int
  public var total: Int
  /// The run under way, for people ("mmap, run 2 of 5").
  public var step: String

  /// `done` of `total` runs in `phase`, `step` under way.
  public init(phase: Phase, done: Int, total: Int, step: String) {
    self.phase = phase
    self.done = done
    self.total = total
    self.step = step
  }
}
