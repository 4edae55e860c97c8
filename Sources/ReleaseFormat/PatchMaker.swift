import BaseFormat
import ByteCoding
import DirectoryContainer
import SystemPackage

/// Makes a semantic patch between two bases of one kind: a walk of both in number order that
/// writes only what differs — numbers removed, entries added, labels changed — as gaps between
/// numbers (LEB128) and labels as references into the old base's dictionary or to a label the
/// patch spelt earlier, or as new bytes; then zlib over the whole (see ``PatchHeader`` and the
/// README's "Patch format").
package enum PatchMaker {
  /// Writes at `patchPath` (atomically) the patch that turns the base at `oldPath` into the one
  /// at `newPath`.
  /// - Returns: the patch's header.
  /// - Throws: ``ReleaseError`` when a base cannot be read, the two are of different kinds, or
  ///   the patch cannot be written.
  @discardableResult
  package static func make(from oldPath: String, to newPath: String, patch patchPath: String)
    throws(ReleaseError) -> PatchHeader
  {
    guard let fromSHA256 = SHA256.hexDigest(ofFile: oldPath) else {
      throw ReleaseError("cannot read \(oldPath)")
    }
    guard let toSHA256 = SHA256.hexDigest(ofFile: newPath) else {
      throw ReleaseError("cannot read \(newPath)")
    }
    do {
      let old = try MappedBaseReader(path: oldPath, validatesLabels: true)
      let new = try MappedBaseReader(path: newPath, validatesLabels: true)
      guard old.header.kind == new.header.kind else {
        throw ReleaseError(
          "\(oldPath) is a \(old.header.kind) base and \(newPath) a \(new.header.kind) one")
      }
      let oldLabels = try BaseDictionary.labels(ofBaseAt: oldPath)
      let byteCount = Int(try FilePath(newPath).stat().size)
      let file = try AtomicFileWriter(path: patchPath)
      var header = PatchHeader(
        kind: new.header.kind, baseVersion: new.header.version, fromSHA256: fromSHA256,
        toSHA256: toSHA256, toByteCount: byteCount, toEntryCount: new.header.entryCount,
        operationCount: 0, oldDictionaryCount: oldLabels.count)
      do {
        var encoder = try OperationEncoder(oldLabels: oldLabels)
        var oldEntry = try old.next()
        var newEntry = try new.next()
        while oldEntry != nil || newEntry != nil {
          if let o = oldEntry, newEntry == nil || o.number < newEntry!.number {
            try encoder.append(.remove, number: o.number, label: nil)
            oldEntry = try old.next()
          } else if let n = newEntry, oldEntry == nil || n.number < oldEntry!.number {
            try encoder.append(.add, number: n.number, label: n.label)
            newEntry = try new.next()
          } else if let o = oldEntry, let n = newEntry {
            if o.label != n.label {
              try encoder.append(.relabel, number: n.number, label: n.label)
            } else {
              encoder.keepOldEntry()
            }
            oldEntry = try old.next()
            newEntry = try new.next()
          }
        }
        let streams = try encoder.finish()
        header.operationCount = encoder.operationCount
        header.streamByteCounts = streams.map(\.count)
        try file.write(header.encoded())
        for stream in streams { try file.write(stream) }
        try file.commit()
      } catch {
        file.discard()
        throw error
      }
      return header
    } catch let error as ReleaseError {
      throw error
    } catch {
      throw ReleaseError("\(error)")
    }
  }
}

/// Writes operations into a patch's three streams. Each operation starts with one LEB128 value in
/// the operations stream, `count << 2 | op`: for a removal or a relabelling, `count` is how many
/// old entries to keep unchanged before the one it changes (old entries are found by their
/// place, which costs far fewer bits than their numbers: log2 of the gap in entries, not in
/// numbers); for an addition, `count` is the gap from the previous operation's number (old
/// entries below the new number are kept first). A relabelling's or an addition's label is a
/// LEB128 reference in the references stream: 0 for a label not seen before, spelt in the
/// labels stream as its bytes and a line feed (a label holds none); 1…n the old dictionary's
/// label n−1; past n the patch's own labels in the order it spelt them. Each stream is deflated
/// on its own and kept in memory until the end (compressed: a patch's size, on the publisher).
struct OperationEncoder {
  private var operations = PendingStream()
  private var references = PendingStream()
  private var labels = PendingStream()
  private var previous: Int64 = 0
  /// Old entries kept unchanged since the last operation.
  private var kept: UInt64 = 0
  private let oldLabels: [String: Int]
  private let oldLabelCount: Int
  private var spelt: [String: Int] = [:]
  private(set) var operationCount = 0

  init(oldLabels: [String]) throws(ReleaseError) {
    var byLabel: [String: Int] = [:]
    for (index, label) in oldLabels.enumerated() where byLabel[label] == nil {
      byLabel[label] = index
    }
    self.oldLabels = byLabel
    oldLabelCount = oldLabels.count
    try operations.start()
    try references.start()
    try labels.start()
  }

  mutating func append(_ operation: PatchOperation, number: Int64, label: String?)
    throws(ReleaseError)
  {
    let count = operation == .add ? UInt64(number - previous) : kept
    try operations.appendLEB128(count << 2 | UInt64(operation.rawValue))
    previous = number
    kept = 0
    if let label, operation != .remove, !label.isEmpty {
      if let index = oldLabels[label] {
        try references.appendLEB128(UInt64(index + 1))
      } else if let index = spelt[label] {
        try references.appendLEB128(UInt64(oldLabelCount + index + 1))
      } else {
        try references.appendLEB128(0)
        try labels.append(Array(label.utf8) + [PatchHeader.labelTerminator])
        spelt[label] = spelt.count
      }
    }
    operationCount += 1
  }

  /// An old entry that stays as it is.
  mutating func keepOldEntry() { kept += 1 }

  /// Ends the streams: their compressed bytes, operations, references, labels.
  mutating func finish() throws(ReleaseError) -> [[UInt8]] {
    [try operations.finish(), try references.finish(), try labels.finish()]
  }
}

/// One stream's bytes gathered and deflated in 64 KiB pieces into memory.
private struct PendingStream {
  private static let flushByteCount = 64 * 1024
  private var pending: [UInt8] = []
  private let compressed = CompressedBytes()
  private var deflater: Deflater?

  mutating func start() throws(ReleaseError) {
    let compressed = compressed
    deflater = try Deflater { (piece) throws(ReleaseError) in compressed.bytes += piece }
    pending.reserveCapacity(Self.flushByteCount)
  }

  mutating func appendLEB128(_ value: UInt64) throws(ReleaseError) {
    pending.appendLEB128(value)
    try flushIfFull()
  }

  mutating func append(_ bytes: [UInt8]) throws(ReleaseError) {
    pending += bytes
    try flushIfFull()
  }

  private mutating func flushIfFull() throws(ReleaseError) {
    guard pending.count >= Self.flushByteCount else { return }
    try deflater?.write(pending)
    pending.removeAll(keepingCapacity: true)
  }

  mutating func finish() throws(ReleaseError) -> [UInt8] {
    try deflater?.write(pending)
    pending.removeAll()
    try deflater?.finish()
    return compressed.bytes
  }
}

private final class CompressedBytes {
  var bytes: [UInt8] = []
}
