#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The machine's monotonic clock in nanoseconds, without Foundation: the clock `DispatchTime`'s
/// uptime reads (CLOCK_MONOTONIC on Linux, CLOCK_UPTIME_RAW on Darwin), so a reading taken in a
/// child process compares with its parent's (the bench's `startup_s`: spawn to load start).
public enum MonotonicTime {
  /// Now, in nanoseconds from an arbitrary origin shared by every process of the machine.
  public static func nanoseconds() -> UInt64 {
    #if canImport(Darwin)
      return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
    #else
      var time = timespec()
      clock_gettime(CLOCK_MONOTONIC, &time)
      return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    #endif
  }
}
