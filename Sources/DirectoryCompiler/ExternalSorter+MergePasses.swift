import Foundation
import SystemCalls

// Safe (the `unsafe` uses in this file): the views and buffers made here wrap bytes lent by
// `withUnsafeBytes`, `withUTF8` or `withUnsafeMutableBytes`, and are used only inside the closure
// that lends them.

/// Merging many runs: how many one merge reads at once, and the passes that merge them into
/// fewer, longer runs first when there are more (a compile of billions of rows).
extension ExternalSorter {
  /// The most runs one merge reads at once, when the open-file limit allows: each open run
  /// holds a descriptor and a read buffer. A 400 M-row compile makes about 720 runs; merged 128
  /// at a time they took a pass that wrote and read every record once more (26 GB each way),
  /// while one merge of 720 makes the same comparisons (log₂ 720 against log₂ 128 + log₂ 6).
  /// Past this many (2.6 billion rows make about 4,500), runs are merged in passes.
  static let maximumFanIn = 1_024
  /// Descriptors kept for everything else the compile opens: the inputs, a base writer per
  /// region, the container's files.
  static let reservedDescriptors = 256
  /// The fewest runs a merge reads at once, whatever the limit.
  static let minimumFanIn = 16
  /// Each run's read buffer, bounds: an eighth of the budget over the runs read at once.
  static let runBufferBounds = (minimum: 16 * 1024, maximum: 1 << 20)

  /// How many runs one merge reads at once: ``maximumFanIn``, or fewer when the open-file
  /// limit (raised toward it first) leaves less room beside ``reservedDescriptors``.
  static func fanIn() -> Int {
    let limit =
      ProcessEnvironment.openFileLimit(raisingTo: maximumFanIn + reservedDescriptors) ?? 1_024
    return max(minimumFanIn, min(maximumFanIn, limit - reservedDescriptors))
  }

  /// The final merge over `paths`, after merging them `fanIn` at a time into longer runs until
  /// no more than that many are left; each pass's runs are removed once merged.
  static func merge(
    _ paths: [String], budget: Int, directory: String, prefix: String, fanIn: Int = fanIn()
  ) throws -> MergedRuns {
    var paths = paths
    var pass = 0
    while paths.count > fanIn {
      pass += 1
      var next: [String] = []
      for (group, start) in stride(from: 0, to: paths.count, by: fanIn).enumerated() {
        let members = Array(paths[start..<min(start + fanIn, paths.count)])
        let output = directory + "/\(prefix)pass-\(pass)-\(group).bin"
        try write(
          MergedRuns(
            runs: members, bufferByteCount: runBuffer(budget: budget, runs: members.count),
            memory: nil), to: output)
        for path in members { try? FileManager.default.removeItem(atPath: path) }
        next.append(output)
      }
      paths = next
    }
    return try MergedRuns(
      runs: paths, bufferByteCount: runBuffer(budget: budget, runs: paths.count), memory: nil,
      passes: pass)
  }

  /// Each run's read buffer when `runs` are read at once: an eighth of the budget between them.
  /// The merge's other memory (a write buffer, a block and a full dictionary per base, the
  /// seed set's candidates) grows until the bases' dictionaries fill, and the merge's peak
  /// must stay under the reading phase's for memory to be flat in N: with a quarter, a 40 M-row
  /// compile peaked at 180.8 MiB against 4 M rows' 171.1 (N^0.024); with half, 211 MiB.
  static func runBuffer(budget: Int, runs: Int) -> Int {
    max(runBufferBounds.minimum, min(runBufferBounds.maximum, budget / max(1, 8 * runs)))
  }

  /// Writes every record of `merge`, in order, as one run file at `path`.
  private static func write(_ merge: MergedRuns, to path: String) throws {
    unsafe try writeRun(to: path) { emit in
      var record: [UInt8] = []
      while try merge.next({
        record.removeAll(keepingCapacity: true)
        append($0, to: &record)
      }) {
        unsafe try record.withUnsafeBytes { unsafe try emit($0) }
      }
    }
  }
}
