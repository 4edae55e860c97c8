import Testing

@testable import ReleaseFormat

/// The cheapest patch chain, found by Dijkstra on a heap (issue 39, item 8: the earlier search
/// was quadratic, 149 s of CPU at 12,000 patches; `calldir app update` on such an index is timed
/// in the issue's closing note, not here), checked against Bellman–Ford on random graphs.
@Suite("The cheapest patch chain, on indexes of up to 12,000 patches")
struct ChainSearchTests {
  struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  static func hash(_ node: Int) -> String {
    let digits = String(node, radix: 16)
    return String(repeating: "0", count: 64 - digits.count) + digits
  }

  /// `patchCount` patches among `nodes` versions of base `b` (and a few of another base), sizes
  /// 1 to 999 bytes.
  func index(nodes: Int, patchCount: Int, seed: UInt64) -> ReleaseIndex {
    var random = Random(state: seed)
    var patches: [ReleaseIndex.Patch] = []
    for index in 0..<patchCount {
      let from = random.next(nodes)
      let to = random.next(nodes)
      patches.append(
        ReleaseIndex.Patch(
          name: index % 50 == 0 ? "other" : "b", fromSHA256: Self.hash(from),
          toSHA256: Self.hash(to), file: "patches/\(index).cdp", byteCount: 1 + random.next(999),
          sha256: Self.hash(1_000_000 + index)))
    }
    return ReleaseIndex(versions: [], patches: patches)
  }

  /// The cheapest cost from `from` to `to` over base `b`'s patches (Bellman–Ford), nil if none.
  func cheapestCost(_ index: ReleaseIndex, from: String, to: String) -> Int? {
    var best: [String: Int] = [from: 0]
    let edges = index.patches.filter { $0.name == "b" }
    var changed = true
    while changed {
      changed = false
      for patch in edges {
        guard let start = best[patch.fromSHA256] else { continue }
        if best[patch.toSHA256].map({ start + patch.byteCount < $0 }) ?? true {
          best[patch.toSHA256] = start + patch.byteCount
          changed = true
        }
      }
    }
    return best[to]
  }

  func target(_ node: Int, byteCount: Int) -> ReleaseIndex.Base {
    ReleaseIndex.Base(
      name: "b", role: "region", region: "R", priority: 50, entries: 1, sha256: Self.hash(node),
      byteCount: byteCount, file: "bases/b.cdb")
  }

  @Test(arguments: [(30, 120, UInt64(1)), (200, 2_000, 2), (3_000, 12_000, 3)])
  func theChainIsValidAndAsCheapAsBellmanFord(nodes: Int, patchCount: Int, seed: UInt64) {
    let index = index(nodes: nodes, patchCount: patchCount, seed: seed)
    var random = Random(state: seed &+ 99)
    var found = 0
    for _ in 0..<20 {
      let from = Self.hash(random.next(nodes))
      let to = random.next(nodes)
      // The whole base costs more than any chain here, so the cheapest chain is always taken.
      let base = target(to, byteCount: 1 << 30)
      let chain = index.cheapestChain(from: from, to: base)
      let expected = from == base.sha256 ? nil : cheapestCost(index, from: from, to: base.sha256)
      if let expected {
        found += 1
        #expect(chain.first?.fromSHA256 == from && chain.last?.toSHA256 == base.sha256)
        #expect(zip(chain, chain.dropFirst()).allSatisfy { $0.toSHA256 == $1.fromSHA256 })
        #expect(chain.allSatisfy { $0.name == "b" })
        #expect(chain.reduce(0) { $0 + $1.byteCount } == expected)
      } else {
        #expect(chain.isEmpty)
      }
    }
    #expect(found > 0)
  }

  @Test func aChainNotCheaperThanTheWholeBaseIsNotTaken() {
    let index = index(nodes: 30, patchCount: 120, seed: 1)
    var random = Random(state: 7)
    for _ in 0..<20 {
      let from = Self.hash(random.next(30))
      let to = random.next(30)
      guard let cost = cheapestCost(index, from: from, to: Self.hash(to)), cost > 0 else {
        continue
      }
      #expect(index.cheapestChain(from: from, to: target(to, byteCount: cost)).isEmpty)
      #expect(!index.cheapestChain(from: from, to: target(to, byteCount: cost + 1)).isEmpty)
    }
  }

  @Test func anIndexOfTooManyPatchesIsRefused() throws {
    let patch =
      #"{"name":"b","from":"\#(Self.hash(1))","to":"\#(Self.hash(2))","file":"patches/p.cdp","bytes":5,"sha256":"\#(Self.hash(3))"}"#
    let text =
      #"{"format":1,"versions":[],"patches":["#
      + Array(repeating: patch, count: ReleaseIndex.maximumPatchCount + 1).joined(separator: ",")
      + "]}"
    #expect(throws: ReleaseError.self) {
      try ReleaseIndex(parsing: Array(text.utf8), path: "index.json")
    }
    let fits =
      #"{"format":1,"versions":[],"patches":["# + patch + "]}"
    #expect(try ReleaseIndex(parsing: Array(fits.utf8), path: "index.json").patches.count == 1)
  }
}
