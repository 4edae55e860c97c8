import ByteCoding
import Foundation
import HeapModule
import SystemCalls

// Safe (the `unsafe` uses in this file): each record is read within the bytes of its run's buffer
// (its length read first, and refilled when the record is not whole); the
// `@exclusivity(unchecked)` fields are touched only by their object's own methods, on the one
// thread that owns the object, so no two accesses overlap (the merge is one thread's).

/// A k-way merge of sorted runs (or the in-memory records when nothing was spilled).
final class MergedRuns {
  /// One run file, read a chunk at a time into a buffer of its own; its current record is whole
  /// in `buffer` from `position`, the bytes read end at `end`.
  ///
  /// A struct mutated in place in `runs`, not a class: the merge is the compile's one serial
  /// phase, and as a class each record retained and released the run and its buffer (a third
  /// of the merging thread's time, perf). The buffer is allocated once and read into with
  /// `pread`: reading a `Data` a chunk and appending it to a buffer shifted down by
  /// `removeFirst` grew a 40 M-row merge's memory by 32 MiB in its last seconds (the heap kept
  /// the freed chunks), past the reading phase's peak.
  private struct Run {
    let descriptor: Int32
    let path: String
    var buffer: [UInt8]
    var position = 0
    var end = 0
    var fileOffset = 0
    var atEnd = false
    /// The current record's sort key, nil past the last record.
    var current: (number: Int64, sequence: UInt64)?

    init(descriptor: Int32, path: String, chunk: Int) {
      self.descriptor = descriptor
      self.path = path
      buffer = [UInt8](repeating: 0, count: max(chunk, ExternalSorter.fixedFieldsByteCount + 6))
    }

    /// Makes sure `count` bytes from `position` are buffered; false at the end of the file.
    private mutating func ensure(_ count: Int) throws -> Bool {
      while end - position < count {
        if atEnd { return false }
        if position > 0 {
          // What is left is part of one record: a few hundred bytes, moved to the front.
          let left = end - position
          for index in 0..<left { buffer[index] = buffer[position + index] }
          (position, end) = (0, left)
        }
        // A record longer than the buffer (texts of up to 65,535 bytes each) widens it.
        if buffer.count < count { buffer += [UInt8](repeating: 0, count: count - buffer.count) }
        let read: Int
        do {
          read = try PositionalRead.read(
            descriptor, into: &buffer, from: end, byteCount: buffer.count - end, at: fileOffset)
        } catch {
          throw CompileError.unreadable(
            path, "sort run: \(SystemErrorText.describe(error.rawValue))")
        }
        if read == 0 { atEnd = true }
        end += read
        fileOffset += read
      }
      return true
    }

    /// Buffers the record at `position` whole and reads its key.
    mutating func load() throws {
      guard try ensure(ExternalSorter.fixedFieldsByteCount + 6) else {
        guard end == position else { throw CompileError.write("a sort run is truncated") }
        current = nil
        return
      }
      var needed = ExternalSorter.fixedFieldsByteCount
      for _ in 0..<3 {
        guard try ensure(needed + 2) else { throw CompileError.write("a sort run is truncated") }
        let count = unsafe buffer.withUnsafeBytes {
          unsafe Int($0.loadLittleEndian(UInt16.self, at: position + needed))
        }
        needed += 2 + count
      }
      guard try ensure(needed) else { throw CompileError.write("a sort run is truncated") }
      current = unsafe buffer.withUnsafeBytes {
        unsafe (
          $0.loadLittleEndian(Int64.self, at: position),
          $0.loadLittleEndian(UInt64.self, at: position + 16)
        )
      }
    }

    /// Hands the current record to `body`, then loads the next.
    mutating func take(_ body: (SortRecordView) throws -> Void) throws {
      // `load` made sure the record lies whole before `end`.
      let next = unsafe try buffer.withUnsafeBytes { bytes in
        let (record, next) = unsafe try ExternalSorter.decode(bytes, at: position)
        try body(record)
        return next
      }
      position = next
      try load()
    }
  }

  // Safe: one merge runs on one thread and never re-enters itself.
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
      let descriptor: Int32
      do {
        descriptor = try PositionalRead.open(path)
      } catch {
        throw CompileError.unreadable(
          path, "sort run vanished (\(SystemErrorText.describe(error.rawValue)))")
      }
      unsafe runs.append(Run(descriptor: descriptor, path: path, chunk: bufferByteCount))
      unsafe try runs[runs.count - 1].load()
      let run = unsafe runs[runs.count - 1]
      if let (number, sequence) = run.current {
        unsafe heap.insert(Key(number: number, sequence: sequence, run: runs.count - 1))
      }
    }
  }

  deinit { for run in unsafe runs { PositionalRead.close(run.descriptor) } }

  /// Hands the next record in (number, input order) to `body`; false at the end.
  func next(_ body: (SortRecordView) throws -> Void) throws -> Bool {
    if inMemory {
      guard unsafe memoryPosition < offsets.count else { return false }
      let offset = unsafe offsets[memoryPosition]
      unsafe memoryPosition += 1
      // The arena holds what `add` wrote in this process: a short record is a bug here.
      unsafe try arena.withUnsafeBytes { unsafe try body(ExternalSorter.decode($0, at: offset).0) }
      return true
    }
    guard let top = unsafe heap.min else { return false }
    unsafe try runs[top.run].take(body)
    if let (number, sequence) = unsafe runs[top.run].current {
      _ = unsafe heap.replaceMin(with: Key(number: number, sequence: sequence, run: top.run))
    } else {
      _ = unsafe heap.removeMin()
    }
    return true
  }
}
