import ByteCoding
import Foundation
import SystemCalls

// Safe (the `unsafe` uses in this file): a record is encoded into the arena with its lengths
// first, and decoded only within the bytes those lengths and the arena's count allow; the
// `@exclusivity(unchecked)` fields are touched only by their object's own methods, on the one
// thread that owns the object, so no two accesses overlap (a sorter is one thread's); the views
// and buffers made here wrap bytes lent by `withUnsafeBytes`, `withUTF8` or
// `withUnsafeMutableBytes`, and are used only inside the closure that lends them.

/// A normalized entry on its way through the sort, as owned values (for tests and small callers;
/// the compiler adds bytes and reads ``SortRecordView``s).
struct SortRecord: Equatable {
  var number: Int64
  var rank: Int64
  /// Input order (file by file, line by line), for "keep first / last".
  var sequence: UInt64
  var label: String
  var region: String
  var category: String
  /// An identification entry's tag from its category column (``CompileOptions/entryTags``);
  /// 0 for none.
  var tag: UInt8

  init(
    number: Int64, rank: Int64, sequence: UInt64, label: String, region: String, category: String,
    tag: UInt8 = 0
  ) {
    self.number = number
    self.rank = rank
    self.sequence = sequence
    self.label = label
    self.region = region
    self.category = category
    self.tag = tag
  }

  /// A copy of a view's record.
  init(_ view: SortRecordView) {
    unsafe self.init(
      number: view.number, rank: view.rank, sequence: view.sequence,
      label: String(decoding: view.label, as: UTF8.self),
      region: String(decoding: view.region, as: UTF8.self),
      category: String(decoding: view.category, as: UTF8.self), tag: view.tag)
  }
}

/// A record as the sort hands it out: its texts are views of the sort's buffers, valid only
/// inside the closure they are handed to. Records stay bytes from the input file to the base:
/// a `String` per text and per pass was a fifth of a compile's instructions.
@safe struct SortRecordView {
  var number: Int64
  var rank: Int64
  var sequence: UInt64
  /// The label's UTF-8 bytes (empty for blocking entries).
  var label: UnsafeRawBufferPointer
  var region: UnsafeRawBufferPointer
  /// Empty for identification entries; the blocking list's name otherwise.
  var category: UnsafeRawBufferPointer
  /// An identification entry's tag (``CompileOptions/entryTags``); 0 for none.
  var tag: UInt8 = 0
  /// The whole record as the sort stored it, when it was decoded from the sort's bytes: copied
  /// on as it is, one copy instead of six appends (the merge is the compile's serial phase).
  var encoded: UnsafeRawBufferPointer? = nil
}

/// Sorts records by (number, input order) in bounded memory: records are packed into one byte
/// arena with a small index; when arena and index reach the budget they are sorted and written
/// as a run file; the runs are then merged with a heap. Memory is the budget plus one read buffer
/// per run, whatever the input size.
final class ExternalSorter {
  /// Bytes the arena and index may use together; lowered while other sorters share the budget.
  var budget: Int {
    // At most the offsets an index entry holds (``placeOffsetBits``).
    didSet { budget = min(max(budget, 64 * 1024), 1 << Self.placeOffsetBits) }
  }
  private let directory: String
  // Touched only by this class's own methods, which never overlap (no callbacks into it while
  // it works): the dynamic exclusivity checks on each access were a tenth of a compile.
  @exclusivity(unchecked) private var arena: [UInt8] = []
  /// Each record's number, input order, and place: its offset in the arena in the low
  /// ``placeOffsetBits`` bits, its size above them (``place(offset:size:)``).
  @exclusivity(unchecked) private var index: [(number: Int64, sequence: UInt64, offset: Int)] = []
  /// The radix sort's second buffer, as long as the index (counted in the budget with it).
  @exclusivity(unchecked) private var radixScratch: [IndexRadixSort.Entry] = []
  private(set) var runPaths: [String] = []
  /// An index entry's bytes (number, sequence, offset), twice: the entry and its place in the
  /// radix sort's scratch.
  private static let indexEntryByteCount = 48
  /// What this sorter's run files' names start with: sorters sharing a folder differ by it.
  private let runPrefix: String

