import ByteCoding
import Foundation
import HeapModule

/// A normalized entry on its way through the sort.
struct SortRecord: Equatable {
  var number: Int64
  var rank: Int64
  /// Input order (file by file, line by line), for "keep first / last".
  var sequence: UInt64
  var label: String
  var region: String
  var category: String
}

/// Sorts records by (number, input order) in bounded memory: records are packed into one byte
/// arena with a small index; when arena and index reach the budget they are sorted and written
/// as a run file; the runs are then merged with a heap. Memory is the budget plus one read buffer
/// per run, whatever the input size.
final class ExternalSorter {
  private let budget: Int
  private let directory: String
  private var arena: [UInt8] = []
  private var index: [(number: Int64, sequence: UInt64, offset: Int)] = []
  private(set) var runPaths: [String] = []
  /// Bytes of one index entry (number, sequence, offset), for the budget.
  private static let indexEntryByteCount = 24

  /// - Parameters:
  ///   - budget: bytes the arena and index may use together.
  ///   - directory: where run files go (removed by ``removeRuns()``).
  init(budget: Int, directory: String) {
    self.budget = max(budget, 64 * 1024)
    self.directory = directory
  }

  private var usedBytes: Int { arena.count + index.count * Self.indexEntryByteCount }

  func add(_ record: SortRecord) throws {
    index.append((record.number, record.sequence, arena.count))
    Self.encode(record, into: &arena)
    if usedBytes >= budget { try spill() }
  }

  static func encode(_ record: SortRecord, into bytes: inout [UInt8]) {
    bytes.appendLittleEndian(record.number)
    bytes.appendLittleEndian(record.rank)
    bytes.appendLittleEndian(record.sequence)
    for text in [record.label, record.region, record.category] {
      // Through the contiguous bytes: appending a UTF-8 view went element by element.
      var text = text
      text.withUTF8 { utf8 in
        bytes.appendLittleEndian(UInt16(min(utf8.count, Int(UInt16.max))))
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8.prefix(Int(UInt16.max))))
      }
    }
  }

  /// Decodes the record at `offset`; returns it and the offset after it.
  /// - Throws: ``ByteCoding/ByteCodingError`` when the bytes end inside the record.
  static func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(ByteCodingError)
    -> (SortRecord, Int)
  {
    var reader = LittleEndianReader(bytes, offset: offset)
    func text() throws(ByteCodingError) -> String {
      String(decoding: try reader.readBytes(Int(try reader.read(UInt16.self))), as: UTF8.self)
    }
    let number = try reader.read(Int64.self)
    let rank = try reader.read(Int64.self)
    let sequence = try reader.read(UInt64.self)
    let label = try text()
    let region = try text()
    let category = try text()
    return (
      SortRecord(
        number: number, rank: rank, sequence: sequence, label: label, region: region,
        category: category), reader.offset
    )
  }

  /// Byte size of the record at `offset`.
  /// - Throws: ``ByteCoding/ByteCodingError`` when the bytes end inside the record.
  static func size(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(ByteCodingError) -> Int {
    var reader = LittleEndianReader(bytes, offset: offset)
    try reader.skip(Self.fixedFieldsByteCount)
    for _ in 0..<3 { try reader.skip(Int(try reader.read(UInt16.self))) }
    return reader.offset - offset
  }

  /// Number, rank and sequence: three 8-byte fields before the three texts.
  static let fixedFieldsByteCount = 24

  private func sortIndex() {
    index.sort { $0.number != $1.number ? $0.number < $1.number : $0.sequence < $1.sequence }
  }

  /// Writes the buffered records, sorted, as a run file.
  private func spill() throws {
    guard !index.isEmpty else { return }
    sortIndex()
    let path = directory + "/run-\(runPaths.count).bin"
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let handle = FileHandle(forWritingAtPath: path)
    else { throw CompileError.write("cannot create the sort run \(path)") }
    defer { try? handle.close() }
    var chunk: [UInt8] = []
    chunk.reserveCapacity(1 << 20)
    try arena.withUnsafeBytes { bytes in
      for entry in index {
        let size = try Self.size(bytes, at: entry.offset)
        chunk.append(
          contentsOf: UnsafeRawBufferPointer(rebasing: bytes[entry.offset..<(entry.offset + size)]))
        if chunk.count >= 1 << 20 {
          try handle.write(contentsOf: chunk)
          chunk.removeAll(keepingCapacity: true)
        }
      }
    }
    try handle.write(contentsOf: chunk)
    runPaths.append(path)
    arena.removeAll(keepingCapacity: true)
    index.removeAll(keepingCapacity: true)
  }

  /// All records in (number, input order), merged from the runs and what is still in memory.
  func sorted() throws -> MergedRuns {
    if !runPaths.isEmpty { try spill() }
    sortIndex()
    let perRunBuffer = max(16 * 1024, min(1 << 20, budget / max(1, 4 * runPaths.count)))
    return try MergedRuns(
      runs: runPaths, bufferByteCount: perRunBuffer,
      memory: runPaths.isEmpty ? (arena, index.map(\.offset)) : nil)
  }

  func removeRuns() {
    for path in runPaths { try? FileManager.default.removeItem(atPath: path) }
  }
}

