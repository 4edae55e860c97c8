import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `stat` says of a regular file that changes whenever its bytes do: size, identity
/// (device and inode), and the modification and status-change times in nanoseconds. A hash
/// recorded beside a stamp still holds while the file's stamp is the same (as git's index
/// trusts a file's stat data), except when the file changed in the same clock tick as the
/// record was written (``isSettled(before:)``).
@usableFromInline package struct FileStamp: Equatable, Sendable {
  /// `st_size`, in bytes.
  @usableFromInline package var byteCount: Int64
  /// `st_dev`: the file system holding it.
  @usableFromInline package var device: UInt64
  /// `st_ino`: the file on that file system.
  @usableFromInline package var inode: UInt64
  /// `st_mtim`, in nanoseconds since the Epoch.
  @usableFromInline package var modifiedNanoseconds: Int64
  /// `st_ctim`, in nanoseconds since the Epoch: writes, renames, `utimes` and `chmod` all move
  /// it, and no caller can set it back.
  @usableFromInline package var changedNanoseconds: Int64

  /// A stamp from its parts (a record read back).
  @usableFromInline package init(
    byteCount: Int64, device: UInt64, inode: UInt64, modifiedNanoseconds: Int64,
    changedNanoseconds: Int64
  ) {
    self.byteCount = byteCount
    self.device = device
    self.inode = inode
    self.modifiedNanoseconds = modifiedNanoseconds
    self.changedNanoseconds = changedNanoseconds
  }

  /// The stamp of the regular file at `path` (links followed); nil for anything else, or when
  /// it cannot be read.
  @usableFromInline package init?(path: String) {
    guard let status = try? FilePath(path).stat(), status.type == .regular else { return nil }
    self.init(
      byteCount: status.size, device: UInt64(truncatingIfNeeded: status.deviceID.rawValue),
      inode: UInt64(truncatingIfNeeded: status.inode.rawValue),
      modifiedNanoseconds: Self.nanoseconds(status.st_mtim),
      changedNanoseconds: Self.nanoseconds(status.st_ctim))
  }

  /// Whether the file last changed strictly before `time` (nanoseconds, from another stamp of
  /// the same file system). File times advance by the kernel's clock tick (milliseconds on
  /// Linux), so a change made just after a record was written can carry the record's own time:
  /// only a change strictly older than the record is known to be in it.
  @usableFromInline package func isSettled(before time: Int64) -> Bool {
    modifiedNanoseconds < time && changedNanoseconds < time
  }

  /// A `timespec` in nanoseconds, saturating far outside any file time.
  private static func nanoseconds(_ time: timespec) -> Int64 {
    let (scaled, overflowed) = Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflowed else { return time.tv_sec < 0 ? .min : .max }
    let (total, overflowedSum) = scaled.addingReportingOverflow(Int64(time.tv_nsec))
    return overflowedSum ? .max : total
  }
}
