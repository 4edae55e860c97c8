import Testing

@testable import DirectoryCompiler

/// The rank-chosen seed set's selection: whatever order the ranks come in (ascending,
/// descending, all equal, or shuffled), it keeps exactly the `capacity` highest-ranked entries,
/// the lower number first among equal ranks: what sorting every entry would choose.
@Suite("TopRanked: the seed set's highest ranks")
struct TopRankedTests {
  /// The reference: every entry sorted, best first, the first `capacity` kept.
  static func bestBySorting(_ entries: [(number: Int64, rank: Int64)], capacity: Int) -> Set<Int64>
  {
    let sorted = entries.sorted { $0.rank != $1.rank ? $0.rank > $1.rank : $0.number < $1.number }
    return Set(sorted.prefix(capacity).map(\.number))
  }

  static func orders(count: Int) -> [String: [(number: Int64, rank: Int64)]] {
    var generator = SystemRandomNumberGenerator()
    let numbers = (0..<count).map { Int64(74_950_000_000 + $0 * 7) }
    return [
      "ascending": numbers.enumerated().map { ($1, Int64($0)) },
      "descending": numbers.enumerated().map { ($1, Int64(count - $0)) },
      "all equal": numbers.map { ($0, 5) },
      "few ranks": numbers.map { ($0, Int64.random(in: 0..<4, using: &generator)) },
      "shuffled": numbers.map { ($0, Int64.random(in: -1_000_000...1_000_000, using: &generator)) },
    ]
  }

  @Test(arguments: [1, 7, 100, 1_000])
  func itKeepsWhatSortingKeeps(capacity: Int) {
    for (order, entries) in Self.orders(count: 5_000) {
      var top = TopRanked(capacity: capacity)
      for entry in entries { _ = top.consider(number: entry.number, rank: entry.rank) }
      #expect(
        top.numbers() == Self.bestBySorting(entries, capacity: capacity), "order \(order)")
      #expect(top.count == min(capacity, entries.count), "order \(order)")
    }
  }

  @Test func anEntryBelowTheKeptOnesIsRefusedAndNothingIsKeptAtCapacityZero() {
    var top = TopRanked(capacity: 2)
    for number in Int64(1)...4 { _ = top.consider(number: number, rank: 100) }
    // Cut at four: the two kept are numbers 1 and 2 (equal ranks, lower numbers first).
    let entered = top.consider(number: 9, rank: 99)
    #expect(!entered)
    #expect(top.numbers() == [1, 2])
    var none = TopRanked(capacity: 0)
    let refused = !none.consider(number: 1, rank: 1)
    #expect(refused && none.numbers().isEmpty && none.count == 0)
  }

  @Test func selectionPutsTheBestFirstWhateverThePivots() {
    var items = (0..<1_000).map { TopRanked.Item(rank: Int64($0 % 10), number: Int64($0)) }
    TopRanked.selectBest(50, of: &items)
    let chosen = Set(items.prefix(50).map(\.number))
    let expected = Set(
      (0..<1_000).filter { $0 % 10 == 9 }.prefix(50).map { Int64($0) })
    #expect(chosen == expected)
  }
}
