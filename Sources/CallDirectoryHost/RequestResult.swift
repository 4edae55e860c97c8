import CallDirectoryCore
import Foundation
import ProcessSpawning

/// How one request to an extension ended, as the app's `reloadExtension` completion would see it,
/// with what the system measured.
public struct RequestResult: Sendable, CallDirectoryReloadOutcome {
  /// Nil when the request completed and was committed; else iOS's error.
  public var error: CallDirectoryError?
  /// One line on what happened (empty on success).
  public var detail: String
  /// Entries written (additions) by the request.
  public var entries: Int
  /// Entries removed one by one by the request (an incremental request's removals).
  public var removals = 0
  /// Of ``entries``, the identification ones (the rest are blocking): devices insert the two
  /// kinds at very different rates.
  public var identificationEntries = 0
  /// Blocking entries written by the request.
  public var blockingEntries: Int { entries - identificationEntries }
  /// Whether the request was incremental.
  public var incremental: Bool
  /// Request start to commit (or failure), in seconds.
  public var wallSeconds: Double
  /// Time spent applying batches to the store, in seconds.
  public var ingestSeconds: Double
  /// Time the store's `COMMIT` took, in seconds.
  public var commitSeconds: Double = 0
  /// When the request's entries were committed, on the host's monotonic clock
  /// (`ProcessSpawning.MonotonicClock`, nanoseconds); nil when they were not.
  public var committedAtNanoseconds: UInt64?
  /// The extension's highest sampled footprint (RssAnon + RssShmem), in bytes; 0 in-process.
  public var footprintPeakBytes: Int
  /// The extension's highest sampled VmHWM, in bytes; 0 in-process.
  public var peakRSSBytes: Int
  /// The extension's CPU time, user and system, in seconds (`wait4`'s); 0 in-process.
  public var extensionCPUSeconds: Double = 0
  /// Why the system killed the extension, when it did (memory, time, or a contract breach).
  public var killedFor: ChildProcess.KillReason?

  /// Whether the request completed and was committed.
  public var succeeded: Bool { error == nil }
  /// Entries per second into SQLite.
  public var ingestRate: Double { ingestSeconds > 0 ? Double(entries) / ingestSeconds : 0 }
}

extension RequestResult {
  /// A request the system refused before starting the extension (6 disabled, 7 loading).
  public init(refused error: CallDirectoryError, detail: String, incremental: Bool) {
    self.init(
      error: error, detail: detail, entries: 0, incremental: incremental, wallSeconds: 0,
      ingestSeconds: 0, footprintPeakBytes: 0, peakRSSBytes: 0)
  }
}