  /// - Parameters:
  ///   - budget: bytes the arena and index may use together.
  ///   - directory: where run files go (removed by ``removeRuns()``).
  ///   - runPrefix: what its run files' names start with.
  init(budget: Int, directory: String, runPrefix: String = "") {
    self.budget = min(max(budget, 64 * 1024), 1 << Self.placeOffsetBits)
    self.directory = directory
    // Room reserved once, not grown by doubling: a doubling copies the old buffer into a new
    // one while both are resident, which took a two-thread compile's peak RSS over its budget.
    // The reservation is address space only; pages count once records fill them.
    unsafe arena.reserveCapacity(self.budget)
    unsafe index.reserveCapacity(self.budget / Self.indexEntryByteCount + 1)
    self.runPrefix = runPrefix
  }

  private var usedBytes: Int { unsafe arena.count + index.count * Self.indexEntryByteCount }

  /// Adds one record; its texts are copied (each at most 65,535 bytes: longer ones are cut).
  func add(
    number: Int64, rank: Int64, sequence: UInt64, label: ByteView, region: ByteView,
    category: ByteView, tag: UInt8 = 0
  ) throws {
    unsafe try label.withUnsafeBytes { label in
      unsafe try region.withUnsafeBytes { region in
        unsafe try category.withUnsafeBytes { category in
          unsafe try add(
            number: number, rank: rank, sequence: sequence, label: label, region: region,
            category: category, tag: tag)
        }
      }
    }
  }

  /// ``add(number:rank:sequence:label:region:category:)-(_,_,_,ByteView,ByteView,ByteView)``
  /// with the texts as raw buffers.
  func add(
    number: Int64, rank: Int64, sequence: UInt64, label: UnsafeRawBufferPointer,
    region: UnsafeRawBufferPointer, category: UnsafeRawBufferPointer, tag: UInt8 = 0
  ) throws {
    let offset = unsafe arena.count
    unsafe Self.appendRecord(
      number: number, rank: rank, sequence: sequence, tag: tag, label: label, region: region,
      category: category, to: &arena)
    unsafe index.append((number, sequence, Self.place(offset: offset, size: arena.count - offset)))
    if usedBytes >= budget { try spill() }
  }

  /// Bits of an index entry's place that hold the record's offset in the arena (a terabyte);
  /// the size (under 2^18 bytes: three texts of at most 65,535) is above them.
  static let placeOffsetBits = 40

  /// An index entry's place: the record's `offset` and `size` in one word. Kept in the index
  /// so a spill copies each record without reading its lengths first: reading them in sorted
  /// order was a cache miss a record, the spill's largest cost (8% of a compile, perf).
  @inline(__always)
  static func place(offset: Int, size: Int) -> Int { offset | size << placeOffsetBits }

  /// The offset and size of a place (``place(offset:size:)``).
  @inline(__always)
  static func unpack(_ place: Int) -> (offset: Int, size: Int) {
    (place & (1 << placeOffsetBits - 1), place >> placeOffsetBits)
  }

  /// Adds an owned record (see ``add(number:rank:sequence:label:region:category:)``).
  func add(_ record: SortRecord) throws {
    var label = record.label
    var region = record.region
    var category = record.category
    try label.withUTF8 { label in
      try region.withUTF8 { region in
        try category.withUTF8 { category in
          unsafe try add(
            number: record.number, rank: record.rank, sequence: record.sequence,
            label: UnsafeRawBufferPointer(label), region: UnsafeRawBufferPointer(region),
            category: UnsafeRawBufferPointer(category), tag: record.tag)
        }
      }
    }
  }

