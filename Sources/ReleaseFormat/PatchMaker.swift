import BaseFormat
import ByteCoding
import DirectoryContainer
import SystemPackage

/// Makes a semantic patch between two bases of one kind: a walk of both in number order that
/// writes only what differs — numbers removed, entries added, labels changed — as gaps between
/// numbers (LEB128) and labels as references into the old base's dictionary or to a label the
/// patch spelt earlier, or as new bytes; then zlib over the whole (see ``PatchHeader`` and the
/// README's "Patch format").
public enum PatchMaker {
  /// Writes at `patchPath` (atomically) the patch that turns the base at `oldPath` into the one
  /// at `newPath`.
  /// - Returns: the patch's header.
  /// - Throws: ``ReleaseError`` when a base cannot be read, the two are of different kinds, or
  ///   the patch cannot be written.
  @discardableResult
  public static func make(from oldPath: String, to newPath: String, patch patchPath: String)
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
        try file.write(header.encoded())
        let deflater = try Deflater { (piece) throws(ReleaseError) in
          do throws(BaseFormatError) { try file.write(piece) } catch {
            throw ReleaseError(error.description)
          }
        }
        var encoder = OperationEncoder(oldLabels: oldLabels, deflater: deflater)
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
        try encoder.finish()
        header.operationCount = encoder.operationCount
        try file.overwrite(at: 0, with: header.encoded())
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

/// Writes operations into a patch's stream. Each starts with one LEB128 value, `count << 2 | op`:
/// for a removal or a relabelling, `count` is how many old entries to keep unchanged before the
/// one it changes (old entries are found by their place, which costs far fewer bits than their
/// numbers: log2 of the gap in entries, not in numbers); for an addition, `count` is the gap from
/// the previous operation's number (old entries below the new number are kept first). A label
/// follows as a reference (LEB128: 0 then the length and bytes of a label not seen before; 1…n
/// the old dictionary's label n−1; past n the patch's own labels in the order it spelt them).
struct OperationEncoder {
  private var pending: [UInt8] = []
  private var previous: Int64 = 0
  /// Old entries kept unchanged since the last operation.
  private var kept: UInt64 = 0
  private let oldLabels: [String: Int]
  private let oldLabelCount: Int
  private var spelt: [String: Int] = [:]
  private let deflater: Deflater
  private(set) var operationCount = 0

  init(oldLabels: [String], deflater: Deflater) {
    var byLabel: [String: Int] = [:]
    for (index, label) in oldLabels.enumerated() where byLabel[label] == nil {
      byLabel[label] = index
    }
    self.oldLabels = byLabel
    oldLabelCount = oldLabels.count
    self.deflater = deflater
    pending.reserveCapacity(Self.flushByteCount)
  }

  private static let flushByteCount = 64 * 1024

  mutating func append(_ operation: PatchOperation, number: Int64, label: String?)
    throws(ReleaseError)
  {
    let count = operation == .add ? UInt64(number - previous) : kept
    pending.appendLEB128(count << 2 | UInt64(operation.rawValue))
    previous = number
    kept = 0
    if let label, operation != .remove, !label.isEmpty {
      if let index = oldLabels[label] {
        pending.appendLEB128(UInt64(index + 1))
      } else if let index = spelt[label] {
        pending.appendLEB128(UInt64(oldLabelCount + index + 1))
      } else {
        pending.appendLEB128(0)
        pending.appendLEB128(UInt64(label.utf8.count))
        pending.append(contentsOf: label.utf8)
        spelt[label] = spelt.count
      }
    }
    operationCount += 1
    if pending.count >= Self.flushByteCount {
      try deflater.write(pending)
      pending.removeAll(keepingCapacity: true)
    }
  }

  /// An old entry that stays as it is.
  mutating func keepOldEntry() { kept += 1 }

  mutating func finish() throws(ReleaseError) {
    try deflater.write(pending)
    pending.removeAll()
    try deflater.finish()
  }
}
