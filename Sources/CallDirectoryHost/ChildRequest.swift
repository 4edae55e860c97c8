import BaseFormat
import CallDirectoryCore
import Foundation
import ProcessSpawning
import SystemCalls
import SystemChannel
import SystemPackage

/// One request served by a spawned extension: frames arrive on a pipe, are checked and written to
/// the store transaction batch by batch, each answered like CallKit's synchronous flush; the
/// transaction commits only on the extension's `completeRequest`. Killed (memory, time), crashed,
/// cancelled or failed requests roll back.
struct ChildRequest {
  let executable: String
  let arguments: [String]
  let limits: ChildProcess.Limits
  let allocator: MeasuredAllocator
  /// The simulated watchdog: a request that has sent more than this many entries is killed
  /// (error 2), as a device kills a request that runs too long; nil never.
  var watchdogEntries: Int? = nil
  /// Arms the fault-injection hook in the extension at its Nth durable step (the journal's
  /// fsync and renames); nil: the hook stays off in the extension.
  var extensionFaultAt: Int? = nil

  /// The host's environment, with the fault-injection hook set for the extension alone: the
  /// host's own `CALLDIR_FAULT_AT` counts the app's steps and is not passed on.
  func extensionEnvironment() -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment[FaultInjection.environmentVariable] = extensionFaultAt.map(String.init)
    return environment
  }

  func run(ingest: RequestIngest) throws -> RequestResult {
    let started = Date()
    let (frameRead, frameWrite): (Int32, Int32)
    let (answerRead, answerWrite): (Int32, Int32)
    do {
      (frameRead, frameWrite) = try Pipe.make()
      do {
        (answerRead, answerWrite) = try Pipe.make()
      } catch {
        close(frameRead)
        close(frameWrite)
        throw error
      }
    } catch {
      throw HostError.input("pipe failed: \(error)")
    }
    for descriptor in [frameRead, answerWrite] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    _ = fcntl(frameRead, F_SETFL, fcntl(frameRead, F_GETFL) | O_NONBLOCK)
    defer {
      close(frameRead)
      close(answerWrite)
    }
    // A child that exits before reading its answer must not kill the host with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)

    var decoder = ChannelFrameDecoder()
    var completed = false
    var cancelledReason: String?
    var storeError: Error?
    var toldStoreFailure = false
    var ingestSeconds = 0.0
    var commitSeconds = 0.0
    var committedAt: Date?
    var watchdogFired = false

    func answer(_ ack: ChannelAck) {
      _ = ack.encoded.withUnsafeBytes {
        DescriptorIO.writeAll(FileDescriptor(rawValue: answerWrite), $0)
      }
    }

    func pump() -> String? {
      decoder.readAvailable(from: FileDescriptor(rawValue: frameRead))
      while let frame = decoder.nextFrame() {
        if completed || cancelledReason != nil || watchdogFired { continue }
        if storeError != nil {
          // A batch is answered before it is written, so a store failure is told on the frame
          // that follows (a batch or the completion), once: the extension then stops.
          if !toldStoreFailure { answer(ChannelAck(failed: true, code: 0)) }
          toldStoreFailure = true
          continue
        }
        switch frame.kind {
        case .complete:
          if let failure = ingest.failure {
            answer(ChannelAck(failed: true, code: Int32(failure.code)))
          } else {
            do {
              let clock = Date()
              try ingest.transaction.commit()
              committedAt = Date()
              commitSeconds = committedAt!.timeIntervalSince(clock)
              completed = true
              answer(ChannelAck(failed: false, code: 0))
            } catch {
              storeError = error
              toldStoreFailure = true
              answer(ChannelAck(failed: true, code: 0))
            }
          }
        case .cancel:
          cancelledReason = String(decoding: frame.payload, as: UTF8.self)
          answer(ChannelAck(failed: true, code: 0))
        default:
          let clock = Date()
          var admitted = 0
          do {
            admitted = try ingest.check(frame)
          } catch {
            storeError = error
          }
          defer { ingestSeconds += Date().timeIntervalSince(clock) }
          // The watchdog fires between batches, before a completion queued behind them commits.
          let changes = ingest.checker.entryCount + ingest.checker.removalCount
          if let watchdogEntries, changes > watchdogEntries {
            watchdogFired = true
            continue
          }
          if let failure = ingest.failure {
            answer(ChannelAck(failed: true, code: Int32(failure.code)))
            continue
          }
          answer(ChannelAck(failed: storeError != nil, code: 0))
          // Answered once checked, written while the extension gathers its next batch.
          guard storeError == nil else {
            toldStoreFailure = true
            continue
          }
          do {
            try ingest.write(frame, admitted: admitted)
          } catch {
            storeError = error
          }
        }
      }
      if let malformed = decoder.malformed { return "malformed frame: \(malformed)" }
      return watchdogFired ? "watchdog" : nil
    }

    let io = ChildProcess.IO(
      descriptors: [
        ChannelLayout.frameDescriptor: frameWrite, ChannelLayout.ackDescriptor: answerRead,
      ],
      wakeDescriptor: frameRead, onTick: pump, capturesReport: false)
    let outcome: ChildProcess.Outcome
    do {
      outcome = try ChildProcess.run(
        executable: executable, arguments: arguments, limits: limits, io: io,
        environment: allocator.childEnvironment(from: extensionEnvironment()))
    } catch {
      close(frameWrite)
      close(answerRead)
      ingest.transaction.rollback()
      throw HostError.input("\(error)")
    }
    close(frameWrite)
    close(answerRead)
    _ = pump()

    var result = RequestResult(
      error: nil, detail: "", entries: ingest.entryCount,
      incremental: ingest.transaction.incremental,
      wallSeconds: Date().timeIntervalSince(started), ingestSeconds: ingestSeconds,
      footprintPeakBytes: outcome.sampledFootprintPeakBytes,
      peakRSSBytes: outcome.sampledPeakResidentBytes)
    result.commitSeconds = commitSeconds
    result.committedAt = committedAt
    result.removals = ingest.removalCount
    result.identificationEntries = ingest.checker.identificationCount
    if completed { return result }
    ingest.transaction.rollback()
    result.killedFor = outcome.killedFor
    let stderrLine = outcome.standardError.split(separator: "\n").last.map(String.init) ?? ""
    switch outcome.killedFor {
    case .memory?:
      result.error = .loadingInterrupted
      result.detail = "killed: footprint passed the memory limit"
    case .timeout?:
      result.error = .loadingInterrupted
      result.detail = String(format: "killed: still loading after %.1f s", limits.timeoutSeconds)
    case .requested? where watchdogFired:
      result.error = .loadingInterrupted
      result.detail =
        "killed: the request sent more than \(watchdogEntries ?? 0) entries (the watchdog)"
    case .requested?:
      result.error = .unknown
      result.detail = outcome.requestedKillReason ?? "killed"
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
      } else if let signal = outcome.signal {
        result.error = .loadingInterrupted
        result.detail =
          "the extension crashed (signal \(signal))" + (stderrLine.isEmpty ? "" : ": \(stderrLine)")
      } else {
        result.error = .unknown
        result.detail =
          "the extension exited (status \(outcome.exitCode ?? -1)) without completing"
          + (stderrLine.isEmpty ? "" : ": \(stderrLine)")
      }
    }
    return result
  }
}
