import BaseFormat
import ByteCoding
import DirectoryContainer
import SystemCalls
import SystemPackage

/// Applies a patch (``PatchMaker``) to the base it was made from, in bounded memory: the old
/// base is read through its mapped windows, the operations through a 64 KiB inflate window, and
/// the new base is written block by block by the same writer the compiler uses, so it comes out
/// byte-identical to the published one — which the result's SHA-256 then proves, or the result
/// is removed and the patch refused.
package enum PatchApplier {
  /// Reads a patch's header.
  /// - Throws: ``ReleaseError`` when `path` cannot be read or is not a patch.
  package static func header(ofPatch path: String) throws(ReleaseError) -> PatchHeader {
    do {
      let descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
      defer { try? descriptor.close() }
      var bytes = [UInt8](repeating: 0, count: PatchHeader.byteCount)
      // Safe: the lent buffer lives across the call, which reads or fills at most its count.
      let read = unsafe try bytes.withUnsafeMutableBytes {
        unsafe try descriptor.read(fromAbsoluteOffset: 0, into: $0)
      }
      // Safe: the lent buffer lives across the call, which reads or fills at most its count.
      return unsafe try bytes.withUnsafeBytes { (raw) throws(ReleaseError) in
        unsafe try PatchHeader(decoding: ByteView(raw).rebased(0..<read), path: path)
      }
    } catch let error as ReleaseError {
      throw error
    } catch {
      throw ReleaseError("cannot read \(path): \(error)")
    }
  }

  /// Applies the patch at `patchPath` to the base at `oldPath` and writes the base it makes at
  /// `outputPath` (atomically; the caller's scratch file, checked against the patch's SHA-256).
  /// - Returns: the patch's header (its `toSHA256` is the made base's).
  /// - Throws: ``ReleaseError`` when the patch is not for this base, is damaged or cut short, or
  ///   does not make the base it names; nothing is left at `outputPath` then.
  /// - Parameters:
  ///   - patchPath: the patch.
  ///   - oldPath: the base it applies to.
  ///   - outputPath: where the made base is written.
  ///   - shouldStop: asked every ``stopCheckEntries`` entries and before the made base is
  ///     hashed; true stops the apply with a ``ReleaseError/Kind/cancelled`` error, leaving
  ///     nothing at `outputPath`.
  @discardableResult
  package static func apply(
    patch patchPath: String, to oldPath: String, output outputPath: String,
    shouldStop: () -> Bool = { false }
  ) throws(ReleaseError) -> PatchHeader {
    let header = try header(ofPatch: patchPath)
    // The old base is not hashed first: the made base's SHA-256 is checked below, and a patch
    // applied to any other base cannot make it. Only a failure looks at the old base's hash,
    // to say which of the two was wrong. (Hashing both halved the apply's speed.)
    func refusal(_ otherwise: ReleaseError) -> ReleaseError {
      FolderCalls.removeFile(outputPath)
      guard let oldSHA256 = SHA256.hexDigest(ofFile: oldPath) else {
        return ReleaseError("cannot read \(oldPath)")
      }
      guard oldSHA256 == header.fromSHA256 else {
        return ReleaseError(
          "\(patchPath) applies to the base \(header.fromSHA256.prefix(16))…, not \(oldPath) (\(oldSHA256.prefix(16))…)"
        )
      }
      return otherwise
    }
    do {
      try write(
        header: header, patchPath: patchPath, oldPath: oldPath, outputPath: outputPath,
        shouldStop: shouldStop)
    } catch  where error.kind == .cancelled {
      FolderCalls.removeFile(outputPath)
      throw error
    } catch {
      throw refusal(error)
    }
    let made = SHA256.hexDigest(ofFile: outputPath, shouldStop: shouldStop)
    if made == nil, shouldStop() {
      FolderCalls.removeFile(outputPath)
      throw Self.stopped(patchPath)
    }
    guard let made, made == header.toSHA256 else {
      throw refusal(
        ReleaseError(
          "\(patchPath) did not make the base it names (SHA-256 \(header.toSHA256.prefix(16))…)"))
    }
    return header
  }

  /// How many entries an apply writes between two asks of its `shouldStop`: about a
  /// millisecond of work, so a stop is heard well within the 100 ms an app's expiring background
  /// time allows.
  package static let stopCheckEntries = 1 << 16

  /// The error of an apply that was told to stop.
  static func stopped(_ patchPath: String) -> ReleaseError {
    ReleaseError("applying \(patchPath) was stopped", kind: .cancelled)
  }

  private static func write(
    header: PatchHeader, patchPath: String, oldPath: String, outputPath: String,
    shouldStop: () -> Bool
  ) throws(ReleaseError) {
    do {
      let patch = try FileDescriptor.open(FilePath(patchPath), .readOnly, options: [.closeOnExec])
      defer { try? patch.close() }
      let fileByteCount = Int(try FilePath(patchPath).stat().size)
      guard fileByteCount <= header.fileByteCount else {
        throw ReleaseError(
          "\(patchPath): bytes after the patch's end (\(fileByteCount) bytes; its header names \(header.fileByteCount))"
        )
      }
      guard fileByteCount == header.fileByteCount else {
        throw ReleaseError(
          "\(patchPath) is cut short (\(fileByteCount) bytes of the \(header.fileByteCount) its header names)"
        )
      }
      // The three streams, each read through its own inflate window from its own range.
      var streamStart = Int64(PatchHeader.byteCount)
      var streams: [InflateReader] = []
      for (index, byteCount) in header.streamByteCounts.enumerated() {
        var offset = streamStart
        let end = streamStart + Int64(byteCount)
        let name = "\(patchPath) (\(PatchHeader.streamNames[index]))"
        streams.append(
          try InflateReader(path: name) { (buffer: inout [UInt8]) throws(ReleaseError) in
            let wanted = Int(min(Int64(buffer.count), end - offset))
            guard wanted > 0 else { return 0 }
            do {
              // Safe: the lent buffer lives across the call, which fills at most its count.
              let count = unsafe try buffer[..<wanted].withUnsafeMutableBytes {
                unsafe try patch.read(fromAbsoluteOffset: offset, into: $0)
              }
              offset += Int64(count)
              return count
            } catch {
              throw ReleaseError("cannot read \(patchPath): \(error)")
            }
          })
        streamStart = end
      }
      // Its SHA-256 is the patch's from-hash, so it is the published base: its blocks' checksums
      // are still verified, its labels (the writer's) not validated again, as the extension reads.
      let old = try MappedBaseReader(path: oldPath, validatesLabels: false)
      guard old.header.kind == header.kind else {
        throw ReleaseError("\(patchPath) is for a \(header.kind) base; \(oldPath) is not one")
      }
      var decoder = try OperationDecoder(
        oldLabels: try BaseDictionary.labels(ofBaseAt: oldPath), header: header,
        operations: streams[0], references: streams[1], labels: streams[2], path: patchPath)
      let writer = try BaseWriter(
        path: outputPath, kind: header.kind,
        compact: header.baseVersion == BaseHeader.compactVersion,
        dictionaryChoice: .firstLabels)
      var oldEntry = try old.next()
      var written = 0
      func copyOld() throws -> BaseEntry {
        guard let entry = oldEntry else {
          throw ReleaseError("\(patchPath): it reaches past the last entry of \(oldPath)")
        }
        oldEntry = try old.next()
        return entry
      }
      var nextStopCheck = stopCheckEntries
      while let operation = try decoder.next() {
        if written >= nextStopCheck {
          nextStopCheck = written + stopCheckEntries
          if shouldStop() { throw stopped(patchPath) }
        }
        switch operation.kind {
        case .add:
          let number = try decoder.addedNumber(operation)
          while let entry = oldEntry, entry.number < number {
            try append(entry.number, entry.label, to: writer)
            written += 1
            oldEntry = try old.next()
          }
          if oldEntry?.number == number {
            throw ReleaseError("\(patchPath): it adds \(number), which the base holds already")
          }
          try append(number, operation.label, to: writer)
          written += 1
        case .remove, .relabel:
          for _ in 0..<operation.count {
            let entry = try copyOld()
            try append(entry.number, entry.label, to: writer)
            written += 1
          }
          let target = try copyOld()
          decoder.passed(target.number)
          if operation.kind == .relabel {
            try append(target.number, operation.label, to: writer)
            written += 1
          }
        }
      }
      while let entry = oldEntry {
        try append(entry.number, entry.label, to: writer)
        written += 1
        oldEntry = try old.next()
        if written >= nextStopCheck {
          nextStopCheck = written + stopCheckEntries
          if shouldStop() { throw stopped(patchPath) }
        }
      }
      for (index, stream) in streams.enumerated() where try !stream.isAtEnd() {
        throw ReleaseError("\(patchPath): bytes past its \(PatchHeader.streamNames[index])")
      }
      guard written == header.toEntryCount else {
        throw ReleaseError(
          "\(patchPath) makes \(written) entries, not the \(header.toEntryCount) it names")
      }
      try writer.finish()
    } catch let error as ReleaseError {
      throw error
    } catch {
      throw ReleaseError("\(error)")
    }
  }
}

