import HeapModule

extension ReleaseIndex {
  /// The cheapest download that turns the base whose SHA-256 is `from` (nil: none held) into
  /// `target`: a chain of patches with fewer bytes in all than the full base, or an empty chain
  /// meaning "download the full base".
  ///
  /// Dijkstra over the target's patches with swift-collections' `Heap` and one predecessor per
  /// hash: O(E log V). The earlier search scanned every hash for the minimum and copied each
  /// chain, quadratic: 149 s of CPU for an index of 12,000 small patches (issue 39, item 8).
  package func cheapestChain(from: String?, to target: Base) -> [Patch] {
    guard let from, from != target.sha256 else { return [] }
    var outgoing: [String: [Patch]] = [:]
    for patch in patches where patch.name == target.name {
      outgoing[patch.fromSHA256, default: []].append(patch)
    }
    struct Reached: Comparable {
      var bytes: Int
      var hash: String
      static func < (left: Reached, right: Reached) -> Bool {
        left.bytes != right.bytes ? left.bytes < right.bytes : left.hash < right.hash
      }
    }
    var best: [String: Int] = [from: 0]
    var arrivedBy: [String: Patch] = [:]
    var frontier = Heap<Reached>([Reached(bytes: 0, hash: from)])
    while let reached = frontier.popMin() {
      // A stale entry: the hash was reached more cheaply since it was queued.
      guard best[reached.hash] == reached.bytes else { continue }
      if reached.hash == target.sha256 {
        guard reached.bytes < target.byteCount else { return [] }
        var chain: [Patch] = []
        var hash = reached.hash
        while hash != from, let patch = arrivedBy[hash] {
          chain.append(patch)
          hash = patch.fromSHA256
        }
        return chain.reversed()
      }
      for patch in outgoing[reached.hash] ?? [] {
        // Sizes are bounded by the index's reader (``maximumFileByteCount``), their count by
        // ``maximumPatchCount``: the sum cannot overflow, but is checked all the same.
        let (bytes, overflow) = reached.bytes.addingReportingOverflow(patch.byteCount)
        guard !overflow, bytes < target.byteCount else { continue }
        if best[patch.toSHA256].map({ bytes < $0 }) ?? true {
          best[patch.toSHA256] = bytes
          arrivedBy[patch.toSHA256] = patch
          frontier.insert(Reached(bytes: bytes, hash: patch.toSHA256))
        }
      }
    }
    return []
  }
}