  /// Appends `record` to `bytes` as the sorter writes records (what ``decode(_:at:)`` reads).
  static func append(_ record: SortRecordView, to bytes: inout [UInt8]) {
    if let encoded = unsafe record.encoded {
      unsafe bytes.append(contentsOf: encoded)
      return
    }
    unsafe appendRecord(
      number: record.number, rank: record.rank, sequence: record.sequence, tag: record.tag,
      label: record.label, region: record.region, category: record.category, to: &bytes)
  }

  /// Appends a record's fields in the sorter's layout, a text's length (at most 65,535 bytes;
  /// longer ones are cut there) before its bytes, in one append: six appends, each checking
  /// the array's capacity and uniqueness, were 880 instructions a record (callgrind).
  private static func appendRecord(
    number: Int64, rank: Int64, sequence: UInt64, tag: UInt8, label: UnsafeRawBufferPointer,
    region: UnsafeRawBufferPointer, category: UnsafeRawBufferPointer, to bytes: inout [UInt8]
  ) {
    func clamped(_ text: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
      unsafe UnsafeRawBufferPointer(rebasing: text[0..<min(text.count, Int(UInt16.max))])
    }
    let (label, region, category) = unsafe (clamped(label), clamped(region), clamped(category))
    let size = fixedFieldsByteCount + 6 + label.count + region.count + category.count
    unsafe withUnsafeTemporaryAllocation(byteCount: size, alignment: 8) { record in
      unsafe record.storeLittleEndian(number, at: 0)
      unsafe record.storeLittleEndian(rank, at: 8)
      unsafe record.storeLittleEndian(sequence, at: 16)
      unsafe record.storeBytes(of: tag, toByteOffset: 24, as: UInt8.self)
      var offset = fixedFieldsByteCount
      func put(_ text: UnsafeRawBufferPointer) {
        unsafe record.storeLittleEndian(UInt16(text.count), at: offset)
        unsafe UnsafeMutableRawBufferPointer(
          rebasing: record[(offset + 2)..<(offset + 2 + text.count)]
        )
        .copyMemory(from: text)
        offset += 2 + text.count
      }
      unsafe put(label)
      unsafe put(region)
      unsafe put(category)
      unsafe bytes.append(contentsOf: UnsafeRawBufferPointer(record))
    }
  }

  /// Decodes the record at `offset`; returns it and the offset after it.
  /// - Throws: `ByteCoding.ByteCodingError` when the bytes end inside the record.
  static func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(ByteCodingError)
    -> (SortRecordView, Int)
  {
    var reader = unsafe LittleEndianReader(ByteView(bytes), offset: offset)
    let number = try reader.read(Int64.self)
    let rank = try reader.read(Int64.self)
    let sequence = try reader.read(UInt64.self)
    let tag = try reader.read(UInt8.self)
    // The texts stay raw buffers into `bytes` (the caller's borrow), as the record view holds;
    // the reader checks each one's length against the bytes left.
    let label = unsafe try Self.text(&reader, in: bytes)
    let region = unsafe try Self.text(&reader, in: bytes)
    let category = unsafe try Self.text(&reader, in: bytes)
    return unsafe (
      SortRecordView(
        number: number, rank: rank, sequence: sequence, label: label, region: region,
        category: category, tag: tag,
        encoded: UnsafeRawBufferPointer(rebasing: bytes[offset..<reader.offset])), reader.offset
    )
  }

