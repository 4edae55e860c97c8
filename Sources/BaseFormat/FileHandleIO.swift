import SystemPackage

// Safe (the `unsafe` uses in this file): the views and buffers made here wrap bytes lent by
// `withUnsafeBytes`, `withUTF8` or `withUnsafeMutableBytes`, and are used only inside the closure
// that lends them.

/// System calls the readers and writers need beyond what swift-system wraps (`fstat`, `fsync`,
/// `rename`), with errors mapped to ``BaseFormatError``.
enum FileHandleIO {
  static func error(_ path: String, _ offset: Int, _ call: String, _ errno: Errno)
    -> BaseFormatError
  {
    BaseFormatError(path: path, offset: offset, problem: .system(call: call, errno: errno))
  }

  /// Opens a base for reading: a regular file only. Opened without blocking (a FIFO in a base's
  /// place would block the open until a writer came) and checked through the descriptor, so a
  /// FIFO, a device (a link to /dev/zero) or a folder is refused at once.
  static func openForReading(_ path: String) throws(BaseFormatError) -> FileDescriptor {
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(
        FilePath(path), .readOnly, options: [.closeOnExec, .nonBlocking])
    } catch {
      throw Self.error(path, 0, "open", Errno(thrownBy: error))
    }
    do throws(Errno) {
      guard try descriptor.stat().type == .regular else { throw Errno.invalidArgument }
    } catch {
      try? descriptor.close()
      throw Self.error(
        path, 0, error == .invalidArgument ? "not a regular file: open" : "fstat", error)
    }
    return descriptor
  }

  /// Size of an open file in bytes (`fstat`).
  static func byteCount(of descriptor: FileDescriptor, path: String) throws(BaseFormatError) -> Int
  {
    do {
      return Int(try descriptor.stat().size)
    } catch {
      throw Self.error(path, 0, "fstat", error)
    }
  }

  /// Reads up to `byteCount` bytes at `offset`, stopping early only at the file's end
  /// (`pread`, repeated while it returns short counts).
  /// - Returns: the bytes read: `byteCount` of them, or fewer when the file ends first.
  /// - Throws: ``BaseFormatError`` naming `path`, the offset and the call's `errno`.
  static func readFully(
    _ descriptor: FileDescriptor, at offset: Int, byteCount: Int, path: String
  ) throws(BaseFormatError) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: byteCount)
    var total = 0
    while total < byteCount {
      let count: Int
      do {
        count = unsafe try buffer[total...].withUnsafeMutableBytes {
          unsafe try descriptor.read(fromAbsoluteOffset: Int64(offset + total), into: $0)
        }
      } catch {
        throw Self.error(path, offset + total, "pread", Errno(thrownBy: error))
      }
      if count == 0 { break }
      total += count
    }
    buffer.removeSubrange(total...)
    return buffer
  }
}

extension Errno {
  /// The `Errno` a swift-system call threw: its `throws` is untyped but only ever throws `Errno`.
  package init(thrownBy error: any Error) { self = error as? Errno ?? .ioError }
}
