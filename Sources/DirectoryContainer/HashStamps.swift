import SystemCalls

/// The SHA-256 of a container's base files as a writer last hashed them under the writers'
/// lock, each beside the file's `FileStamp`: a sync checks that the files the
/// system holds are still the ones it installed by their stamps, and hashes only a file whose
/// stamp moved (issue 56: every sync hashed every installed base, 75 MB a base).
///
/// A cache, never the truth: a file missing from it, one whose stamp changed, or one changed
/// in the same clock tick as the record was written is hashed again, and a stamps file that
/// cannot be read is taken as empty. It lives beside the manifest as `hash-stamps.tsv`, one
/// line a file: `sha256 size device inode mtime-ns ctime-ns file`, tab-separated, under a
/// version line. Only writers holding the lock write it (``ContainerTransaction``); the
/// extension never reads it.
package struct HashStamps: Sendable {
  /// Its name in the container.
  package static let fileName = "hash-stamps.tsv"
  /// Its first line.
  static let versionLine = "calldir hash stamps 1"
  /// Larger than any a container of a few thousand bases writes: a bigger one is not read.
  static let maximumByteCount = 4 << 20

  struct Record: Equatable, Sendable {
    var stamp: FileStamp
    var sha256: String
  }

  /// By file, relative to the container.
  private(set) var records: [String: Record] = [:]
  /// The stamps file's own modification time when read (nanoseconds): a base that changed at
  /// or after it may have changed after its hash was taken.
  private var writtenAt: Int64 = .min

  /// An empty record.
  package init() {}

  /// The container's records; empty when there are none or they cannot be read.
  package static func read(container: String) -> HashStamps {
    let path = container + "/" + fileName
    var stamps = HashStamps()
    guard let own = FileStamp(path: path),
      let text = try? readSmallTextFile(path, maximumByteCount: maximumByteCount)
    else { return stamps }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.first == Substring(versionLine), lines.last == "" else { return stamps }
    lines.removeFirst()
    lines.removeLast()
    for line in lines {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == 7, fields[0].utf8.count == 64,
        fields[0].utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }),
        let size = Int64(fields[1]), let device = UInt64(fields[2]), let inode = UInt64(fields[3]),
        let modified = Int64(fields[4]), let changed = Int64(fields[5]),
        isInsideContainer(String(fields[6]))
      else { return HashStamps() }
      stamps.records[String(fields[6])] = Record(
        stamp: FileStamp(
          byteCount: size, device: device, inode: inode, modifiedNanoseconds: modified,
          changedNanoseconds: changed),
        sha256: String(fields[0]))
    }
    stamps.writtenAt = own.modifiedNanoseconds
    return stamps
  }

  /// The recorded SHA-256 of `file` (relative to `container`) when the file is still the one
  /// hashed: the same stamp, settled before the record was written. Nil: hash it.
  package func trustedSHA256(of file: String, container: String) -> String? {
    guard let record = records[file], let now = FileStamp(path: container + "/" + file),
      now == record.stamp, now.isSettled(before: writtenAt)
    else { return nil }
    return record.sha256
  }

  /// Records `sha256` for `file`, hashed while its stamp was `stamp`: only when the file's
  /// stamp is still that (a file changed during the hash is left to be hashed again).
  package mutating func record(
    _ file: String, sha256: String, hashedAs stamp: FileStamp, container: String
  ) {
    guard FileStamp(path: container + "/" + file) == stamp else {
      records[file] = nil
      return
    }
    records[file] = Record(stamp: stamp, sha256: sha256)
  }

  /// Forgets every file not in `files`.
  package mutating func keepOnly(_ files: Set<String>) {
    records = records.filter { files.contains($0.key) }
  }

  /// Writes the records into `container` atomically. Best effort: a cache that cannot be
  /// written costs the next sync a hash, never a wrong answer, so a failure is not thrown.
  /// Only a writer holding the container's lock may call it.
  func write(container: String) {
    var text = Self.versionLine + "\n"
    for (file, record) in records.sorted(by: { $0.key < $1.key }) {
      let stamp = record.stamp
      text +=
        "\(record.sha256)\t\(stamp.byteCount)\t\(stamp.device)\t\(stamp.inode)\t\(stamp.modifiedNanoseconds)\t\(stamp.changedNanoseconds)\t\(file)\n"
    }
    try? writeContainerText(text, to: container + "/" + Self.fileName)
  }
}
