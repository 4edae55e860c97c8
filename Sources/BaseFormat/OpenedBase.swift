import ByteCoding
import SystemPackage

// Safe (the `unsafe` uses in this file): the views and buffers made here wrap bytes lent by
// `withUnsafeBytes`, `withUTF8` or `withUnsafeMutableBytes`, and are used only inside the closure
// that lends them.

/// What both readers do when they open a base: decode and validate the header, open a compact
/// base's dictionary section, and check that the file's size is exactly what they describe, so
/// that both accept and reject the same files.
struct OpenedBase {
  /// The open file (the reader closes it).
  let descriptor: FileDescriptor
  /// The validated header.
  let header: BaseHeader
  /// A compact base's label dictionary (nil for fixed-width bases).
  let dictionary: LabelDictionary?

  /// Opens `path` and validates what opening needs; the descriptor is closed again on error.
  /// - Throws: ``BaseFormatError`` for a missing, foreign, truncated or corrupt file.
  /// - Parameter rules: whether a rule base is wanted (`RuleBaseReader`); the block readers
  ///   refuse one, as they refuse any version they cannot decode.
  init(path: String, validatesLabels: Bool, rules: Bool = false) throws(BaseFormatError) {
    let descriptor = try FileHandleIO.openForReading(path)
    do throws(BaseFormatError) {
      try self.init(descriptor: descriptor, path: path, validatesLabels: validatesLabels)
      guard header.isRules == rules else {
        throw BaseFormatError(path: path, offset: 8, problem: .unsupportedVersion(header.version))
      }
    } catch {
      try? descriptor.close()
      throw error
    }
  }

  /// A decoder of this base's blocks.
  func decoder(
    path: String, validatesLabels: Bool,
    labelCacheByteBudget: Int = DictionaryLabelCache.defaultByteBudget
  ) -> BlockDecoder {
    BlockDecoder(
      header: header, dictionary: dictionary, path: path, validatesLabels: validatesLabels,
      labelCacheByteBudget: labelCacheByteBudget)
  }

  /// Reads what opening needs from `descriptor`.
  /// - Throws: ``BaseFormatError`` for a foreign, truncated or corrupt file.
  init(descriptor: FileDescriptor, path: String, validatesLabels: Bool) throws(BaseFormatError) {
    self.descriptor = descriptor
    let fileByteCount = try FileHandleIO.byteCount(of: descriptor, path: path)
    let headerBytes = try FileHandleIO.readFully(
      descriptor, at: 0, byteCount: BaseHeader.byteCount, path: path)
    header = unsafe try headerBytes.withUnsafeBytes { bytes in
      Result { () throws(BaseFormatError) in
        unsafe try BaseHeader.decode(ByteView(bytes), path: path)
      }
    }.get()
    if header.isCompact || header.isRules {
      guard fileByteCount >= header.payloadEndOffset else {
        throw BaseFormatError(
          path: path, offset: fileByteCount,
          problem: .sizeMismatch(expected: header.payloadEndOffset, actual: fileByteCount))
      }
      dictionary = try LabelDictionary(
        descriptor: descriptor, header: header, headerBytes: headerBytes,
        fileByteCount: fileByteCount,
        path: path, validatesLabels: validatesLabels)
    } else {
      guard fileByteCount == header.payloadEndOffset else {
        throw BaseFormatError(
          path: path, offset: min(fileByteCount, header.payloadEndOffset),
          problem: .sizeMismatch(expected: header.payloadEndOffset, actual: fileByteCount))
      }
      dictionary = nil
    }
  }
}

extension BaseHeader {
  /// Reads and validates only the header of the base at `path` (one `pread` of
  /// ``byteCount`` bytes): what a merge needs to know before it opens the base whole.
  /// - Throws: ``BaseFormatError`` for a missing, non-regular, foreign or truncated file, or a
  ///   header that is inconsistent.
  @usableFromInline package static func read(path: String) throws(BaseFormatError) -> BaseHeader {
    let descriptor = try FileHandleIO.openForReading(path)
    defer { try? descriptor.close() }
    let bytes = try FileHandleIO.readFully(descriptor, at: 0, byteCount: byteCount, path: path)
    return unsafe try bytes.withUnsafeBytes { raw in
      Result { () throws(BaseFormatError) in unsafe try decode(ByteView(raw), path: path) }
    }.get()
  }
}
