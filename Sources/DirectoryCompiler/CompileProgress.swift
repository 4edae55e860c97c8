/// Where a compile is, as ``Compiler/progress`` hears it: the phase and how far into it.
public struct CompileProgress: Equatable, Sendable {
  /// The compile's phases, in order.
  public enum Phase: String, Sendable, CaseIterable {
    /// Reading the inputs into sort runs: `done` rows accepted, `total` the inputs' bytes
    /// (the reader's bytes are the process's own read count, which a listener measures).
    case reading
    /// Sorting what each part's sorter still holds into its last run: `done` parts of `total`.
    case sorting
    /// Merging the runs and writing the bases: `done` records of `total` merged.
    case merging
    /// Writing the seed set and finishing each base (its dictionary and header): `done` files
    /// of `total`.
    case writing
    /// Hashing the new bases for the manifest: `done` bases of `total`.
    case hashing
  }

  /// The phase.
  public var phase: Phase
  /// How far into it, in the phase's unit.
  public var done: Int
  /// The phase's whole, in its unit (for reading, the inputs' bytes); nil when unknown.
  public var total: Int?

  /// A report of `done` of `total` in `phase`.
  public init(phase: Phase, done: Int, total: Int?) {
    self.phase = phase
    self.done = done
    self.total = total
  }
}
