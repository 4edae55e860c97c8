import SystemCalls

/// A monotonic clock in nanoseconds: the system's uptime clock, or one a test drives.
public struct MonotonicClock: Sendable {
  /// The current reading, in nanoseconds from an arbitrary origin; never decreases.
  public let nanoseconds: @Sendable () -> UInt64

  /// A clock read by calling `nanoseconds`.
  public init(nanoseconds: @escaping @Sendable () -> UInt64) {
    self.nanoseconds = nanoseconds
  }

  /// The machine's monotonic clock (`SystemCalls.MonotonicTime`): the one clock the host,
  /// the bench and the extension's own load measurement read, so their readings compare.
  public static let system = MonotonicClock { MonotonicTime.nanoseconds() }

  /// Seconds between two readings of a monotonic clock (nanoseconds).
  public static func seconds(from start: UInt64, to end: UInt64) -> Double {
    Double(end &- start) / 1e9
  }

  /// Seconds on this clock since `start`, a reading of it.
  public func seconds(since start: UInt64) -> Double {
    Self.seconds(from: start, to: nanoseconds())
  }
}
