import SystemPackage

/// Why a base file cannot be read, with the byte offset where the problem was found.
public struct BaseFormatError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was wrong.
  package enum Problem: Equatable, Sendable {
    /// The operating system refused an operation (the call's name and its `Errno`).
    case system(call: String, errno: Errno)
    /// The file is shorter than a header.
    case shorterThanHeader(fileByteCount: Int)
    /// The first bytes are not the format's magic: not a calldir base.
    case foreignFile
    /// A version this reader does not know.
    case unsupportedVersion(UInt16)
    /// A kind byte that is neither identification nor blocking.
    case unknownKind(UInt8)
    /// The header's own checksum does not match its bytes.
    case headerChecksumMismatch
    /// The header's fields contradict each other (count, range, payload size).
    case inconsistentHeader(String)
    /// The file's size is not the header's size plus the payload size the header states.
    case sizeMismatch(expected: Int, actual: Int)
    /// A record claims a label longer than the format allows.
    case labelTooLong(byteCount: Int)
    /// A label's bytes are not valid UTF-8.
    case invalidUTF8Label
    /// A number not strictly above the previous one.
    case numberNotAscending(previous: Int64, number: Int64)
    /// A number outside the header's lowest–highest range.
    case numberOutOfRange(Int64)
    /// A record or block runs past the end of its block or of the payload.
    case recordPastEnd
    /// A block's header is impossible (size over the maximum, no entries, too many entries).
    case invalidBlock(String)
    /// A block's records do not match the block's checksum.
    case blockChecksumMismatch(expected: UInt64, actual: UInt64)
    /// A block's records take fewer bytes than the block says.
    case blockNotFilled(unusedByteCount: Int)
    /// Bytes remain after the header's entry count was read.
    case trailingBytes(count: Int)
    /// The checksum of the blocks' checksums does not match the header's (blocks reordered or
    /// replaced).
    case payloadChecksumMismatch(expected: UInt64, actual: UInt64)
    /// A compact base's label dictionary section is missing, foreign or corrupt.
    case invalidDictionary(String)
    /// A label the base format's label rule refuses: empty, over the maximum, not UTF-8 (writer
    /// side), or holding a control character or line break (writer side, and readers that
    /// validate).
    case invalidLabel(String)
    /// An output path that cannot be written as asked: a folder, a link to nothing, or a file
    /// this process itself holds open (the atomic file writer's checks).
    case refusedOutput(String)
  }

  /// The file, as given to the reader or writer.
  public var path: String
  /// Byte offset in the file where the problem was found.
  public var offset: Int
  /// What was wrong.
  package var problem: Problem

  /// Creates an error.
  package init(path: String, offset: Int, problem: Problem) {
    self.path = path
    self.offset = offset
    self.problem = problem
  }

  /// One line: the file, the byte offset, and the problem.
  public var description: String {
    "\(path): at byte \(offset): \(problemDescription)"
  }

  /// The problem alone, without the path and offset.
  package var problemDescription: String {
    switch problem {
    case .system(let call, let errno):
      "\(call) failed: \(errno) (errno \(errno.rawValue))"
    case .shorterThanHeader(let count):
      "truncated: \(count) bytes is shorter than the \(BaseHeader.byteCount)-byte header"
    case .foreignFile: "not a calldir base (wrong magic)"
    case .unsupportedVersion(let version):
      version == BaseHeader.retiredCompactVersion
        ? "format version 2 is retired (its readers rebuilt the label dictionary in memory): recompile the base with this calldir"
        : version == BaseHeader.rulesVersion
          ? "a rule base (format 4, number ranges) where a list was expected"
          : "unsupported format version \(version) (this reader knows \(BaseHeader.currentVersion) and \(BaseHeader.compactVersion))"
    case .unknownKind(let kind): "unknown base kind \(kind)"
    case .headerChecksumMismatch: "corrupt header: checksum mismatch"
    case .inconsistentHeader(let what): "corrupt header: \(what)"
    case .sizeMismatch(let expected, let actual):
      actual < expected
        ? "truncated: file has \(actual) bytes, header says \(expected)"
        : "file has \(actual) bytes, header says \(expected): trailing data"
    case .labelTooLong(let count):
      "corrupt record: label of \(count) bytes exceeds the maximum \(BaseHeader.maximumLabelByteCount)"
    case .invalidUTF8Label: "corrupt record: label is not valid UTF-8"
    case .numberNotAscending(let previous, let number):
      "corrupt record: number \(number) is not above the previous \(previous)"
    case .numberOutOfRange(let number):
      "corrupt record: number \(number) is outside the header's range"
    case .recordPastEnd: "corrupt record: runs past the end of its block or of the payload"
    case .invalidBlock(let why): "corrupt block header: \(why)"
    case .blockChecksumMismatch(let expected, let actual):
      "corrupt block: checksum \(hex(actual)) does not match the block's \(hex(expected))"
    case .blockNotFilled(let unused):
      "corrupt block: \(unused) bytes left after the block's last entry"
    case .trailingBytes(let count): "corrupt payload: \(count) bytes after the last entry"
    case .payloadChecksumMismatch(let expected, let actual):
      "corrupt payload: block checksums sum to \(hex(actual)), the header says \(hex(expected))"
    case .invalidDictionary(let why): "corrupt label dictionary: \(why)"
    case .invalidLabel(let why): "invalid label: \(why)"
    case .refusedOutput(let why): why
    }
  }
}

private func hex(_ value: UInt64) -> String {
  let digits = String(value, radix: 16)
  return "0x" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits
}
