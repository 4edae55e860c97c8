import ByteCoding
import Foundation
import HeapModule

/// A k-way merge of sorted runs (or the in-memory records when nothing was spilled).
final class MergedRuns {
  /// One run file, read a chunk at a time; its current record is whole in `buffer` at `position`.
  ///
  /// A struct mutated in place in `runs`, not a class: the merge is the compile's one serial
  /// phase, and as a class each record retained and released the run and its buffer (a third
  /// of the merging thread's time, perf).
  private struct Run {
    let handle: FileHandle
    var buffer: [UInt8] = []
    var position = 0
    var atEnd = false
    let chunk: Int
    /// The current record's sort key, nil past the last record.
    var current: (number: Int64, sequence: UInt64)?
    init(handle: FileHandle, chunk: Int) {
      self.handle = handle
      self.chunk = chunk
    }

    /// Makes sure `count` bytes from `position` are buffered; false at the end of the file.
    private mutating func ensure(_ count: Int) throws -> Bool {
      while buffer.count - position < count {
        if atEnd { return false }
        if position > 0 {
          buffer.removeFirst(position)
          position = 0
        }
        let data = try handle.read(upToCount: max(chunk, count))
        if let data, !data.isEmpty { buffer.append(contentsOf: data) } else { atEnd = true }
      }
      return true
    }

    /// Buffers the record at `position` whole and reads its key.
    mutating func load() throws {
      guard try ensure(ExternalSorter.fixedFieldsByteCount + 6) else {
        guard buffer.count == position else { throw CompileError.write("a sort run is truncated") }
        current = nil
        return
      }
      var needed = ExternalSorter.fixedFieldsByteCount
      for _ in 0..<3 {
        guard try ensure(needed + 2) else { throw CompileError.write("a sort run is truncated") }
        let count = buffer.withUnsafeBytes {
          Int($0.loadLittleEndian(UInt16.self, at: position + needed))
        }
        needed += 2 + count
      }
      guard try ensure(needed) else { throw CompileError.write("a sort run is truncated") }
      current = buffer.withUnsafeBytes {
        (
          $0.loadLittleEndian(Int64.self, at: position),
          $0.loadLittleEndian(UInt64.self, at: position + 16)
        )
      }
    }

    /// Hands the current record to `body`, then loads the next.
    mutating func take(_ body: (SortRecordView) throws -> Void) throws {
      let end = try buffer.withUnsafeBytes { bytes in
        let (record, end) = try ExternalSorter.decode(bytes, at: position)
        try body(record)
        return end
      }
      position = end
      try load()
    }
  }

  @exclusivity(unchecked) private var runs: [Run] = []
  /// (number, input order, run): the run holding the smallest record is the heap's minimum.
  private struct Key: Comparable {
    let number: Int64
    let sequence: UInt64
    let run: Int
    static func < (left: Key, right: Key) -> Bool {
      left.number != right.number ? left.number < right.number : left.sequence < right.sequence
    }
  }
  @exclusivity(unchecked) private var heap = Heap<Key>()
  /// The records when nothing was spilled: their bytes and their offsets in merge order.
  private let inMemory: Bool
  private let arena: [UInt8]
  private let offsets: [Int]
  @exclusivity(unchecked) private var memoryPosition = 0

  /// Merge passes made before this merge (runs merged ``ExternalSorter/maximumFanIn`` at a time
  /// into longer ones).
  let passes: Int

  init(runs paths: [String], bufferByteCount: Int, memory: ([UInt8], [Int])?, passes: Int = 0)
    throws
  {
    self.passes = passes
    // Two plain properties, not an optional pair: unwrapping the pair per record retained both.
    inMemory = memory != nil
    arena = memory?.0 ?? []
    offsets = memory?.1 ?? []
    for path in paths {
      guard let handle = FileHandle(forReadingAtPath: path) else {
        throw CompileError.unreadable(path, "sort run vanished")
      }
      var run = Run(handle: handle, chunk: bufferByteCount)
      try run.load()
      runs.append(run)
      if let (number, sequence) = run.current {
        heap.insert(Key(number: number, sequence: sequence, run: runs.count - 1))
      }
    }
  }

  /// Hands the next record in (number, input order) to `body`; false at the end.
  func next(_ body: (SortRecordView) throws -> Void) throws -> Bool {
    if inMemory {
      guard memoryPosition < offsets.count else { return false }
      let offset = offsets[memoryPosition]
      memoryPosition += 1
      // The arena holds what `add` wrote in this process: a short record is a bug here.
      try arena.withUnsafeBytes { try body(ExternalSorter.decode($0, at: offset).0) }
      return true
    }
    guard let top = heap.min else { return false }
    try runs[top.run].take(body)
    if let (number, sequence) = runs[top.run].current {
      _ = heap.replaceMin(with: Key(number: number, sequence: sequence, run: top.run))
    } else {
      _ = heap.removeMin()
    }
    return true
  }
}