/// A k-way merge of sorted runs (or the in-memory records when nothing was spilled).
final class MergedRuns {
  private final class Run {
    let handle: FileHandle
    var buffer: [UInt8] = []
    var position = 0
    var atEnd = false
    let chunk: Int
    var current: SortRecord?
    init(handle: FileHandle, chunk: Int) {
      self.handle = handle
      self.chunk = chunk
    }

    func advance() throws {
      // Make sure a whole record is buffered: its fixed part, then its three texts.
      func ensure(_ count: Int) throws -> Bool {
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
      guard try ensure(30) else {
        current = nil
        return
      }
      var needed = 24
      for _ in 0..<3 {
        guard try ensure(needed + 2) else { throw CompileError.write("a sort run is truncated") }
        let count = buffer.withUnsafeBytes {
          Int($0.loadLittleEndian(UInt16.self, at: position + needed))
        }
        needed += 2 + count
      }
      guard try ensure(needed) else { throw CompileError.write("a sort run is truncated") }
      guard
        let (record, end) = try? buffer.withUnsafeBytes({
          try ExternalSorter.decode($0, at: position)
        })
      else { throw CompileError.write("a sort run is truncated") }
      current = record
      position = end
    }
  }

  private var runs: [Run] = []
  /// (number, input order, run): the run holding the smallest record is the heap's minimum.
  private struct Key: Comparable {
    let number: Int64
    let sequence: UInt64
    let run: Int
    static func < (left: Key, right: Key) -> Bool {
      left.number != right.number ? left.number < right.number : left.sequence < right.sequence
    }
  }
  private var heap = Heap<Key>()
  private var memory: (arena: [UInt8], offsets: [Int])?
  private var memoryPosition = 0

  init(runs paths: [String], bufferByteCount: Int, memory: ([UInt8], [Int])?) throws {
    self.memory = memory.map { (arena: $0.0, offsets: $0.1) }
    for path in paths {
      guard let handle = FileHandle(forReadingAtPath: path) else {
        throw CompileError.unreadable(path, "sort run vanished")
      }
      let run = Run(handle: handle, chunk: bufferByteCount)
      try run.advance()
      runs.append(run)
      if let record = run.current {
        heap.insert(Key(number: record.number, sequence: record.sequence, run: runs.count - 1))
      }
    }
  }

  /// The next record in (number, input order), or nil at the end.
  func next() throws -> SortRecord? {
    if let memory {
      guard memoryPosition < memory.offsets.count else { return nil }
      let offset = memory.offsets[memoryPosition]
      memoryPosition += 1
      // The arena holds what `encode` wrote in this process: a short record is a bug here.
      return try memory.arena.withUnsafeBytes { try ExternalSorter.decode($0, at: offset).0 }
    }
    guard let top = heap.min else { return nil }
    let record = runs[top.run].current!
    try runs[top.run].advance()
    if let next = runs[top.run].current {
      _ = heap.replaceMin(with: Key(number: next.number, sequence: next.sequence, run: top.run))
    } else {
      _ = heap.removeMin()
    }
    return record
  }
}
