import BaseFormat
import ByteCoding

/// The fixed part at the start of a patch file (all integers little-endian):
///
/// | bytes | field |
/// | --- | --- |
/// | 8 | magic `CDPATCH2` |
/// | 2 | patch format version (2) |
/// | 1 | the bases' kind (1 identification, 2 blocking) |
/// | 2 | the made base's format version (1 fixed width, 3 compact) |
/// | 64 | SHA-256 of the base it applies to, lowercase hex |
/// | 64 | SHA-256 of the base it makes, lowercase hex |
/// | 8 | the made base's size in bytes |
/// | 8 | the made base's entries |
/// | 8 | operations that follow |
/// | 4 | labels in the old base's dictionary (what references 1…n mean) |
/// | 8 | bytes of the operations' zlib stream |
/// | 8 | bytes of the label references' zlib stream |
/// | 8 | bytes of the spelt labels' zlib stream |
///
/// Then the three zlib streams, in that order, to the end of the file (see `OperationEncoder`):
/// each kind of value in its own, since deflate's codes then fit one distribution each (kept
/// counts, label references, label text); one stream of all three measured 7% larger.
package struct PatchHeader: Equatable, Sendable {
  /// The magic bytes.
  static let magic: [UInt8] = Array("CDPATCH2".utf8)
  /// The patch format this code writes and reads.
  package static let formatVersion: UInt16 = 2
  /// What ends each label spelt in the labels stream: a line feed, which no label holds
  /// (``LabelRule``).
  static let labelTerminator: UInt8 = 0x0a
  /// The streams after the header, in order, as errors name them.
  static let streamNames = ["operations", "label references", "spelt labels"]
  /// Bytes of the header.
  package static let byteCount = 8 + 2 + 1 + 2 + 64 + 64 + 8 + 8 + 8 + 4 + 3 * 8

  /// The kind of both bases.
  package var kind: BaseKind
  /// The made base's format version (`BaseHeader.currentVersion` or
  /// `BaseHeader.compactVersion`).
  package var baseVersion: UInt16
  /// SHA-256 (hex) of the base the patch applies to: it applies to no other.
  package var fromSHA256: String
  /// SHA-256 (hex) of the base it makes: applying checks the result against it.
  package var toSHA256: String
  /// The made base's size, bytes.
  package var toByteCount: Int
  /// The made base's entries.
  package var toEntryCount: Int
  /// Operations in the stream.
  package var operationCount: Int
  /// Labels in the old base's dictionary.
  package var oldDictionaryCount: Int
  /// Compressed bytes of each stream after the header: operations, label references, spelt
  /// labels.
  package var streamByteCounts: [Int] = [0, 0, 0]

  /// Bytes of the whole patch file the header describes (header and streams).
  package var fileByteCount: Int { Self.byteCount + streamByteCounts.reduce(0, +) }

  /// The header's bytes.
  func encoded() -> [UInt8] {
    var bytes = Self.magic
    bytes.appendLittleEndian(Self.formatVersion)
    bytes.append(kind.rawValue)
    bytes.appendLittleEndian(baseVersion)
    bytes.append(contentsOf: fromSHA256.utf8)
    bytes.append(contentsOf: toSHA256.utf8)
    bytes.appendLittleEndian(UInt64(toByteCount))
    bytes.appendLittleEndian(UInt64(toEntryCount))
    bytes.appendLittleEndian(UInt64(operationCount))
    bytes.appendLittleEndian(UInt32(oldDictionaryCount))
    for count in streamByteCounts { bytes.appendLittleEndian(UInt64(count)) }
    return bytes
  }

  /// Decodes and checks a header.
  /// - Throws: ``ReleaseError`` naming `path` when the bytes are not a patch this code reads.
  init(decoding raw: ByteView, path: String) throws(ReleaseError) {
    func bad(_ what: String) -> ReleaseError {
      ReleaseError("\(path): not a calldir patch (\(what))")
    }
    guard raw.count >= Self.byteCount, Array(raw.prefix(8)) == Self.magic else {
      if raw.count >= 8, Array(raw.prefix(7)) == Array(Self.magic.prefix(7)) {
        throw bad("patch format \(String(decoding: raw.prefix(8), as: UTF8.self)), not CDPATCH2")
      }
      throw bad("no CDPATCH2 header")
    }
    var reader = LittleEndianReader(raw, offset: 8)
    // The length was checked above, so no field read fails; `?? ` keeps the types plain.
    let version = (try? reader.read(UInt16.self)) ?? 0
    guard version == Self.formatVersion else { throw bad("patch format \(version), not 2") }
    guard let kind = BaseKind(rawValue: (try? reader.read(UInt8.self)) ?? 0) else {
      throw bad("kind")
    }
    self.kind = kind
    baseVersion = (try? reader.read(UInt16.self)) ?? 0
    guard baseVersion == BaseHeader.currentVersion || baseVersion == BaseHeader.compactVersion
    else { throw bad("base version \(baseVersion)") }
    func hex() throws(ReleaseError) -> String {
      guard let field = try? reader.readView(64),
        field.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
      else { throw bad("a SHA-256 that is not 64 hex digits") }
      return String(decoding: field, as: UTF8.self)
    }
    fromSHA256 = try hex()
    toSHA256 = try hex()
    func count() throws(ReleaseError) -> Int {
      // Bounded well past any base (2^37): arithmetic on it cannot overflow.
      guard let value = try? reader.read(UInt64.self), value <= 1 << 37 else {
        throw bad("a count out of range")
      }
      return Int(value)
    }
    toByteCount = try count()
    toEntryCount = try count()
    operationCount = try count()
    oldDictionaryCount = Int((try? reader.read(UInt32.self)) ?? 0)
    streamByteCounts = [try count(), try count(), try count()]
  }

  /// A header with these fields.
  init(
    kind: BaseKind, baseVersion: UInt16, fromSHA256: String, toSHA256: String, toByteCount: Int,
    toEntryCount: Int, operationCount: Int, oldDictionaryCount: Int
  ) {
    self.kind = kind
    self.baseVersion = baseVersion
    self.fromSHA256 = fromSHA256
    self.toSHA256 = toSHA256
    self.toByteCount = toByteCount
    self.toEntryCount = toEntryCount
    self.operationCount = operationCount
    self.oldDictionaryCount = oldDictionaryCount
  }
}

/// What a patch operation does to the entry at its number.
enum PatchOperation: UInt8 {
  /// The old base's entry is not in the new one.
  case remove = 0
  /// The entry stays, with another label (identification only).
  case relabel = 1
  /// A new entry.
  case add = 2
}
