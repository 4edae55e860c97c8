#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file a property that reads from disk gets its input in: one per process and file
/// extension, in memory (/dev/shm) where there is one, which runs about twice as many inputs a
/// second as /tmp.
struct FuzzInputFile {
  let path: String

  init(extension: String) {
    path =
      (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp")
      + "/calldir-fuzz-\(getpid()).\(`extension`)"
  }

  /// Replaces the file's contents with `input`.
  func replaceContents(with input: [UInt8]) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(descriptor >= 0, "cannot write \(path)")
    if input.count > 0 {
      precondition(write(descriptor, input, input.count) == input.count)
    }
    close(descriptor)
  }
}
