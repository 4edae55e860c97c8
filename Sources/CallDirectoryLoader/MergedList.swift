import BaseFormat
import HeapModule

/// One ascending stream over several sorted bases of one kind: a k-way merge through a binary
/// heap. A number present in several bases comes out once, with the label of the
/// highest-priority base (on equal priorities, the one listed first). The heap is
/// swift-collections' `Heap`.
///
/// A merge may open its bases lazily (``init(pending:open:)``): each when the merge reaches its
/// lowest number, and each is released when it ends. Regions are contiguous number ranges, as
/// area codes are, so a merge of 300 regions holds two or three readers at once, not 300, and
/// its footprint does not grow with the number of bases.
package final class MergedList {
  /// Opens the reader of the source at this index (an index into the `pending` list).
  package typealias Opener = (Int) throws(BaseFormatError) -> any BaseReader

  private struct Source {
    /// Nil before the source is opened and after it ends (its reader is released then).
    var reader: (any BaseReader)?
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

  // Safe: one merge runs on one thread; dynamic exclusivity checks on these took a seventh of the
  // extension's time in phase two, so they are off.
  @exclusivity(unchecked) private var sources: [Source]
  @exclusivity(unchecked) private var heap: Heap<Key>
  /// Sources not yet opened, by lowest number, with `nextPending` the first of them.
  private var pendingOrder: [(lowestNumber: Int64, source: Int)] = []
  private var nextPending = 0
  private let opener: Opener?

  /// Opens the merge over readers already open.
  /// - Parameter readers: each base's reader with its priority.
  /// - Throws: the first `BaseFormat.BaseFormatError` reading the first entries.
  package init(_ readers: [(reader: any BaseReader, priority: Int)]) throws(BaseFormatError) {
    // Safe: a merge runs on one thread: its unchecked fields are that thread's alone.
    unsafe sources = []
    unsafe sources.reserveCapacity(readers.count)
    opener = nil
    // Storage reserved once, not grown insert by insert: each size it would grow through stays
    // in the allocator's thread cache (the extension's footprint).
    unsafe heap = Heap(minimumCapacity: readers.count)
    for (index, item) in readers.enumerated() {
      unsafe sources.append(Source(reader: item.reader, priority: item.priority, current: nil))
      try advance(index, priority: item.priority)
    }
  }

  /// Opens a merge whose bases are opened when it reaches them and released when they end.
  /// - Parameters:
  ///   - pending: each base's lowest number (from its header; every entry is at or above it)
  ///     and priority, in the order that breaks ties between equal priorities.
  ///   - open: opens the base at an index of `pending`; its first entry must not lie below the
  ///     lowest number given for it.
  package init(
    pending: [(lowestNumber: Int64, priority: Int)], open: @escaping Opener
  ) {
    // Safe: a merge runs on one thread: its unchecked fields are that thread's alone.
    unsafe sources = []
    unsafe sources.reserveCapacity(pending.count)
    opener = open
    unsafe heap = Heap(minimumCapacity: pending.count)
    pendingOrder.reserveCapacity(pending.count)
    for (index, base) in pending.enumerated() {
      unsafe sources.append(Source(reader: nil, priority: base.priority, current: nil))
      pendingOrder.append((base.lowestNumber, index))
    }
    // Stable: equal lowest numbers keep the given order (the heap breaks ties anyway).
    pendingOrder.sort { ($0.lowestNumber, $0.source) < ($1.lowestNumber, $1.source) }
  }

  /// Whether a base of the merge is a rule base (number ranges): the loader then walks it by
  /// runs (``nextRun()``), a range a step, so what it skips past the cap costs nothing per
  /// number.
  package var holdsRanges = false

  /// Only numbers in this range come out (one extension's part of a set split by number
  /// range); nil: all. The merge stops at the range's end, so the rest of each base is not read
  /// (its SHA-256 is still checked whole by the loader).
  package var range: Range<Int64>?

  /// The next distinct number with its winning label and that base's priority, or nil at the end
  /// (after every reader verified its checksums, when no range ends it first).
  package func next() throws(BaseFormatError) -> (entry: BaseEntry, priority: Int)? {
    guard let range else { return try nextMerged() }
    while let item = try nextMerged() {
      if item.entry.number < range.lowerBound { continue }
      return item.entry.number < range.upperBound ? item : nil
    }
    return nil
  }

  @inline(__always)
  private func nextMerged() throws(BaseFormatError) -> (entry: BaseEntry, priority: Int)? {
    // Safe: a merge runs on one thread: its unchecked fields are that thread's alone.
    if nextPending < pendingOrder.count { try openReached() }
    guard let top = unsafe heap.min else { return nil }
    let winner = unsafe (sources[top.source].current!, top.priority)
    while let key = unsafe heap.min, key.number == top.number {
      unsafe moveMin(key, to: try sources[key.source].reader!.next())
    }
    return winner
  }

  /// A stretch of consecutive numbers that all come out of one base with one label: a range of
  /// a rule base, or a single entry of a list base.
  package struct Run {
    /// Its first number.
    package var first: Int64
    /// Its last number (at or above ``first``).
    package var last: Int64
    /// Every number's label: the winning base's.
    package let label: String
    /// The winning base's priority.
    package let priority: Int

    /// How many numbers it holds.
    package var count: Int { Int(last - first) + 1 }
  }

  /// The next run of the merge, or nil at the end: the same numbers, labels and priorities as
  /// ``next()`` hands on one by one, in as many steps as there are runs. A run ends before the
  /// next number of any other base (which may win it), so every number of it is its base's
  /// winner. Not to be mixed with ``next()`` on one merge.
  package func nextRun() throws(BaseFormatError) -> Run? {
    while let run = try nextMergedRun() {
      guard let range else { return run }
      if run.last < range.lowerBound { continue }
      if run.first >= range.upperBound { return nil }
      return Run(
        first: max(run.first, range.lowerBound), last: min(run.last, range.upperBound - 1),
        label: run.label, priority: run.priority)
    }
    return nil
  }

  private func nextMergedRun() throws(BaseFormatError) -> Run? {
    // Safe: a merge runs on one thread: its unchecked fields are that thread's alone.
    if nextPending < pendingOrder.count { try openReached() }
    guard let top = unsafe heap.popMin() else { return nil }
    let winner = unsafe sources[top.source].current!
    // The other bases holding this number lose it: each moves on to its next.
    while let key = unsafe heap.min, key.number == top.number {
      unsafe moveMin(key, to: try sources[key.source].reader!.next())
    }
    // The run goes on in the winner's base up to the next number of a base that would beat it
    // there, or the next base to open (which may), whichever is first: both lie above it. The
    // heap holds the bases open at this number, two or three for regions.
    var limit = Int64.max
    for key in unsafe heap.unordered
    where key < Key(number: key.number, priority: top.priority, source: top.source) {
      limit = min(limit, key.number - 1)
    }
    if nextPending < pendingOrder.count {
      limit = min(limit, pendingOrder[nextPending].lowestNumber - 1)
    }
    let reader = unsafe sources[top.source].reader!
    let last = reader.extendRun(from: top.number, through: limit)
    // Every base still at or under the run's end loses those numbers to it: each moves past it,
    // a range in one step, so a lower-priority range under a higher one is not cut per number.
    if last > top.number {
      while let key = unsafe heap.min, key.number <= last {
        let loser = unsafe sources[key.source].reader!
        var next: BaseEntry? = BaseEntry(number: key.number, label: "")
        while let at = next, at.number <= last {
          _ = loser.extendRun(from: at.number, through: last)
          next = try loser.next()
        }
        moveMin(key, to: next)
      }
    }
    if let next = try reader.next() {
      unsafe sources[top.source].current = next
      unsafe heap.insert(Key(number: next.number, priority: top.priority, source: top.source))
    } else {
      unsafe sources[top.source].current = nil
      unsafe sources[top.source].reader = nil
    }
    return Run(first: top.number, last: last, label: winner.label, priority: top.priority)
  }

  /// Moves the heap's minimum, `key`, on to its source's `next` entry, or releases the source at
  /// its end.
  @inline(__always)
  private func moveMin(_ key: Key, to next: BaseEntry?) {
    // Safe: a merge runs on one thread: its unchecked fields are that thread's alone.
    unsafe sources[key.source].current = next
    if let next {
      _ = unsafe heap.replaceMin(
        with: Key(number: next.number, priority: key.priority, source: key.source))
    } else {
      _ = unsafe heap.removeMin()
      unsafe sources[key.source].reader = nil
    }
  }

  /// Opens every pending source that may hold the heap's smallest number or one below it (all
  /// of them at or under it must be open before that number comes out: one may hold it too,
  /// with a higher priority), or the next one when the heap is empty.
  private func openReached() throws(BaseFormatError) {
    // Safe: a merge runs on one thread: its unchecked fields are that thread's alone.
    while nextPending < pendingOrder.count,
      unsafe pendingOrder[nextPending].lowestNumber <= heap.min?.number ?? .max
    {
      let index = pendingOrder[nextPending].source
      nextPending += 1
      unsafe sources[index].reader = try opener!(index)
      unsafe try advance(index, priority: sources[index].priority)
    }
  }

  /// Reads a source's next entry into the heap, or releases the source at its end.
  private func advance(_ index: Int, priority: Int) throws(BaseFormatError) {
    // Safe: a merge runs on one thread: its unchecked fields are that thread's alone.
    if let first = unsafe try sources[index].reader!.next() {
      unsafe sources[index].current = first
      unsafe heap.insert(Key(number: first.number, priority: priority, source: index))
    } else {
      unsafe sources[index].reader = nil
    }
  }
}
