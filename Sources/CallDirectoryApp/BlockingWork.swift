import Dispatch

/// The library's own threads for work that blocks (copying, verifying and hashing a base,
/// waiting on the container's lock): a concurrent Dispatch queue, as GRDB runs its database
/// work on its own queues. Swift's cooperative pool has a thread per core, so an `async` call
/// that blocks one for a 70 MB hash starves every other task of the app (issue 56, item 1).
enum BlockingWork {
  // Safe: Dispatch's queues and keys are thread-safe; only their `Sendable` annotations are missing
  // from iOS 16's SDK.
  /// The queue and the key that marks it. Unchecked: Dispatch's queues and keys are safe from
  /// any thread, but iOS 16's SDK predates their `Sendable` conformances.
  private struct Shared: @unchecked Sendable {
    let queue = DispatchQueue(
      label: "calldir.app.blocking-work", qos: .utility, attributes: .concurrent)
    let key = DispatchSpecificKey<Bool>()
    init() { queue.setSpecific(key: key, value: true) }
  }
  private static let shared = Shared()
  /// The queue, at the utility QoS of a background refresh.
  static var queue: DispatchQueue { shared.queue }
  /// Set on ``queue``: `DispatchQueue.getSpecific(key:)` is true only in its work.
  static var onQueueKey: DispatchSpecificKey<Bool> { shared.key }

  /// Runs `body` on ``queue`` and waits for it without holding a thread. The calling task's
  /// cancellation raises the ``StopSignal`` `body` is given, which its loops read between
  /// chunks; `body` then throws ``ContainerAppError/Kind/cancelled``.
  static func run<Result: Sendable>(
    _ body: @escaping @Sendable (StopSignal) throws(ContainerAppError) -> Result
  ) async throws(ContainerAppError) -> Result {
    let signal = StopSignal()
    if Task.isCancelled { signal.stop() }
    let outcome: Swift.Result<Result, ContainerAppError> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        queue.async {
          do throws(ContainerAppError) {
            continuation.resume(returning: .success(try body(signal)))
          } catch {
            continuation.resume(returning: .failure(error))
          }
        }
      }
    } onCancel: {
      signal.stop()
    }
    return try outcome.get()
  }
}

// Safe: its one state is a Dispatch work item's cancel flag, which Dispatch reads and writes
// atomically.
/// Raised when the task waiting for blocking work is cancelled. Its flag is a Dispatch work
/// item's cancellation, which Dispatch reads and writes atomically from any thread: no lock and
/// no Foundation in the app's module.
final class StopSignal: @unchecked Sendable {
  private let flag = DispatchWorkItem {}

  /// Stops the work at its next check.
  func stop() { flag.cancel() }

  /// Whether the work should stop.
  var isStopped: Bool { flag.isCancelled }

  /// Throws ``ContainerAppError/Kind/cancelled`` once stopped.
  func check() throws(ContainerAppError) {
    if isStopped { throw ContainerAppError.cancelled }
  }
}
