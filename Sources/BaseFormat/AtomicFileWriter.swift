import ByteCoding
import SystemCalls
import SystemPackage

/// Writes a file so that readers see either the old file or the complete new one, never a part:
/// the bytes go to a temporary file beside the destination, which is flushed to disk (`fsync`),
/// renamed over the destination (`rename`), and the directory flushed too.
public final class AtomicFileWriter {
  /// The destination path.
  public let path: String
  /// The temporary file's path while writing.
  public let temporaryPath: String
  private var descriptor: FileDescriptor?
  private var buffer: [UInt8] = []
  private var writtenByteCount = 0
  /// Bytes are gathered into one buffer of this size before each `write` call.
  private let bufferByteCount: Int
  /// The buffer a base or a copy is written through: 256 KiB, few enough system calls that the
  /// compiler's writes are not bound by them.
  public static let defaultBufferByteCount = 256 * 1024
  /// The buffer a container's small text file (the manifest, the journal) is written through,
  /// 8 KiB: the extension writes its journal inside its memory limit, and every page of the
  /// buffer it touches stays in its footprint (36 KiB of a 256 KiB buffer at 300 regions).
  public static let textBufferByteCount = 8 * 1024

  /// Creates the temporary file; `bufferByteCount` bytes are gathered before each write.
  /// - Throws: ``BaseFormatError`` with `.system` when it cannot be created.
  public init(path: String, bufferByteCount: Int = defaultBufferByteCount) throws(BaseFormatError) {
    self.path = path
    self.bufferByteCount = max(bufferByteCount, 1)
    self.temporaryPath = path + ".tmp-\(ProcessEnvironment.processID)"
    do {
      descriptor = try FileDescriptor.open(
        FilePath(temporaryPath), .writeOnly, options: [.create, .truncate, .closeOnExec],
        permissions: [.ownerReadWrite, .groupRead, .otherRead])
    } catch {
      throw FileHandleIO.error(temporaryPath, 0, "open", Errno(thrownBy: error))
    }
    buffer.reserveCapacity(self.bufferByteCount)
  }

  deinit {
    if let descriptor {
      try? descriptor.close()
      FolderCalls.removeFile(temporaryPath)
    }
  }

  /// Bytes appended so far.
  public var byteCount: Int { writtenByteCount + buffer.count }

  /// Appends bytes.
  public func write(_ bytes: some Sequence<UInt8>) throws(BaseFormatError) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= bufferByteCount { try flush() }
  }

  /// Appends the bytes a view shows.
  public func write(_ bytes: ByteView) throws(BaseFormatError) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= bufferByteCount { try flush() }
  }

  private func flush() throws(BaseFormatError) {
    guard let descriptor, !buffer.isEmpty else { return }
    do {
      _ = try buffer.withUnsafeBytes { try descriptor.writeAll($0) }
    } catch {
      throw FileHandleIO.error(
        temporaryPath, writtenByteCount, "write", Errno(thrownBy: error))
    }
    writtenByteCount += buffer.count
    buffer.removeAll(keepingCapacity: true)
  }

  /// Overwrites bytes already written (used to fill in a header at the end).
  public func overwrite(at offset: Int, with bytes: [UInt8]) throws(BaseFormatError) {
    try flush()
    guard let descriptor else { return }
    do {
      _ = try bytes.withUnsafeBytes { try descriptor.writeAll(toAbsoluteOffset: Int64(offset), $0) }
    } catch {
      throw FileHandleIO.error(temporaryPath, offset, "pwrite", Errno(thrownBy: error))
    }
  }

  /// Flushes, syncs and renames the temporary file over the destination, then syncs the
  /// directory. Each of the three is a durable step (`DurableStep`, with its fault-injection hook).
  /// - Throws: ``BaseFormatError`` with `.system` naming the failed call.
  public func commit() throws(BaseFormatError) {
    try flush()
    guard let descriptor else { return }
    self.descriptor = nil
    do {
      try DurableStep.sync(descriptor, path: temporaryPath)
    } catch {
      try? descriptor.close()
      FolderCalls.removeFile(temporaryPath)
      throw FileHandleIO.error(temporaryPath, 0, "fsync", error)
    }
    try? descriptor.close()
    try Self.moveDurably(temporaryPath, to: path)
  }

  /// Renames `source` over `destination` (a durable step), then syncs the destination's
  /// directory so the rename survives a crash.
  /// - Throws: ``BaseFormatError`` naming `rename`; `source` is removed then.
  public static func moveDurably(_ source: String, to destination: String) throws(BaseFormatError) {
    do {
      try DurableStep.rename(source, over: destination)
    } catch {
      FolderCalls.removeFile(source)
      throw FileHandleIO.error(destination, 0, "rename", error)
    }
    syncDirectory(containing: destination)
  }

  /// Abandons the write: the destination is left as it was.
  public func discard() {
    guard let descriptor else { return }
    self.descriptor = nil
    try? descriptor.close()
    FolderCalls.removeFile(temporaryPath)
  }

  /// Flushes the directory entry so the rename itself survives a crash (best effort; a durable
  /// step).
  public static func syncDirectory(containing path: String) {
    var directory = path
    if let slash = directory.lastIndex(of: "/") {
      directory = String(directory[..<slash])
      if directory.isEmpty { directory = "/" }
    } else {
      directory = "."
    }
    syncDirectory(directory)
  }

  /// Flushes a directory's entries (best effort; a durable step).
  public static func syncDirectory(_ directory: String) {
    DurableStep.syncFolder(directory)
  }
}
