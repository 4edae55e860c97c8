/// A fetch's two deadlines, measured on one clock: nothing for `idle` since the last sign of
/// life (the response, or a piece of its body), or `total` since the fetch began.
///
/// The clock is the source's (``HTTPReleaseSource/init(base:idleTimeout:totalTimeout:configuration:clock:)``):
/// `ContinuousClock` in an app, a clock the test advances by hand in the tests, so a stalled
/// server is given up on at once, with no real second waited (issue 56, item 8). URLSession's
/// own idle timer cannot take a clock: it is only a backstop on the real clock, set past both
/// deadlines, so it never races them (issue 65, item 0).
struct FetchDeadlines: Sendable {
  /// Time since the fetch began.
  let elapsed: @Sendable () -> Duration
  /// Suspends until `elapsed()` reaches its argument; throws when the task is cancelled.
  let sleep: @Sendable (Duration) async throws -> Void
  /// The longest quiet spell allowed, and the whole fetch's allowance.
  let idle: Duration
  let total: Duration

  /// Deadlines on `clock`, counted from now.
  init<C: Clock<Duration>>(clock: C, idle: Duration, total: Duration) {
    let start = clock.now
    elapsed = { start.duration(to: clock.now) }
    sleep = { try await clock.sleep(until: start.advanced(by: $0), tolerance: nil) }
    self.idle = idle
    self.total = total
  }

  /// Which deadline passed.
  enum Expiry: Equatable, Sendable {
    /// Nothing arrived for `idle`.
    case idle
    /// The fetch ran for `total`.
    case total
  }

  /// Waits until a deadline passes, and says which; nil when the task is cancelled first (the
  /// transfer ended). `lastActivity` reads the elapsed time of the last sign of life.
  func watch(lastActivity: @Sendable () -> Duration) async -> Expiry? {
    var wakeAt = min(idle, total)
    while true {
      do { try await sleep(wakeAt) } catch { return nil }
      if Task.isCancelled { return nil }
      let now = elapsed()
      if now >= total { return .total }
      let quietSince = lastActivity()
      if now - quietSince >= idle { return .idle }
      wakeAt = min(quietSince + idle, total)
    }
  }

  /// Whole seconds of `duration`, for messages.
  static func seconds(_ duration: Duration) -> Int64 { duration.components.seconds }
}
