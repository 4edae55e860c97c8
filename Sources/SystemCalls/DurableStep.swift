import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; C hands back no pointer into its own memory, and nothing
// here keeps a pointer past its call.

/// The steps that make a write survive a crash: `fsync` of a file or a folder and `rename`.
/// Each first tells the observer (``observer``), which only the command-line tools install: a
/// test can end such a process just before any step, or make the call fail as a failing disk
/// would.
@usableFromInline package enum DurableStep {
  /// Syncs an open file's bytes to the disk.
  /// - Throws: `Errno` from `fsync`.
  @usableFromInline package static func sync(_ descriptor: FileDescriptor, path: String)
    throws(Errno)
  {
    if let injected = failureBefore("fsync \(path)") {
      throw Errno(rawValue: injected)
    }
    guard fsync(descriptor.rawValue) == 0 else { throw Errno(rawValue: errno) }
  }

  /// Writes a file's data out to the disk now (`fsync`), mid-write: not a durable step of its own
  /// (no hook, and errors are left to the final ``sync(_:path:)``), but it keeps the final sync
  /// of a large file short, so a writer asked to stop waits for one slice, not for the whole
  /// file (a 75 MB staged copy's one fsync took up to 190 ms).
  @usableFromInline package static func writeOut(_ descriptor: FileDescriptor) {
    _ = fsync(descriptor.rawValue)
  }

  /// Renames `source` over `destination` in one step.
  /// - Throws: `Errno` from `rename`.
  @usableFromInline package static func rename(_ source: String, over destination: String)
    throws(Errno)
  {
    if let injected = failureBefore("rename \(source) → \(destination)") {
      throw Errno(rawValue: injected)
    }
    guard systemRename(source, destination) == 0 else { throw Errno(rawValue: errno) }
  }

  /// Syncs a folder's entries so a rename in it survives a crash (best effort: a folder that
  /// cannot be opened is skipped).
  @usableFromInline package static func syncFolder(_ folder: String) {
    willTake("fsync \(folder)/")
    let descriptor = unsafe open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if descriptor >= 0 {
      _ = fsync(descriptor)
      close(descriptor)
    }
  }
}

/// `rename(2)`, named apart from ``DurableStep/rename(_:over:)``.
private func systemRename(_ source: String, _ destination: String) -> Int32 {
  unsafe rename(source, destination)
}
