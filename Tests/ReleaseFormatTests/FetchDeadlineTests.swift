import Foundation
import TestSupport
import Testing

@testable import ReleaseDownload

/// The watch over a fetch's two deadlines, on a clock the test moves (issue 56, item 8).
@Suite("A fetch's idle and total deadlines")
struct FetchDeadlineTests {
  /// The elapsed time of the last sign of life, set by the test as a body's pieces would be.
  final class Activity: @unchecked Sendable {
    private let lock = NSLock()
    private var time = Duration.zero  // Guarded by `lock`.
    func set(_ value: Duration) { lock.withLock { time = value } }
    var last: Duration { lock.withLock { time } }
  }

  /// A piece that arrives at 20 s moves the idle deadline from 30 s to 50 s: the watch wakes at
  /// 30, sleeps again, is still asleep at 49, and says `.idle` at 50.
  @Test func activityMovesTheIdleDeadline() async {
    let clock = ManualClock()
    let activity = Activity()
    let deadlines = FetchDeadlines(clock: clock, idle: .seconds(30), total: .seconds(600))
    let watch = Task { await deadlines.watch(lastActivity: { activity.last }) }
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(20))
    activity.set(deadlines.elapsed())
    clock.advance(by: .seconds(10))
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(19))
    #expect(clock.sleeperCount == 1, "49 s, 29 s after the last piece: still waiting")
    clock.advance(by: .seconds(1))
    #expect(await watch.value == .idle)
  }

  /// Pieces that keep coming do not outlast the total: with one every 10 s, the watch says
  /// `.total` when the clock reaches 100 s.
  @Test func theTotalDeadlineHoldsWhateverArrives() async {
    let clock = ManualClock()
    let activity = Activity()
    let deadlines = FetchDeadlines(clock: clock, idle: .seconds(30), total: .seconds(100))
    let watch = Task { await deadlines.watch(lastActivity: { activity.last }) }
    for _ in 0..<10 {
      await clock.waitForSleepers(1)
      clock.advance(by: .seconds(10))
      activity.set(deadlines.elapsed())
    }
    #expect(await watch.value == .total)
    #expect(deadlines.elapsed() == .seconds(100))
  }

  /// A cancelled watch (the transfer ended) returns nil and leaves nothing on the clock.
  @Test func aCancelledWatchEndsAtOnce() async {
    let clock = ManualClock()
    let deadlines = FetchDeadlines(clock: clock, idle: .seconds(30), total: .seconds(600))
    let watch = Task { await deadlines.watch(lastActivity: { .zero }) }
    await clock.waitForSleepers(1)
    watch.cancel()
    #expect(await watch.value == nil)
    #expect(clock.sleeperCount == 0)
  }

  /// URLSession's own timer never races a clock the test moves (issue 65, item 0): on a real
  /// clock it waits past both deadlines, on a hand-moved one as long as a timeout can be, so
  /// only that clock or a cancellation ends the fetch however late a loaded run gets to it.
  @Test func urlSessionsTimerWaitsOutAClockMovedByHand() {
    let base = URL(string: "http://127.0.0.1:9")!
    let real = HTTPReleaseSource(base: base, idleTimeout: 30, totalTimeout: 600)
    #expect(real.backstopTimeout == 630)
    let suspending = HTTPReleaseSource(
      base: base, idleTimeout: 30, totalTimeout: 45, clock: SuspendingClock())
    #expect(suspending.backstopTimeout == 75)
    let byHand = HTTPReleaseSource(
      base: base, idleTimeout: 30, totalTimeout: 45, clock: ManualClock())
    #expect(byHand.backstopTimeout == HTTPReleaseSource.maximumTimeout)
  }
}
