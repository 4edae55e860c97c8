import ByteCoding
import SystemCalls
import SystemPackage

// Safe (the `unsafe` uses in this file): the views and buffers made here wrap bytes lent by
// `withUnsafeBytes`, `withUTF8` or `withUnsafeMutableBytes`, and are used only inside the closure
// that lends them (the write or read they are lent to).

/// Writes a file so that readers see either the old file or the complete new one, never a part:
/// the bytes go to a temporary file beside the destination, which is flushed to disk (`fsync`),
/// renamed over the destination (`rename`), and the directory flushed too.
package final class AtomicFileWriter {
  /// The destination path.
  package let path: String
  /// The temporary file's path while writing.
  package let temporaryPath: String
  private var descriptor: FileDescriptor?
  /// The FIFO, device or descriptor the bytes are written through at ``commit()``; nil for a
  /// regular file, replaced atomically.
  private let passThrough: OutputTarget?
  private var buffer: [UInt8] = []
  private var writtenByteCount = 0
  /// Bytes are gathered into one buffer of this size before each `write` call.
  private let bufferByteCount: Int
  /// The buffer a base or a copy is written through: 256 KiB, few enough system calls that the
  /// compiler's writes are not bound by them.
  package static let defaultBufferByteCount = 256 * 1024
  /// The buffer a container's small text file (the manifest, the journal) is written through,
  /// 8 KiB: the extension writes its journal inside its memory limit, and every page of the
  /// buffer it touches stays in its footprint (36 KiB of a 256 KiB buffer at 300 regions).
  package static let textBufferByteCount = 8 * 1024

  /// Creates the temporary file; `bufferByteCount` bytes are gathered before each write.
  ///
  /// Every file calldir writes goes through here, so the output-target rule holds everywhere
  /// (issue 52, item 1): a regular file or a new one is replaced atomically (a link to one is
  /// replaced at its target, the link kept); a FIFO, a device, a socket, `/dev/stdout` or
  /// `/dev/fd/N` is written through at ``commit()`` and never replaced; a folder or a link to
  /// nothing is refused. A target written through gathers its bytes in an unlinked temporary
  /// file first (``overwrite(at:with:)`` needs one), so a killed writer leaves nothing behind.
  /// - Parameters:
  ///   - path: the destination: a regular file, a new one, or what is written through.
  ///   - bufferByteCount: bytes gathered before each `write`.
  ///   - refusingFilesOpenHere: refuse a regular `path` this process already holds open
  ///     elsewhere (a command's output options: `history report --out h.db` would replace the
  ///     database it reads). A target written through is always checked so.
  /// - Throws: ``BaseFormatError`` with `.refusedOutput` for a path that cannot be written as
  ///   asked, `.system` when the temporary file cannot be created.
  package init(
    path: String, bufferByteCount: Int = defaultBufferByteCount,
    refusingFilesOpenHere: Bool = false
  ) throws(BaseFormatError) {
    self.bufferByteCount = max(bufferByteCount, 1)
    let target: OutputTarget
    do {
      target = try OutputTarget.of(path, creatingFolder: true)
    } catch {
      throw BaseFormatError(path: path, offset: 0, problem: .refusedOutput(error.description))
    }
    switch target {
    case .replace(let regular):
      if refusingFilesOpenHere && OpenFiles.isOpenHere(regular) {
        throw Self.openHere(path)
      }
      self.path = regular
      self.passThrough = nil
      self.temporaryPath = regular + ".tmp-\(ProcessEnvironment.processID)"
    case .writeThrough(let through):
      if OpenFiles.isOpenHere(through) { throw Self.openHere(path) }
      self.path = path
      self.passThrough = target
      self.temporaryPath = Self.passThroughTemporaryPath()
    case .descriptor(let number):
      if OpenFiles.isOpenElsewhere(descriptor: number) { throw Self.openHere(path) }
      self.path = path
      self.passThrough = target
      self.temporaryPath = Self.passThroughTemporaryPath()
    }
    do {
      descriptor = try FileDescriptor.open(
        FilePath(temporaryPath), passThrough == nil ? .writeOnly : .readWrite,
        options: passThrough == nil
          ? [.create, .truncate, .closeOnExec] : [.create, .exclusiveCreate, .closeOnExec],
        permissions: [.ownerReadWrite, .groupRead, .otherRead])
    } catch {
      throw FileHandleIO.error(temporaryPath, 0, "open", Errno(thrownBy: error))
    }
    // Gathered bytes for a target written through are nobody else's: unlinked at once.
    if passThrough != nil { _ = FolderCalls.removeFile(temporaryPath) }
    buffer.reserveCapacity(self.bufferByteCount)
  }

  /// Where the bytes for a target written through gather: the system's temporary folder (the
  /// target's own folder may be `/dev`), named by this process and a random tag (created
  /// exclusively, so two writers never share one).
  private static func passThroughTemporaryPath() -> String {
    let folder = ProcessEnvironment.value("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    let tag = String(UInt64.random(in: 0...UInt64.max), radix: 16)
    return folder + "/calldir-output-\(ProcessEnvironment.processID)-\(tag)"
  }

  private static func openHere(_ path: String) -> BaseFormatError {
    BaseFormatError(
      path: path, offset: 0,
      problem: .refusedOutput(
        "\(path) is a file this command has open (an input or its own database): not written over"
      ))
  }

  deinit {
    if let descriptor {
      try? descriptor.close()
      if passThrough == nil { FolderCalls.removeFile(temporaryPath) }
    }
  }

  /// Bytes appended so far.
  package var byteCount: Int { writtenByteCount + buffer.count }

  /// Appends bytes.
  package func write(_ bytes: some Sequence<UInt8>) throws(BaseFormatError) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= bufferByteCount { try flush() }
  }

  /// Appends the bytes a view shows.
  package func write(_ bytes: ByteView) throws(BaseFormatError) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= bufferByteCount { try flush() }
  }

  private func flush() throws(BaseFormatError) {
    guard let descriptor, !buffer.isEmpty else { return }
    do {
      _ = unsafe try buffer.withUnsafeBytes { unsafe try descriptor.writeAll($0) }
    } catch {
      throw FileHandleIO.error(
        temporaryPath, writtenByteCount, "write", Errno(thrownBy: error))
    }
    writtenByteCount += buffer.count
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes what was appended so far out to the disk (see `DurableStep.writeOut(_:)`), so that
  /// the sync at ``commit()`` has little left to do.
  /// - Throws: ``BaseFormatError`` when the buffered bytes cannot be written.
  package func writeOut() throws(BaseFormatError) {
    try flush()
    if let descriptor, passThrough == nil { DurableStep.writeOut(descriptor) }
  }

  /// Overwrites bytes already written (used to fill in a header at the end).
  package func overwrite(at offset: Int, with bytes: [UInt8]) throws(BaseFormatError) {
    try flush()
    guard let descriptor else { return }
    do {
      _ = unsafe try bytes.withUnsafeBytes {
        unsafe try descriptor.writeAll(toAbsoluteOffset: Int64(offset), $0)
      }
    } catch {
      throw FileHandleIO.error(temporaryPath, offset, "pwrite", Errno(thrownBy: error))
    }
  }

  /// Flushes, syncs and renames the temporary file over the destination, then syncs the
  /// directory. Each of the three is a durable step (`DurableStep`, with its fault-injection hook).
  /// - Throws: ``BaseFormatError`` with `.system` naming the failed call.
  package func commit() throws(BaseFormatError) {
    try flush()
    guard let descriptor else { return }
    self.descriptor = nil
    if let passThrough {
      defer { try? descriptor.close() }
      try copy(from: descriptor, through: passThrough)
      return
    }
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

  /// Copies the gathered bytes through `target`, from the start, `bufferByteCount` at a time.
  private func copy(from gathered: FileDescriptor, through target: OutputTarget)
    throws(BaseFormatError)
  {
    let output: FileDescriptor
    var opened = false
    switch target {
    case .replace: return
    case .descriptor(let raw): output = FileDescriptor(rawValue: raw)
    case .writeThrough(let through):
      do {
        output = try FileDescriptor.open(FilePath(through), .writeOnly, options: [.closeOnExec])
      } catch {
        throw FileHandleIO.error(path, 0, "open", Errno(thrownBy: error))
      }
      opened = true
    }
    defer { if opened { try? output.close() } }
    var chunk = [UInt8](repeating: 0, count: bufferByteCount)
    var offset: Int64 = 0
    while true {
      let read: Int
      do {
        read = unsafe try chunk.withUnsafeMutableBytes {
          unsafe try gathered.read(fromAbsoluteOffset: offset, into: $0, retryOnInterrupt: true)
        }
      } catch {
        throw FileHandleIO.error(temporaryPath, Int(offset), "read", Errno(thrownBy: error))
      }
      if read == 0 { return }
      do {
        _ = unsafe try chunk[..<read].withUnsafeBytes { unsafe try output.writeAll($0) }
      } catch {
        throw FileHandleIO.error(path, Int(offset), "write", Errno(thrownBy: error))
      }
      offset += Int64(read)
    }
  }

  /// Renames `source` over `destination` (a durable step), then syncs the destination's
  /// directory so the rename survives a crash.
  /// - Throws: ``BaseFormatError`` naming `rename`; `source` is removed then.
  package static func moveDurably(_ source: String, to destination: String) throws(BaseFormatError)
  {
    do {
      try DurableStep.rename(source, over: destination)
    } catch {
      FolderCalls.removeFile(source)
      throw FileHandleIO.error(destination, 0, "rename", error)
    }
    syncDirectory(containing: destination)
  }

  /// Abandons the write: the destination is left as it was.
  package func discard() {
    guard let descriptor else { return }
    self.descriptor = nil
    try? descriptor.close()
    FolderCalls.removeFile(temporaryPath)
  }

  /// Flushes the directory entry so the rename itself survives a crash (best effort; a durable
  /// step).
  package static func syncDirectory(containing path: String) {
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
  package static func syncDirectory(_ directory: String) {
    DurableStep.syncFolder(directory)
  }
}
