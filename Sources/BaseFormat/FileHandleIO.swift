import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// System calls the readers and writers need beyond what swift-system wraps (`fstat`, `fsync`,
/// `rename`), with errors mapped to ``BaseFormatError``.
enum FileHandleIO {
  static func error(_ path: String, _ offset: Int, _ call: String, _ errno: Int32)
    -> BaseFormatError
  {
    BaseFormatError(path: path, offset: offset, problem: .system(call: call, errno: errno))
  }

  static func openForReading(_ path: String) throws(BaseFormatError) -> FileDescriptor {
    do {
      return try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
    } catch {
      throw Self.error(path, 0, "open", (error as? Errno)?.rawValue ?? 0)
    }
  }

  /// Size of an open file in bytes (`fstat`).
  static func byteCount(of descriptor: FileDescriptor, path: String) throws(BaseFormatError) -> Int
  {
    var status = stat()
    guard fstat(descriptor.rawValue, &status) == 0 else { throw error(path, 0, "fstat", errno) }
    return Int(status.st_size)
  }

  /// Reads until `buffer` is full or the file ends; returns the bytes read (`pread`).
  static func readFully(
    _ descriptor: FileDescriptor, at offset: Int, into buffer: UnsafeMutableRawBufferPointer,
    path: String
  ) throws(BaseFormatError) -> Int {
    var total = 0
    while total < buffer.count {
      let chunk = UnsafeMutableRawBufferPointer(rebasing: buffer[total...])
      let count: Int
      do {
        count = try descriptor.read(fromAbsoluteOffset: Int64(offset + total), into: chunk)
      } catch {
        throw Self.error(path, offset + total, "pread", (error as? Errno)?.rawValue ?? 0)
      }
      if count == 0 { break }
      total += count
    }
    return total
  }
}
