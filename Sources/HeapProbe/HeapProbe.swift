#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's heap as jemalloc sees it, when jemalloc is the process's allocator: linked in, or
/// preloaded by the harness (`LD_PRELOAD`, see `AllocatorChoice` in the spawner). `mallctl` is
/// looked up at run time, so one build measures with jemalloc where it is installed and without it
/// elsewhere; without it every reading is nil and the harness leaves the column empty.
public enum HeapProbe {
  /// jemalloc's `mallctl(name, oldp, oldlenp, newp, newlen)`.
  private typealias MallctlFunction =
    @convention(c) (
      UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?,
      UnsafeMutableRawPointer?, Int
    ) -> Int32

  // Safe: `mallctl` is jemalloc's own symbol, cast to the C signature jemalloc documents; each
  // call passes names that are string literals and out-parameters sized by MemoryLayout of the
  // variable they point at.
  /// `mallctl` from the process's global symbol scope, if jemalloc is loaded; looked up once.
  private static let mallctl: MallctlFunction? = {
    #if canImport(Darwin)
      // Darwin's RTLD_DEFAULT is ((void *)-2).
      let everywhere = unsafe UnsafeMutableRawPointer(bitPattern: -2)
    #else
      // glibc's RTLD_DEFAULT is ((void *)0); Swift does not import the macro.
      let everywhere: UnsafeMutableRawPointer? = nil
    #endif
    guard let symbol = unsafe dlsym(everywhere, "mallctl") else { return nil }
    return unsafe unsafeBitCast(symbol, to: MallctlFunction.self)
  }()

  /// Whether readings are available in this process (jemalloc is its allocator).
  public static var isAvailable: Bool { unsafe mallctl != nil }

  /// The allocator this process runs on, as the bench CSV's `allocator` column names it:
  /// `jemalloc` when readings are available, else `system`.
  public static var allocatorName: String { isAvailable ? "jemalloc" : "system" }

  /// Resets the calling thread's heap high-water mark (`thread.peak.reset`).
  public static func resetThreadPeak() {
    _ = unsafe mallctl?("thread.peak.reset", nil, nil, nil, 0)
  }

  /// The calling thread's heap high-water mark since the last reset, in bytes: the most that
  /// allocations minus deallocations on this thread reached (`thread.peak.read`). Nil without
  /// jemalloc.
  public static func threadPeakBytes() -> Int? {
    guard let mallctl = unsafe Self.mallctl else { return nil }
    var value: UInt64 = 0
    var length = MemoryLayout<UInt64>.size
    guard unsafe mallctl("thread.peak.read", &value, &length, nil, 0) == 0 else { return nil }
    return Int(value)
  }

  /// jemalloc's `MALLCTL_ARENAS_ALL`: the index that names every arena merged.
  private static let allArenas = 4096

  /// Allocation requests served so far by every arena (small and large `nrequests`), counting
  /// those the thread caches served: the calling thread's cache is flushed first so its counts
  /// are merged, and a thread that ended merged its own. Deterministic for a given build and
  /// input, unlike time. Nil without jemalloc or without its statistics.
  public static func allocationCount() -> Int? {
    guard let mallctl = unsafe Self.mallctl else { return nil }
    _ = unsafe mallctl("thread.tcache.flush", nil, nil, nil, 0)
    // Statistics are a snapshot refreshed by writing the epoch.
    var epoch: UInt64 = 1
    guard unsafe mallctl("epoch", nil, nil, &epoch, MemoryLayout<UInt64>.size) == 0 else {
      return nil
    }
    var total = 0
    for size in ["small", "large"] {
      var value: UInt64 = 0
      var length = MemoryLayout<UInt64>.size
      guard
        unsafe mallctl("stats.arenas.\(allArenas).\(size).nrequests", &value, &length, nil, 0) == 0
      else { return nil }
      total += Int(truncatingIfNeeded: value)
    }
    return total
  }
}
