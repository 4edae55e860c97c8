/// The `capacity` highest-ranked numbers seen, in O(capacity) memory (on equal ranks the lower
/// number wins): the seed set when it is chosen by rank.
///
/// Kept as a buffer of at most twice `capacity` items and a threshold, not a heap: an entry
/// that beats the threshold is appended, and a full buffer is cut back to its best `capacity`
/// by quickselect, which raises the threshold. A heap (swift-collections' `Heap`) paid a
/// logarithmic sift with cache misses for each of the 470,000 entries that entered it on
/// directory-4m: measured with the compile's phase timings, the seed's choice was a fifth of
/// the merge. Here an entry costs one comparison and an append, and each cut is linear. The
/// numbers chosen are the same: the top `capacity` of a strict total order.
struct TopRanked {
  struct Item {
    let rank: Int64
    let number: Int64

    /// Whether `self` ranks below `other`: a lower rank, or an equal rank and a higher number.
    @inline(__always)
    func ranksBelow(_ other: Item) -> Bool {
      rank != other.rank ? rank < other.rank : number > other.number
    }
  }

  let capacity: Int
  /// The items that may be in the top `capacity`, unordered; at most twice `capacity`.
  private var items: [Item] = []
  /// The least item kept at the last cut: nothing ranking below it can enter.
  private var threshold: Item?

  init(capacity: Int) { self.capacity = max(0, capacity) }

  /// How many numbers the set holds now.
  var count: Int { min(items.count, capacity) }

  /// Offers an entry (numbers are distinct); returns whether it may be among the
  /// highest-ranked (it may leave later, and a few that return true never were).
  @inline(__always)
  mutating func consider(number: Int64, rank: Int64) -> Bool {
    guard capacity > 0 else { return false }
    let item = Item(rank: rank, number: number)
    if let threshold, item.ranksBelow(threshold) { return false }
    items.append(item)
    if items.count >= 2 * capacity { cut() }
    return true
  }

  /// The numbers of the highest-ranked `capacity` entries offered.
  func numbers() -> Set<Int64> {
    var copy = self
    copy.cut()
    return Set(copy.items.map(\.number))
  }

  /// Keeps the best `capacity` items and raises the threshold to the least of them.
  private mutating func cut() {
    guard items.count > capacity else { return }
    Self.selectBest(capacity, of: &items)
    items.removeLast(items.count - capacity)
    threshold = items.min { $0.ranksBelow($1) }
  }

  /// Reorders `items` so its first `count` are the best `count` (in no order): quickselect with
  /// random pivots, expected linear whatever order the ranks come in (a dump's ranks are input:
  /// a fixed pivot rule has orders that make it quadratic).
  static func selectBest(_ count: Int, of items: inout [Item]) {
    var low = 0
    var high = items.count
    var generator = SystemRandomNumberGenerator()
    while high - low > 1 && count > low && count < high {
      let pivot = items[Int.random(in: low..<high, using: &generator)]
      // Better than the pivot first, then the pivot, then the rest (numbers are distinct, so
      // exactly one item equals it).
      let split = items[low..<high].partition { !pivot.ranksBelow($0) }
      if let pivotPlace = items[split..<high].firstIndex(where: { $0.number == pivot.number }) {
        items.swapAt(split, pivotPlace)
      }
      if count <= split {
        high = split
      } else {
        low = split + 1
      }
    }
  }
}
