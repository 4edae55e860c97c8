import CallDirectoryCore
import Foundation
import ProcessSpawning
import SystemChannel

/// The system's side of one request, frame by frame, for a spawned extension and an in-process
/// one alike: each frame the extension sends is received here and answered (or not) with the ack
/// CallKit's synchronous flush would give, and the request's end is mapped to its result once,
/// here (``result(_:wallSeconds:)``).
final class RequestSession {
  let ingest: RequestIngest
  /// The simulated watchdog: more entries than this and the request is killed (nil: never).
  let watchdogEntries: Int?
  /// The clock the ingest and commit times are read on: the host's one clock, the one a
  /// spawned child's timeout is kept on.
  let clock: MonotonicClock
  private(set) var completed = false
  private(set) var cancelledReason: String?
  private(set) var storeError: (any Error)?
  private var toldStoreFailure = false
  private(set) var watchdogFired = false
  private(set) var ingestSeconds = 0.0
  private(set) var commitSeconds = 0.0
  /// When the commit returned, on ``clock``.
  private(set) var committedAtNanoseconds: UInt64?

  init(ingest: RequestIngest, watchdogEntries: Int?, clock: MonotonicClock) {
    self.ingest = ingest
    self.watchdogEntries = watchdogEntries
    self.clock = clock
  }

  /// Seconds on ``clock`` since a reading of it.
  func seconds(since start: UInt64) -> Double { clock.seconds(since: start) }

  /// Takes one frame: checks and writes a batch, commits on completion, notes a cancel; calls
  /// `answer` with the ack to send back, at most once, and not at all after the request ended
  /// or when the watchdog fired. A batch is answered once checked, before it is written, so the
  /// extension gathers its next batch while the store writes this one.
  func receive(_ frame: ChannelFrame, answer: (ChannelAck) -> Void) {
    if completed || cancelledReason != nil || watchdogFired { return }
    if storeError != nil {
      // A batch is answered before it is written, so a store failure is told on the frame
      // that follows (a batch or the completion), once: the extension then stops.
      if !toldStoreFailure { answer(ChannelAck(failed: true, code: 0)) }
      toldStoreFailure = true
      return
    }
    switch frame.kind {
    case .complete: answer(complete())
    case .cancel:
      cancelledReason = String(decoding: frame.payload, as: UTF8.self)
      answer(ChannelAck(failed: true, code: 0))
    default: batch(frame, answer: answer)
    }
  }

  private func complete() -> ChannelAck {
    if let failure = ingest.failure { return ChannelAck(failed: true, code: Int32(failure.code)) }
    do {
      let start = clock.nanoseconds()
      try ingest.transaction.commit()
      let committed = clock.nanoseconds()
      commitSeconds = MonotonicClock.seconds(from: start, to: committed)
      committedAtNanoseconds = committed
      completed = true
      return ChannelAck(failed: false, code: 0)
    } catch {
      storeError = error
      toldStoreFailure = true
      return ChannelAck(failed: true, code: 0)
    }
  }

  private func batch(_ frame: ChannelFrame, answer: (ChannelAck) -> Void) {
    let start = clock.nanoseconds()
    defer { ingestSeconds += seconds(since: start) }
    var admitted = 0
    do {
      admitted = try ingest.check(frame)
    } catch {
      storeError = error
    }
    // The watchdog fires between batches, before a completion queued behind them commits.
    let changes = ingest.checker.entryCount + ingest.checker.removalCount
    if let watchdogEntries, changes > watchdogEntries {
      watchdogFired = true
      return
    }
    if let failure = ingest.failure {
      answer(ChannelAck(failed: true, code: Int32(failure.code)))
      return
    }
    answer(ChannelAck(failed: storeError != nil, code: 0))
    // Answered once checked, written while the extension gathers its next batch.
    guard storeError == nil else {
      toldStoreFailure = true
      return
    }
    do {
      try ingest.write(frame, admitted: admitted)
    } catch {
      storeError = error
    }
  }

  /// How a request's extension ended: its process exited (or was killed), with the timeout it
  /// was killed at; or, in process, the extension's code returned.
  enum Ending {
    case process(ChildProcess.Outcome, timeoutSeconds: Double)
    case inProcess
  }

  /// The request's result once the extension's process is gone: committed, or rolled back with
  /// the reason (the kill, the contract's failure, the store's error, the cancel, the crash).
  func result(_ ending: Ending, wallSeconds: Double) -> RequestResult {
    let outcome: ChildProcess.Outcome?
    let timeoutSeconds: Double
    switch ending {
    case .process(let process, let timeout): (outcome, timeoutSeconds) = (process, timeout)
    case .inProcess: (outcome, timeoutSeconds) = (nil, 0)
    }
    var result = RequestResult(
      error: nil, detail: "", entries: ingest.entryCount,
      incremental: ingest.transaction.incremental, wallSeconds: wallSeconds,
      ingestSeconds: ingestSeconds, footprintPeakBytes: outcome?.sampledFootprintPeakBytes ?? 0,
      peakRSSBytes: outcome?.sampledPeakResidentBytes ?? 0)
    result.commitSeconds = commitSeconds
    result.extensionCPUSeconds = (outcome?.userSeconds ?? 0) + (outcome?.systemSeconds ?? 0)
    result.committedAtNanoseconds = committedAtNanoseconds
    result.removals = ingest.removalCount
    result.identificationEntries = ingest.checker.identificationCount
    if completed { return result }
    ingest.transaction.rollback()
    result.killedFor = outcome?.killedFor
    let stderrLine = outcome?.standardError.split(separator: "\n").last.map(String.init) ?? ""
    switch outcome?.killedFor {
    case .memory?:
      result.error = .loadingInterrupted
      result.detail = "killed: footprint passed the memory limit"
    case .timeout?:
      result.error = .loadingInterrupted
      result.detail = String(format: "killed: still loading after %.1f s", timeoutSeconds)
    case .requested? where watchdogFired:
      result.error = .loadingInterrupted
      result.detail =
        "killed: the request sent more than \(watchdogEntries ?? 0) entries (the watchdog)"
    case .requested?:
      result.error = .unknown
      result.detail = outcome?.requestedKillReason ?? "killed"
    case nil:
      if let failure = ingest.failure {
        result.error = failure
        result.detail = failure.description
      } else if let storeError {
        result.error = .unknown
        result.detail = "\(storeError)"
      } else if let cancelledReason {
        result.error = .unknown
        result.detail = "cancelled by the extension: \(cancelledReason)"
      } else if let signal = outcome?.signal {
        result.error = .loadingInterrupted
        result.detail =
          "the extension crashed (signal \(signal))" + (stderrLine.isEmpty ? "" : ": \(stderrLine)")
      } else if let outcome {
        result.error = .unknown
        result.detail =
          "the extension exited (status \(outcome.exitCode ?? -1)) without completing"
          + (stderrLine.isEmpty ? "" : ": \(stderrLine)")
      } else {
        result.error = .unknown
        result.detail = "the extension returned without completing the request"
      }
    }
    return result
  }
}
