import SystemCalls
import SystemPackage

/// One base's patches, applied in order: the first to ``oldPath``, each next one to the base the
/// previous one made. ``outputs`` names where each step's base is written (one per patch); the
/// last is the base the chain makes. A step's base is removed once the next step has made its
/// own, so a chain holds at most two bases on disk however long it is (a 12,070-patch chain of
/// a 4 MiB base once left 46 GiB of them behind).
package struct PatchChain: Sendable, Equatable {
  /// The patches, oldest first.
  package var patches: [String]
  /// The base the first patch applies to.
  package var oldPath: String
  /// Where each step's base is written, as many as ``patches``.
  package var outputs: [String]

  /// A chain of `patches` from `oldPath`, each step written to the matching `outputs` path.
  package init(patches: [String], oldPath: String, outputs: [String]) {
    precondition(patches.count == outputs.count, "one output per patch")
    self.patches = patches
    self.oldPath = oldPath
    self.outputs = outputs
  }

  /// The base the chain makes (its old base when it has no patches).
  package var madePath: String { outputs.last ?? oldPath }
}

extension PatchApplier {
  /// The threads ``apply(_:threads:shouldStop:)`` uses by default: the cores online (a patch's apply is
  /// compute-bound: decoding, re-encoding and hashing a base), at least 1.
  package static var defaultThreadCount: Int { ProcessEnvironment.onlineCoreCount }

  /// Applies every chain, each on one thread (its steps in order), the chains spread over up to
  /// `threads` threads: the largest first, each to the thread with the least work so far (by the
  /// old bases' bytes), so the split is the same on every run. Memory is one apply's per thread.
  /// - Parameters:
  ///   - chains: the chains to apply.
  ///   - threads: the most threads used.
  ///   - shouldStop: asked by every thread between patches and within each apply (see
  ///     ``apply(patch:to:output:shouldStop:)``); true stops them all with a
  ///     ``ReleaseError/Kind/cancelled`` error.
  /// - Throws: the first failing chain's ``ReleaseError`` (in the order given), once every
  ///   thread has stopped; a chain that failed leaves nothing at its failing step's output, and
  ///   the other chains' outputs stay for the caller to keep or remove. Only each chain's last
  ///   output is left: every earlier step's base is removed once the next is made, and a failed
  ///   chain's are all removed.
  package static func apply(
    _ chains: [PatchChain], threads: Int = defaultThreadCount,
    shouldStop: @escaping @Sendable () -> Bool = { false }
  ) throws(ReleaseError) {
    let lanes = lanes(for: chains, threads: max(1, threads)).map(LaneWork.init)
    JoinableThread.forkJoin(lanes.count) { lanes[$0].run(chains, shouldStop: shouldStop) }
    let failures = lanes.flatMap(\.failures).sorted { $0.index < $1.index }
    if let failure = failures.first { throw failure.error }
  }

  /// Chain indices per thread: longest-processing-time-first by the old base's size.
  static func lanes(for chains: [PatchChain], threads: Int) -> [[Int]] {
    let sizes = chains.map { chain in
      (try? FilePath(chain.oldPath).stat().size).map { Int($0) } ?? 0
    }
    let order = chains.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
    var lanes = [[Int]](repeating: [], count: min(threads, max(1, chains.count)))
    var load = [Int](repeating: 0, count: lanes.count)
    for index in order {
      let lightest = load.indices.min { load[$0] != load[$1] ? load[$0] < load[$1] : $0 < $1 }!
      lanes[lightest].append(index)
      load[lightest] += sizes[index] + 1
    }
    return lanes
  }
}

// Safe: written by its thread alone, read after the join.
/// One thread's chains and what failed among them: written by that thread alone and read after
/// it is joined (the join orders its writes before the read), so it needs no lock.
private final class LaneWork: @unchecked Sendable {
  let chainIndices: [Int]
  private(set) var failures: [(index: Int, error: ReleaseError)] = []

  init(_ chainIndices: [Int]) { self.chainIndices = chainIndices }

  func run(_ chains: [PatchChain], shouldStop: () -> Bool) {
    for index in chainIndices {
      let chain = chains[index]
      var input = chain.oldPath
      // The step before's base, once this step no longer reads it (never the chain's old base,
      // which is the caller's).
      func removeIntermediate() { if input != chain.oldPath { FolderCalls.removeFile(input) } }
      do throws(ReleaseError) {
        for (patch, output) in zip(chain.patches, chain.outputs) {
          if shouldStop() { throw PatchApplier.stopped(patch) }
          try PatchApplier.apply(patch: patch, to: input, output: output, shouldStop: shouldStop)
          removeIntermediate()
          input = output
        }
      } catch {
        removeIntermediate()
        failures.append((index, error))
      }
    }
  }
}
