#if canImport(Glibc)
  import CMalloc
#endif

/// The compiler's process gives large blocks back to the system when they are freed.
///
/// glibc serves a block of 128 KiB or more from a mapping of its own, and unmaps it on free;
/// but each such free raises that threshold to the block's size, and later blocks then come
/// from the heap, which keeps what they leave. A compile frees megabyte blocks at every sort
/// run, so its reading phase grew with the runs: 155 MiB of anonymous memory at 698 runs
/// (400 M rows) against 144 MiB at 70 and 143 MiB at 8, and peak RSS grew as N^0.018. With the
/// threshold fixed (`mallopt(M_MMAP_THRESHOLD)`, which also stops it moving) a 40 M-row
/// compile's reading phase took 139 MiB. Elsewhere there is nothing to tune.
enum LargeAllocations {
  /// The size from which a block is mapped on its own, in bytes: glibc's own default.
  static let mappedFromByteCount: Int32 = 128 * 1024

  /// Fixes the threshold for this process (once is enough; again is harmless).
  static func returnToTheSystem() {
    #if canImport(Glibc)
      _ = mallopt(M_MMAP_THRESHOLD, mappedFromByteCount)
    #endif
  }
}
