import BaseFormat

/// One ascending stream over several sorted bases of one kind: a k-way merge through a binary
/// heap, in O(k) memory. A number present in several bases comes out once, with the label of the
/// highest-priority base (on equal priorities, the one listed first).
public final class MergedList {
  private struct Source {
    let reader: any BaseReader
    let priority: Int
    let order: Int
    var current: BaseEntry?
  }

  // One merge runs on one thread; dynamic exclusivity checks on these two arrays took a seventh
  // of the extension's time in phase two, so they are off.
  @exclusivity(unchecked) private var sources: [Source]
  /// Indices into `sources`, a min-heap on (number, -priority, order).
  @exclusivity(unchecked) private var heap: [Int] = []

  /// Opens the merge.
  /// - Parameter readers: each base's reader with its priority.
  /// - Throws: the first ``BaseFormat/BaseFormatError`` reading the first entries.
  public init(_ readers: [(reader: any BaseReader, priority: Int)]) throws(BaseFormatError) {
    sources = []
    sources.reserveCapacity(readers.count)
    heap.reserveCapacity(readers.count)
    for (order, item) in readers.enumerated() {
      sources.append(
        Source(reader: item.reader, priority: item.priority, order: order, current: nil))
      if let first = try item.reader.next() {
        sources[order].current = first
        push(order)
      }
    }
  }

  @inline(__always)
  private func precedes(_ left: Int, _ right: Int) -> Bool {
    let a = sources[left]
    let b = sources[right]
    let numberA = a.current!.number
    let numberB = b.current!.number
    if numberA != numberB { return numberA < numberB }
    if a.priority != b.priority { return a.priority > b.priority }
    return a.order < b.order
  }

  private func push(_ index: Int) {
    heap.append(index)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard precedes(heap[child], heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private func popTop() -> Int {
    let top = heap[0]
    let last = heap.removeLast()
    if !heap.isEmpty {
      heap[0] = last
      var parent = 0
      while true {
        let left = 2 * parent + 1
        let right = left + 1
        var smallest = parent
        if left < heap.count && precedes(heap[left], heap[smallest]) { smallest = left }
        if right < heap.count && precedes(heap[right], heap[smallest]) { smallest = right }
        if smallest == parent { break }
        heap.swapAt(parent, smallest)
        parent = smallest
      }
    }
    return top
  }

  /// The next distinct number with its winning label and that base's priority, or nil at the end
  /// (after every reader verified its checksums).
  public func next() throws(BaseFormatError) -> (entry: BaseEntry, priority: Int)? {
    guard let top = heap.first else { return nil }
    let winner = (sources[top].current!, sources[top].priority)
    let number = winner.0.number
    while let index = heap.first, sources[index].current!.number == number {
      _ = popTop()
      sources[index].current = try sources[index].reader.next()
      if sources[index].current != nil { push(index) }
    }
    return winner
  }
}
