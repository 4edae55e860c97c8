import BaseFormat
import CallDirectoryCore
import FaultInjection
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
  /// host's own `CALLDIR_FAULT_AT` counts the app's steps and is not passed on, nor is its
  /// `CALLDIR_FAULT_COUNT` (the app's count is the app's alone).
  func extensionEnvironment() -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment[FaultInjection.environmentVariable] = extensionFaultAt.map(String.init)
    environment[FaultInjection.countVariable] = nil
    return environment
  }

  func run(ingest: RequestIngest) throws -> RequestResult {
    let started = limits.clock.nanoseconds()
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
    let session = RequestSession(
      ingest: ingest, watchdogEntries: watchdogEntries, clock: limits.clock)
    func pump() -> String? {
      decoder.readAvailable(from: FileDescriptor(rawValue: frameRead))
      while let frame = decoder.nextFrame() {
        session.receive(frame) { ack in
          _ = DescriptorIO.writeAll(FileDescriptor(rawValue: answerWrite), ack.encoded)
        }
      }
      if let malformed = decoder.malformed { return "malformed frame: \(malformed)" }
      return session.watchdogFired ? "watchdog" : nil
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

    return session.result(
      .process(outcome, timeoutSeconds: limits.timeoutSeconds),
      wallSeconds: session.seconds(since: started))
  }
}
