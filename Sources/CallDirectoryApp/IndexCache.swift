import BaseFormat
import DirectoryContainer
import ReleaseFormat
import SystemCalls

/// The release index the last successful update read over a source that names its versions
/// (HTTP's `ETag` or `Last-Modified`), kept in the container with that name, so the next update
/// asks "changed since?" and a 304 costs a header instead of the whole index (issue 56, item 6).
///
/// One file, `.release-index`: the validator's line, then the index's bytes. Written
/// atomically, and only when an update succeeded, so a failed or refused update leaves the
/// container byte-identical. A source without validators (a folder) removes it.
struct IndexCache {
  /// The file's name in the container.
  static let fileName = ".release-index"

  /// The longest validator line kept, bytes: a tag or date and its URL. One longer is not
  /// kept, so what is read back is bounded by the index's size plus this.
  static let validatorByteLimit = 4_096

  let path: String

  init(container: String) { path = container + "/" + Self.fileName }

  /// The validator and index kept; nil when there is none or it cannot be read.
  func read(maximumByteCount: Int) -> (validator: String, bytes: [UInt8])? {
    guard FolderCalls.exists(path),
      let bytes = try? readWholeFile(
        path, maximumByteCount: maximumByteCount + Self.validatorByteLimit),
      let newline = bytes.firstIndex(of: 0x0a), newline > 0
    else { return nil }
    let validator = String(decoding: bytes[..<newline], as: UTF8.self)
    return (validator, Array(bytes[(newline + 1)...]))
  }

  /// Keeps `bytes` as the index `validator` names; with no validator, keeps nothing. A cache
  /// that cannot be written is only a cache: the next update fetches the index whole.
  func record(validator: String?, bytes: [UInt8]) {
    guard let validator, !validator.utf8.contains(0x0a),
      validator.utf8.count < Self.validatorByteLimit
    else {
      if FolderCalls.exists(path) { FolderCalls.removeFile(path) }
      return
    }
    guard let writer = try? AtomicFileWriter(path: path) else { return }
    do {
      try writer.write(Array(validator.utf8) + [0x0a])
      try writer.write(bytes)
      try writer.commit()
    } catch {
      writer.discard()
    }
  }
}
