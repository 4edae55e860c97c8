#if Jemalloc
  import CJemalloc
#endif

/// The process's heap as jemalloc sees it, when the package is built with the `Jemalloc` trait
/// (the default). Without it every reading is nil and the harness leaves the column empty.
public enum HeapProbe {
  /// Whether readings are available in this build.
  public static var isAvailable: Bool {
    #if Jemalloc
      return true
    #else
      return false
    #endif
  }

  /// Resets the calling thread's heap high-water mark (`thread.peak.reset`).
  public static func resetThreadPeak() {
    #if Jemalloc
      _ = mallctl("thread.peak.reset", nil, nil, nil, 0)
    #endif
  }

  /// The calling thread's heap high-water mark since the last reset, in bytes: the most that
  /// allocations minus deallocations on this thread reached (`thread.peak.read`). Nil without
  /// jemalloc.
  public static func threadPeakBytes() -> Int? {
    #if Jemalloc
      var value: UInt64 = 0
      var length = MemoryLayout<UInt64>.size
      guard mallctl("thread.peak.read", &value, &length, nil, 0) == 0 else { return nil }
      return Int(value)
    #else
      return nil
    #endif
  }

  /// Bytes currently allocated by the application across all threads (`stats.allocated`, after an
  /// `epoch` refresh). Nil without jemalloc.
  public static func allocatedBytes() -> Int? {
    #if Jemalloc
      var epoch: UInt64 = 1
      var epochLength = MemoryLayout<UInt64>.size
      // Writing `epoch` refreshes jemalloc's cached statistics; the old value is not needed.
      _ = mallctl("epoch", nil, nil, &epoch, epochLength)
      var value = 0
      epochLength = MemoryLayout<Int>.size
      guard mallctl("stats.allocated", &value, &epochLength, nil, 0) == 0 else { return nil }
      return value
    #else
      return nil
    #endif
  }
}