/// Appends an entry whose label is known good (the old base's, checked by the writer that made
/// it, or the patch's, checked when read): no per-label check again.
@inline(__always)
private func append(_ number: Int64, _ label: String, to writer: BaseWriter) throws(BaseFormatError)
{
  var label = label
  try label.withUTF8 { bytes in
    Result { () throws(BaseFormatError) in
      // Safe: the lent buffer lives across the call, which reads or fills at most its count.
      unsafe try writer.append(number, checkedLabelBytes: ByteView(bytes))
    }
  }.get()
}

/// Reads a patch's operations back (the inverse of ``OperationEncoder``), checking each.
struct OperationDecoder {
  struct Operation {
    let count: UInt64
    let kind: PatchOperation
    let label: String
  }
  private let oldLabels: [String]
  private var spelt: [String] = []
  private let operations: InflateReader
  private let references: InflateReader
  private let labels: InflateReader
  private let header: PatchHeader
  private let path: String
  private var previous: Int64 = 0
  private var read = 0

  init(
    oldLabels: [String], header: PatchHeader, operations: InflateReader,
    references: InflateReader, labels: InflateReader, path: String
  ) throws(ReleaseError) {
    guard oldLabels.count == header.oldDictionaryCount else {
      throw ReleaseError(
        "\(path) expects \(header.oldDictionaryCount) labels in the old base's dictionary, not \(oldLabels.count)"
      )
    }
    self.oldLabels = oldLabels
    self.header = header
    self.operations = operations
    self.references = references
    self.labels = labels
    self.path = path
  }