  /// A record's text: its length, then its bytes, left in place in `bytes`.
  @inline(__always)
  private static func text(_ reader: inout LittleEndianReader, in bytes: UnsafeRawBufferPointer)
    throws(ByteCodingError) -> UnsafeRawBufferPointer
  {
    let count = Int(try reader.read(UInt16.self))
    let start = reader.offset
    try reader.skip(count)
    return unsafe UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)])
  }

  /// Number, rank and sequence (three 8-byte fields) and the tag (a byte) before the three
  /// texts.
  static let fixedFieldsByteCount = 25

  private func sortIndex() {
    unsafe IndexRadixSort.sort(&index, scratch: &radixScratch)
  }

  /// Writes the buffered records, sorted, as a run file.
  private func spill() throws {
    guard unsafe !index.isEmpty else { return }
    sortIndex()
    let path = directory + "/\(runPrefix)run-\(runPaths.count).bin"
    unsafe try Self.writeRun(to: path) { emit in
      unsafe try arena.withUnsafeBytes { bytes in
        for entry in unsafe index {
          let (offset, size) = Self.unpack(entry.offset)
          unsafe try emit(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + size)]))
        }
      }
    }
    runPaths.append(path)
    unsafe arena.removeAll(keepingCapacity: true)
    unsafe index.removeAll(keepingCapacity: true)
  }

  /// All records in (number, input order), merged from the runs and what is still in memory.
  func sorted() throws -> MergedRuns {
    guard !runPaths.isEmpty else {
      sortIndex()
      return unsafe try MergedRuns(
        runs: [], bufferByteCount: 0, memory: (arena, index.map { Self.unpack($0.offset).offset }))
    }
    try spillRemainder()
    releaseBuffers()
    return try Self.merge(runPaths, budget: budget, directory: directory, prefix: runPrefix)
  }

  /// Writes what is still in memory as a run, so ``runPaths`` hold every record: for a merge
  /// across several sorters (``merged(_:)``).
  func spillRemainder() throws { try spill() }

  /// Gives the arena's and the index's pages back once every record is in a run: the merge
  /// that follows needs only its read buffers, and a 40 M-row compile's peak was the full arena
  /// and the merge's buffers at once (313 MiB for a 256 MiB budget). Only before the final
  /// merge: a sorter that reads another input keeps its reservation (growing it by doubling
  /// would copy it while both are resident).
  private func releaseBuffers() {
    unsafe arena = []
    unsafe index = []
    unsafe radixScratch = []
  }

  /// Every record of several sorters (one per thread that read an input's part), merged in
  /// (number, sequence) order from their runs.
  static func merged(_ sorters: [ExternalSorter]) throws -> MergedRuns {
    guard sorters.count > 1 else { return try sorters[0].sorted() }
    for sorter in sorters {
      try sorter.spillRemainder()
      sorter.releaseBuffers()
    }
    return try merge(
      sorters.flatMap(\.runPaths), budget: sorters.reduce(0) { $0 + $1.budget },
      directory: sorters[0].directory, prefix: sorters[0].runPrefix + "merged-")
  }

  /// Creates the run file at `path` and writes what `records` emits through a 1 MiB buffer:
  /// the spill's records and a merge pass's are written alike.
  static func writeRun(
    to path: String, _ records: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
  ) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let handle = FileHandle(forWritingAtPath: path)
    else { throw CompileError.write("cannot create the sort run \(path)") }
    defer { try? handle.close() }
    var chunk: [UInt8] = []
    chunk.reserveCapacity(1 << 20)
    unsafe try records { bytes in
      unsafe chunk.append(contentsOf: bytes)
      if chunk.count >= 1 << 20 {
        try handle.write(contentsOf: chunk)
        chunk.removeAll(keepingCapacity: true)
      }
    }
    try handle.write(contentsOf: chunk)
  }

  /// Removes this sorter's run files, the merge passes' included.
  func removeRuns() {
    for path in runPaths { try? FileManager.default.removeItem(atPath: path) }
    let prefix = runPrefix
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    where entry.hasPrefix(prefix) && entry.contains("pass-") {
      try? FileManager.default.removeItem(atPath: directory + "/" + entry)
    }
  }
}

extension UnsafeMutableRawBufferPointer {
  /// Stores `value` little-endian at `offset`: a sort record's fixed fields.
  /// - Precondition: the value's bytes lie inside the buffer.
  @inline(__always)
  fileprivate func storeLittleEndian<T: FixedWidthInteger>(_ value: T, at offset: Int) {
    precondition(
      offset >= 0 && offset <= count - MemoryLayout<T>.size, "store outside the buffer")
    unsafe storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
  }
}
