import BaseFormat
import HeapModule

/// One ascending stream over several sorted bases of one kind: a k-way merge through a binary
/// heap, in O(k) memory. A number present in several bases comes out once, with the label of the
/// highest-priority base (on equal priorities, the one listed first). The heap is
/// swift-collections' `Heap`.
public final class MergedList {
  private struct Source {
    let reader: any BaseReader
    let priority: Int
    var current: BaseEntry?
  }

  /// The heap's order: number ascending, then priority descending, then the order the bases
  /// were given in, so the first of a number is its winner.
  private struct Key: Comparable {
    let number: Int64
    let priority: Int
    let source: Int

    static func < (left: Key, right: Key) -> Bool {
      if left.number != right.number { return left.number < right.number }
      if left.priority != right.priority { return left.priority > right.priority }
      return left.source < right.source
    }
  }

  // One merge runs on one thread; dynamic exclusivity checks on these took a seventh of the
  // extension's time in phase two, so they are off.
  @exclusivity(unchecked) private var sources: [Source]
  @exclusivity(unchecked) private var heap = Heap<Key>()

  /// Opens the merge.
  /// - Parameter readers: each base's reader with its priority.
  /// - Throws: the first ``BaseFormat/BaseFormatError`` reading the first entries.
  public init(_ readers: [(reader: any BaseReader, priority: Int)]) throws(BaseFormatError) {
    sources = []
    sources.reserveCapacity(readers.count)
    // The heap is built from one array reserved once, not grown insert by insert: each size it
    // would grow through stays in the allocator's thread cache (the extension's footprint).
    var keys: [Key] = []
    keys.reserveCapacity(readers.count)
    for (index, item) in readers.enumerated() {
      let first = try item.reader.next()
      sources.append(Source(reader: item.reader, priority: item.priority, current: first))
      if let first {
        keys.append(Key(number: first.number, priority: item.priority, source: index))
      }
    }
    heap = Heap(keys)
  }

  /// Only numbers in this range come out (one extension's part of a set split by number
  /// range); nil: all. The merge stops at the range's end, so the rest of each base is not read
  /// (its SHA-256 is still checked whole by the loader).
  public var range: Range<Int64>?

  /// The next distinct number with its winning label and that base's priority, or nil at the end
  /// (after every reader verified its checksums, when no range ends it first).
  public func next() throws(BaseFormatError) -> (entry: BaseEntry, priority: Int)? {
    guard let range else { return try nextMerged() }
    while let item = try nextMerged() {
      if item.entry.number < range.lowerBound { continue }
      return item.entry.number < range.upperBound ? item : nil
    }
    return nil
  }

  private func nextMerged() throws(BaseFormatError) -> (entry: BaseEntry, priority: Int)? {
    guard let top = heap.min else { return nil }
    let winner = (sources[top.source].current!, top.priority)
    while let key = heap.min, key.number == top.number {
      let next = try sources[key.source].reader.next()
      sources[key.source].current = next
      if let next {
        _ = heap.replaceMin(
          with: Key(number: next.number, priority: key.priority, source: key.source))
      } else {
        _ = heap.removeMin()
      }
    }
    return winner
  }
}