  /// The next operation, or nil after the last the header counts. Its `count` is old entries
  /// to keep (a removal or a relabelling) or the gap to its number (an addition: see
  /// ``addedNumber(_:)``).
  mutating func next() throws(ReleaseError) -> Operation? {
    guard read < header.operationCount else { return nil }
    read += 1
    let value = try operations.leb128()
    guard let kind = PatchOperation(rawValue: UInt8(value & 3)) else {
      throw ReleaseError("\(path): operation \(read) is of no known kind")
    }
    let count = value >> 2
    guard kind == .remove || header.kind == .identification else {
      return Operation(count: count, kind: kind, label: "")
    }
    if kind == .remove { return Operation(count: count, kind: kind, label: "") }
    let reference = try references.leb128()
    let label: String
    if reference == 0 {
      guard
        let bytes = try labels.bytes(
          upTo: PatchHeader.labelTerminator, atMost: BaseHeader.maximumLabelByteCount),
        !bytes.isEmpty
      else {
        throw ReleaseError(
          "\(path): operation \(read) spells a label that is empty or over \(BaseHeader.maximumLabelByteCount) bytes"
        )
      }
      // Safe: the lent buffer lives across the call, which reads or fills at most its count.
      guard
        unsafe bytes.withUnsafeBytes({ unsafe LabelRule.problem(ByteView($0), checkUTF8: true) })
          == nil
      else {
        throw ReleaseError("\(path): operation \(read) spells a label that is not one")
      }
      label = String(decoding: bytes, as: UTF8.self)
      spelt.append(label)
    } else if reference <= UInt64(oldLabels.count) {
      label = oldLabels[Int(reference - 1)]
    } else if reference - UInt64(oldLabels.count) <= UInt64(spelt.count) {
      label = spelt[Int(reference - UInt64(oldLabels.count) - 1)]
    } else {
      throw ReleaseError(
        "\(path): operation \(read) refers to label \(reference), which it has not")
    }
    return Operation(count: count, kind: kind, label: label)
  }

  /// The number an addition adds: its gap above the previous operation's number.
  /// - Throws: ``ReleaseError`` when the offset is 0 or passes the largest number.
  mutating func addedNumber(_ operation: Operation) throws(ReleaseError) -> Int64 {
    let offset = operation.count
    guard offset >= 1, offset <= UInt64(Int64.max - previous) else {
      throw ReleaseError("\(path): operation \(read) is not above the entry before it")
    }
    previous += Int64(offset)
    return previous
  }

  /// Notes the number of the old entry a removal or a relabelling changed.
  mutating func passed(_ number: Int64) { previous = number }
}
