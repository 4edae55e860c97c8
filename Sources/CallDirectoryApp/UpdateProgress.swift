/// How far an update is (``SyncEvent/updateProgress(_:)``): the phase, and `done` of `total` in
/// its unit, for a progress bar or a log line.
public struct UpdateProgress: Sendable, Equatable {
  /// An update's phases, in order.
  public enum Phase: String, Sendable, CaseIterable {
    /// Fetching patches and whole bases: `done` bytes of `total` (files already downloaded
    /// by an interrupted update count as done).
    case downloading
    /// Applying the patch chains, on every core: `done` bases of `total`.
    case patching
    /// Copying each new base into the container and checking its SHA-256: `done` of `total`.
    case staging
  }

  /// The phase.
  public var phase: Phase
  /// How far into it, in the phase's unit (bytes for downloading, bases otherwise).
  public var done: Int
  /// The phase's whole, in its unit.
  public var total: Int

  /// `done` of `total` in `phase`.
  public init(phase: Phase, done: Int, total: Int) {
    self.phase = phase
    self.done = done
    self.total = total
  }

  /// The phase's unit, for people: "bytes" or "bases".
  public var unit: String { phase == .downloading ? "bytes" : "bases" }
}
