import DirectoryContainer
import SystemCalls

/// The SHA-256 of several finished files, on several threads: a compile's bases are read back
/// and hashed before they enter the container, and on one thread that was the last 0.15 s of a
/// two-thread compile of directory-4m (perf). Reading only: the durable steps stay in order on
/// the calling thread.
enum ParallelDigests {
  /// Each file's hex digest, in order (nil for one that cannot be read), on `threads` threads.
  static func hexDigests(ofFiles paths: [String], threads: Int) -> [String?] {
    // A slot object per file: threads write distinct objects, never one array's elements.
    let slots = paths.map { _ in DigestSlot() }
    let workers = max(1, min(threads, paths.count))
    let hash: @Sendable (Int) -> Void = { worker in
      // Files are taken in turn, largest first would need their sizes; bases are many and
      // of similar size, so striding balances well enough.
      for index in stride(from: worker, to: paths.count, by: workers) {
        slots[index].digest = SHA256.hexDigest(ofFile: paths[index])
      }
    }
    JoinableThread.forkJoin(workers, hash)
    return slots.map(\.digest)
  }
}

// Safe: written by the one thread that hashes its file, read after the join.
/// One file's digest, written by the one thread that hashes it, read after every thread is
/// joined (the join orders the write before the read).
private final class DigestSlot: @unchecked Sendable {
  var digest: String?
}
