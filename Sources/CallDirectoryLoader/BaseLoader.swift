import BaseFormat
import CallDirectoryCore

/// Streams one base into a Call Directory context in constant memory.
@usableFromInline package enum BaseLoader {
  /// Opens `path` with the reader of `strategy`.
  /// - Throws: `BaseFormat.BaseFormatError` for a missing, foreign, truncated or corrupt file.
  package static func openReader(path: String, strategy: LoadStrategy) throws(BaseFormatError)
    -> any BaseReader
  {
    // A rule base is ranges, read 4 KiB at a time whatever the strategy.
    if try BaseHeader.read(path: path).isRules { return try RuleBaseReader(path: path) }
    return switch strategy {
    case .mmap: try MappedBaseReader(path: path)
    case .buffered: try BufferedBaseReader(path: path)
    }
  }

  /// Hands every entry of the base at `path` to `context`, in file order, through the list its
  /// kind names. The caller completes or cancels the request.
  /// - Returns: the number of entries handed to the context.
  /// - Throws: `BaseFormat.BaseFormatError`; entries already handed on must then be discarded,
  ///   which is what the system does with a request that does not complete.
  @inlinable @discardableResult
  package static func load(
    path: String, strategy: LoadStrategy, into context: some CallDirectoryExtensionContext
  ) throws(BaseFormatError) -> Int {
    if try BaseHeader.read(path: path).isRules {
      return try feed(RuleBaseReader(path: path), into: context)
    }
    return switch strategy {
    case .mmap: try feed(MappedBaseReader(path: path), into: context)
    case .buffered: try feed(BufferedBaseReader(path: path), into: context)
    }
  }

  /// Generic over the concrete reader and context, and inlinable, so the per-entry loop is
  /// specialized in the extension for its own context rather than dispatched through witnesses.
  @inlinable
  static func feed<Reader: BaseReader, Context: CallDirectoryExtensionContext>(
    _ reader: Reader, into context: Context
  ) throws(BaseFormatError) -> Int {
    var handed = 0
    switch reader.header.kind {
    case .identification:
      while let entry = try reader.next() {
        context.addIdentificationEntry(
          withNextSequentialPhoneNumber: entry.number, label: entry.label)
        handed += 1
      }
    case .blocking:
      while let entry = try reader.next() {
        context.addBlockingEntry(withNextSequentialPhoneNumber: entry.number)
        handed += 1
      }
    }
    return handed
  }
}
