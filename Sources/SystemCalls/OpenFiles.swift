#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; what C hands back that points into its own memory
// (readdir's entries) is copied into Swift values before the next call, and nothing here keeps a
// pointer past its call.

/// The files this process holds open, so an output path that names one of them is refused
/// rather than written over: `history report --db h.db --out /dev/fd/3`, with descriptor 3 on
/// `h.db`, wrote the report over the history database it was reading (issue 52, item 2).
///
/// Checked where the command-line tool runs (Linux, through `/proc/self/fd`). On Apple's
/// platforms it answers false: an app writes its own container's files, never an output a user
/// named by descriptor.
@usableFromInline package enum OpenFiles {
  /// The highest descriptor checked where the process's open descriptors cannot be listed
  /// (`/proc/self/fd` is Linux's): the merge raises its limit toward 1,280, so this covers it.
  static let highestCheckedDescriptor: Int32 = 4_096

  /// Whether a descriptor of this process other than `excluded` and the three standard ones is
  /// open on the same regular file as `path` (links followed). The standard descriptors are the
  /// shell's, not the command's: `--json /dev/stdout > log 2>&1` is the user's choice.
  /// False when `path` names no regular file.
  @usableFromInline package static func isOpenHere(_ path: String, excluding excluded: Int32? = nil)
    -> Bool
  {
    #if canImport(Glibc)
      return isOpenOnLinux(path, excluding: excluded)
    #else
      return false
    #endif
  }

  /// Whether `path` and `other` name one regular file (links followed, `/dev/fd/N` and
  /// `/proc/self/fd/N` included): false when either names none. An output checked against the
  /// inputs it must not replace by name, whatever descriptors are open at that moment
  /// (issue 65, item 8).
  /// Checked where the command-line tool runs (Linux); false on Apple's platforms, as the rest
  /// of this type answers there.
  @usableFromInline package static func namesSameFile(_ path: String, _ other: String) -> Bool {
    #if canImport(Glibc)
      var first = stat()
      var second = stat()
      guard unsafe stat(path, &first) == 0, unsafe stat(other, &second) == 0,
        first.st_mode & S_IFMT == S_IFREG, second.st_mode & S_IFMT == S_IFREG
      else { return false }
      return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    #else
      return false
    #endif
  }

  /// Whether another descriptor of this process is open on the regular file `descriptor` is.
  @usableFromInline package static func isOpenElsewhere(descriptor: Int32) -> Bool {
    #if canImport(Glibc)
      return isOpenElsewhereOnLinux(descriptor: descriptor)
    #else
      return false
    #endif
  }
}

#if canImport(Glibc)
  extension OpenFiles {
    static func isOpenOnLinux(_ path: String, excluding excluded: Int32?) -> Bool {
      var target = stat()
      guard unsafe stat(path, &target) == 0, target.st_mode & S_IFMT == S_IFREG else {
        return false
      }
      return isOpen(device: target.st_dev, inode: target.st_ino, excluding: excluded)
    }

    static func isOpenElsewhereOnLinux(descriptor: Int32) -> Bool {
      var target = stat()
      guard unsafe fstat(descriptor, &target) == 0, target.st_mode & S_IFMT == S_IFREG else {
        return false
      }
      return isOpen(device: target.st_dev, inode: target.st_ino, excluding: descriptor)
    }

    private static func isOpen(device: dev_t, inode: ino_t, excluding excluded: Int32?) -> Bool {
      for descriptor in openDescriptors() where descriptor > 2 && descriptor != excluded {
        var status = stat()
        guard unsafe fstat(descriptor, &status) == 0 else { continue }
        if status.st_dev == device && status.st_ino == inode { return true }
      }
      return false
    }

    /// The descriptors open now: `/proc/self/fd`'s entries where it exists, else every
    /// descriptor up to ``highestCheckedDescriptor`` that `fcntl` says is open.
    static func openDescriptors() -> [Int32] {
      var descriptors: [Int32] = []
      if let listing = unsafe opendir("/proc/self/fd") {
        defer { unsafe closedir(listing) }
        let own = unsafe dirfd(listing)
        while let entry = unsafe readdir(listing) {
          let name = unsafe withUnsafeBytes(of: entry.pointee.d_name) { raw in
            unsafe String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
          }
          if let descriptor = Int32(name), descriptor != own { descriptors.append(descriptor) }
        }
        return descriptors
      }
      let limit = min(Int32(clamping: getdtablesize()), highestCheckedDescriptor)
      for descriptor in 0..<max(limit, 0) where fcntl(descriptor, F_GETFD) != -1 {
        descriptors.append(descriptor)
      }
      return descriptors
    }
  }
#endif
