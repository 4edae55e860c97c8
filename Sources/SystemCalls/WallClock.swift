#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Safe: clock_gettime is given a Swift `inout` value, lent as a pointer for the call only.

/// The calendar clock (CLOCK_REALTIME), without Foundation: what a pause "until 18:00" is
/// compared with. It jumps when the user sets the time, which is what a pause the user set by
/// that clock means.
@usableFromInline package enum WallClock {
  /// Now, in whole seconds since 1970-01-01 00:00 UTC.
  @usableFromInline package static func secondsSinceEpoch() -> Int64 {
    #if canImport(Darwin)
      return Int64(clock_gettime_nsec_np(CLOCK_REALTIME) / 1_000_000_000)
    #else
      var time = timespec()
      unsafe clock_gettime(CLOCK_REALTIME, &time)
      return Int64(time.tv_sec)
    #endif
  }
}
