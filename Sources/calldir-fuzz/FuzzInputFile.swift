#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; write reads `input.count` bytes of `input`, and nothing
// here keeps a pointer past its call.

/// The file a property that reads from disk gets its input in: one per process and file
/// extension, in memory (/dev/shm) where there is one, which runs about twice as many inputs a
/// second as /tmp.
struct FuzzInputFile {
  let path: String

  init(extension: String) {
    path =
      unsafe (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp")
      + "/calldir-fuzz-\(getpid()).\(`extension`)"
  }

  /// Replaces the file's contents with `input`.
  func replaceContents(with input: [UInt8]) {
    let descriptor = unsafe open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(descriptor >= 0, "cannot write \(path)")
    if input.count > 0 {
      unsafe precondition(write(descriptor, input, input.count) == input.count)
    }
    close(descriptor)
  }
}
