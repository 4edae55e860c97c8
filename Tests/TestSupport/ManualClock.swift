import Foundation

/// A `Clock` that moves only when a test calls ``advance(by:)``: a timeout is tested by
/// advancing past it, at once, with no real second waited and no race with a real timer.
/// A sleep whose deadline has passed returns at once; a cancelled sleep throws
/// `CancellationError`.
public final class ManualClock: Clock, @unchecked Sendable {
  /// A point on this clock: the time advanced since it was made.
  public struct Instant: InstantProtocol, Sendable {
    /// Time since the clock was made.
    public var offset: Duration

    public func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
    public func duration(to other: Self) -> Duration { other.offset - offset }
    public static func < (left: Self, right: Self) -> Bool { left.offset < right.offset }
  }

  /// A suspended `sleep`, and when it is due.
  private struct Sleeper {
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  // Safe: every field below is read and written only under `lock`.
  private let lock = NSLock()
  private var current = Instant(offset: .zero)
  private var sleepers: [Int: Sleeper] = [:]
  private var nextSleeperID = 0
  /// Tasks waiting in ``waitForSleepers(_:)``, each with the count it waits for.
  private var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

  /// A clock at zero.
  public init() {}

  public var now: Instant { lock.withLock { current } }
  public var minimumResolution: Duration { .nanoseconds(1) }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = lock.withLock {
      defer { nextSleeperID += 1 }
      return nextSleeperID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let outcome: Result<Void, any Error>? = lock.withLock {
          if Task.isCancelled { return .failure(CancellationError()) }
          if deadline <= current { return .success(()) }
          sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          return nil
        }
        if let outcome {
          continuation.resume(with: outcome)
        } else {
          wakeSleeperWaiters()
        }
      }
    } onCancel: {
      lock.withLock { sleepers.removeValue(forKey: id) }?.continuation.resume(
        throwing: CancellationError())
    }
  }

  /// Moves the clock on by `duration`, and wakes every sleep now due.
  public func advance(by duration: Duration) {
    let due = lock.withLock {
      current = current.advanced(by: duration)
      let due = sleepers.filter { $0.value.deadline <= current }
      for id in due.keys { sleepers.removeValue(forKey: id) }
      return due.values
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Suspends until at least `count` sleeps are waiting on the clock: the code under test has
  /// set its timers, and an ``advance(by:)`` now reaches them.
  public func waitForSleepers(_ count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = lock.withLock {
        guard sleepers.count < count else { return true }
        sleeperWaiters.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// How many sleeps are waiting.
  public var sleeperCount: Int { lock.withLock { sleepers.count } }

  private func wakeSleeperWaiters() {
    let ready = lock.withLock {
      let ready = sleeperWaiters.filter { $0.count <= sleepers.count }
      sleeperWaiters.removeAll { $0.count <= sleepers.count }
      return ready
    }
    for waiter in ready { waiter.continuation.resume() }
  }
}
