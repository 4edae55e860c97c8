#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; C hands back no pointer into its own memory, and nothing
// here keeps a pointer past its call.

/// The machine's monotonic clock in nanoseconds, without Foundation: the clock `DispatchTime`'s
/// uptime reads (CLOCK_MONOTONIC on Linux, CLOCK_UPTIME_RAW on Darwin), so a reading taken in a
/// child process compares with its parent's (the bench's `startup_s`: spawn to load start).
@usableFromInline package enum MonotonicTime {
  /// Now, in nanoseconds from an arbitrary origin shared by every process of the machine.
  @usableFromInline package static func nanoseconds() -> UInt64 {
    #if canImport(Darwin)
      read(CLOCK_UPTIME_RAW)
    #else
      read(CLOCK_MONOTONIC)
    #endif
  }

  /// The CPU time this process has used so far, every thread's, in nanoseconds
  /// (CLOCK_PROCESS_CPUTIME_ID: the scheduler's own account, not sampled at ticks). Unlike the
  /// wall clock it does not grow while the process waits for a core, so a figure taken from it
  /// (the bench's `startup_cpu_s`) reads the same on a loaded machine as on a quiet one.
  @usableFromInline package static func processCPUNanoseconds() -> UInt64 {
    read(CLOCK_PROCESS_CPUTIME_ID)
  }

  /// A clock's reading in nanoseconds.
  private static func read(_ clock: clockid_t) -> UInt64 {
    #if canImport(Darwin)
      return clock_gettime_nsec_np(clock)
    #else
      var time = timespec()
      unsafe clock_gettime(clock, &time)
      return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    #endif
  }
}
