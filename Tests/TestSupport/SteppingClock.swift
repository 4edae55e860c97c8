import Foundation
import ProcessSpawning

/// A clock that advances by `step` nanoseconds each time it is read: time as a count of samples,
/// so a timeout test ends after the same number of samples however fast the machine is.
public final class SteppingClock: @unchecked Sendable {
  private let lock = NSLock()
  private var readings: UInt64 = 0  // Guarded by `lock`.
  /// Nanoseconds per reading.
  public let step: UInt64

  /// A clock whose first reading is `step`.
  public init(step: UInt64) { self.step = step }

  /// The clock to hand to ``ChildProcess/Limits``.
  public var clock: MonotonicClock {
    MonotonicClock { [self] in
      lock.withLock {
        readings += 1
        return readings * step
      }
    }
  }
}
