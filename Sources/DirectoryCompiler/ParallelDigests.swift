import DirectoryContainer
import SystemCalls

/// The SHA-256 of several finished files, on several threads: a compile's bases are read back
/// and hashed before they enter the container, and on one thread that was the last 0.15 s of a
/// two-thread compile of directory-4m (perf). Reading only: the durable steps stay in order on
/// the calling thread.
enum ParallelDigests {
  /// Each file's hex digest, in order (nil for one that cannot be read), on `threads` threads.
  static func hexDigests(ofFiles paths: [String], threads: Int) -> [String?] {
    let results = DigestSlots(count: paths.count)
    let workers = max(1, min(threads, paths.count))
    func hash(worker: Int) {
      // Files are taken in turn, largest first would need their sizes; bases are many and
      // of similar size, so striding balances well enough.
      for index in stride(from: worker, to: paths.count, by: workers) {
        results.digests[index] = SHA256.hexDigest(ofFile: paths[index])
      }
    }
    JoinableThread.forkJoin(workers) { hash(worker: $0) }
    return results.digests
  }
}

/// Each file's digest, written by the one thread that hashes it, read after every thread is
/// joined.
private final class DigestSlots: @unchecked Sendable {
  var digests: [String?]
  init(count: Int) { digests = [String?](repeating: nil, count: count) }
}
