import ByteCoding
import Foundation

// Safe (the `unsafe` uses in this file): the `@exclusivity(unchecked)` fields are touched only by
// their object's own methods, on the one thread that owns the object, so no two accesses overlap
// (one writer's).

/// The entries that could end in a rank-chosen seed set, written aside in number order while the
/// bases are written, so the seed set is picked from them instead of from a second merge of
/// every sorted record (a tenth of a compile).
///
/// An entry ends in the top N by rank only if it was in the top N of the entries before it when
/// it went by, so the entries that entered ``TopRanked`` then are enough: about
/// N × (1 + ln(entries / N)) of them when ranks do not follow numbers (470,000 of 4,000,000 for
/// a 100,000-entry seed set), all of them at worst. On disk, in the compile's scratch folder:
/// memory stays one buffer.
final class SeedCandidates {
  private let path: String
  private let handle: FileHandle
  // Safe: touched only by this class's own methods on one thread: its dynamic exclusivity checks on
  // each candidate were half a percent of a compile (callgrind).
  @exclusivity(unchecked) private var buffer: [UInt8] = []
  private static let bufferByteCount = 1 << 20

  /// Creates the file at `path`.
  /// - Throws: ``CompileError/write(_:)`` when it cannot be created.
  init(path: String) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let handle = FileHandle(forUpdatingAtPath: path)
    else { throw CompileError.write("cannot create \(path)") }
    self.path = path
    self.handle = handle
    unsafe buffer.reserveCapacity(Self.bufferByteCount)
  }

  deinit { try? handle.close() }

  /// Adds an entry (numbers ascending; a label of at most 65,535 bytes).
  func add(_ number: Int64, label: ByteView) throws {
    unsafe buffer.appendLittleEndian(number)
    unsafe buffer.appendLittleEndian(UInt16(label.count))
    unsafe buffer.append(contentsOf: label)
    if unsafe buffer.count >= Self.bufferByteCount { try flush() }
  }

  private func flush() throws {
    unsafe try handle.write(contentsOf: buffer)
    unsafe buffer.removeAll(keepingCapacity: true)
  }

  /// Reads the entries back, in the order added.
  /// - Throws: ``CompileError`` when the file cannot be read or ends inside an entry.
  func forEachCandidate(_ body: (Int64, ByteView) throws -> Void) throws {
    try flush()
    try handle.seek(toOffset: 0)
    var pending: [UInt8] = []
    while let data = try handle.read(upToCount: Self.bufferByteCount), !data.isEmpty {
      pending.append(contentsOf: data)
      let used = unsafe try pending.withUnsafeBytes { bytes in
        var reader = unsafe LittleEndianReader(ByteView(bytes))
        while reader.remainingCount >= 10 {
          let start = reader.offset
          let number = try reader.read(Int64.self)
          let count = Int(try reader.read(UInt16.self))
          guard reader.remainingCount >= count else { return start }
          try body(number, try reader.readView(count))
        }
        return reader.offset
      }
      pending.removeFirst(used)
    }
    guard pending.isEmpty else { throw CompileError.write("\(path) is truncated") }
  }
}
