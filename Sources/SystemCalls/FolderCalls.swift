import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; what C hands back that points into its own memory
// (readdir's entries) is copied into Swift values before the next call, and nothing here keeps a
// pointer past its call.

/// The folder and name calls a container makes (`readdir`, `mkdir`, `rmdir`, `unlink`, `link`,
/// `lstat`), which swift-system does not wrap: one place for them, so the Darwin stand-in of the
/// iOS type-check covers them once.
@usableFromInline package enum FolderCalls {
  /// An entry of a folder: its name and whether it is a folder itself.
  @usableFromInline package struct Entry: Sendable, Equatable {
    @usableFromInline package let name: String
    @usableFromInline package let isFolder: Bool

    @usableFromInline package init(name: String, isFolder: Bool) {
      self.name = name
      self.isFolder = isFolder
    }
  }

  /// The entries of `folder` except `.` and `..`; empty when it cannot be read.
  @usableFromInline package static func entries(of folder: String) -> [Entry] {
    listedEntries(of: folder) ?? []
  }

  /// The entries of `folder` except `.` and `..`; nil when it cannot be opened (missing, not a
  /// folder, no permission), which ``entries(of:)`` reads as empty.
  @usableFromInline package static func listedEntries(of folder: String) -> [Entry]? {
    guard let stream = unsafe opendir(folder) else { return nil }
    defer { unsafe closedir(stream) }
    var entries: [Entry] = []
    while let entry = unsafe readdir(stream) {
      let name = unsafe withUnsafeBytes(of: entry.pointee.d_name) { raw in
        unsafe String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      unsafe entries.append(Entry(name: name, isFolder: entry.pointee.d_type == UInt8(DT_DIR)))
    }
    return entries
  }

  /// Whether anything (a file, a folder, a link, even a dangling one) is at `path`; with
  /// `followingLinks`, whether a link's target is there too (as `access(F_OK)` tells).
  @usableFromInline package static func exists(_ path: String, followingLinks: Bool = false) -> Bool
  {
    (try? FilePath(path).stat(followTargetSymlink: followingLinks)) != nil
  }

  /// Whether `path` is a folder (links followed).
  @usableFromInline package static func isFolder(_ path: String) -> Bool {
    (try? FilePath(path).stat())?.type == .directory
  }

  /// The size of the file at `path`, in bytes.
  /// - Throws: `Errno` from `stat`.
  @usableFromInline package static func byteCount(of path: String) throws(Errno) -> Int {
    Int(try FilePath(path).stat().size)
  }

  /// The size of the regular file at `path` (links followed), in bytes; nil for anything else
  /// (a pipe, a device, a folder) or when it cannot be read.
  @usableFromInline package static func regularFileByteCount(_ path: String) -> Int? {
    guard let status = try? FilePath(path).stat(), status.type == .regular else { return nil }
    return Int(status.size)
  }

  /// The bytes an unprivileged writer may still use on the volume holding `path` (`fstatvfs`'s
  /// available blocks times the fragment size); nil when it cannot be asked. Asked through a
  /// descriptor: Swift imports `statvfs` the function and the struct under one name, which a
  /// Swift stand-in for Darwin cannot declare.
  @usableFromInline package static func availableByteCount(onVolumeOf path: String) -> Int? {
    guard let folder = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
    else { return nil }
    defer { try? folder.close() }
    var status = statvfs()
    guard unsafe fstatvfs(folder.rawValue, &status) == 0 else { return nil }
    let (bytes, overflow) = UInt64(status.f_bavail).multipliedReportingOverflow(
      by: UInt64(status.f_frsize))
    return overflow || bytes > UInt64(Int.max) ? Int.max : Int(bytes)
  }

  /// Makes the folder `path` (its parent must exist); one that is already there is no error.
  /// - Throws: `Errno` from `mkdir` other than `EEXIST`.
  @usableFromInline package static func makeFolder(_ path: String) throws(Errno) {
    guard unsafe mkdir(path, 0o755) == 0 || errno == EEXIST else { throw Errno(rawValue: errno) }
  }

  /// Hard-links `source` at `target`.
  /// - Throws: `Errno` from `link`.
  @usableFromInline package static func hardLink(_ source: String, at target: String) throws(Errno)
  {
    guard systemLink(source, target) == 0 else { throw Errno(rawValue: errno) }
  }

  /// Removes the file (or link) `path`. Best effort: returns whether it went.
  @discardableResult
  @usableFromInline package static func removeFile(_ path: String) -> Bool {
    unsafe unlink(path) == 0
  }

  /// Renames `source` to `destination` on one volume, not as a durable step (scratch files that
  /// change hands). Returns whether it moved: false when `source` is gone (another process took
  /// it first) or the rename failed.
  @discardableResult
  @usableFromInline package static func move(_ source: String, to destination: String) -> Bool {
    unsafe rename(source, destination) == 0
  }

  /// Removes the empty folder `path`. Best effort: returns whether it went.
  @discardableResult
  @usableFromInline package static func removeFolder(_ path: String) -> Bool {
    unsafe rmdir(path) == 0
  }
}

/// `link(2)`, named apart from ``FolderCalls/hardLink(_:at:)``.
private func systemLink(_ source: String, _ target: String) -> Int32 { unsafe link(source, target) }
