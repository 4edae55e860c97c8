import Foundation
import SystemCalls
import SystemPackage

/// A command that must wait for another writer of the same container says so after one second,
/// naming the process that holds the writers' lock, instead of waiting without a word
/// (issue 52, item 13: `app choose` and `app update` sat silent behind a compile streaming from
/// a FIFO).
enum LockWaitNotice {
  /// How long a command waits before it says it is waiting.
  static let silentSeconds = 1.0
  /// How often the lock is tried meanwhile.
  static let pollMicroseconds: UInt32 = 20_000

  /// Waits until no other process holds `container`'s writers' lock (`.lock`), telling stderr
  /// once after ``silentSeconds``. Returns at once when the container or its lock is missing
  /// or free; the command then takes the lock itself.
  static func waitIfBusy(_ container: String) {
    let path = container + "/.lock"
    guard
      let descriptor = try? FileDescriptor.open(FilePath(path), .readWrite, options: .closeOnExec)
    else { return }
    defer { try? descriptor.close() }
    let started = Date()
    var told = false
    // Tried without waiting until free (any failure but "held elsewhere" ends the wait: the
    // command's own lock then says what is wrong).
    while (try? FileLock.lockExclusively(descriptor, waiting: false)) == false {
      if !told && Date().timeIntervalSince(started) >= silentSeconds {
        told = true
        let holder = holderProcessID(of: descriptor).map { "process \($0)" } ?? "another process"
        StandardError.write(
          "calldir: waiting for \(holder), which is writing \(container) (it holds \(path))\n")
      }
      usleep(pollMicroseconds)
    }
    FileLock.unlock(descriptor)
  }

  /// The process holding an `flock` on the file `descriptor` is open on, from Linux's
  /// `/proc/locks` (`N: FLOCK ADVISORY WRITE PID MAJOR:MINOR:INODE 0 EOF`); nil elsewhere.
  static func holderProcessID(of descriptor: FileDescriptor) -> Int32? {
    guard let status = try? descriptor.stat(), let locks = readProcFile("/proc/locks") else {
      return nil
    }
    for line in locks.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count >= 6, fields[1] == "FLOCK",
        let inode = fields[5].split(separator: ":").last,
        UInt64(inode) == UInt64(status.inode.rawValue)
      else { continue }
      return Int32(fields[4])
    }
    return nil
  }

  /// The whole text of a `/proc` file, read until the end: its size says 0, and a reader that
  /// trusts a size or stops at one page misses the lines past it. With a parallel `swift test`
  /// holding many locks, the holder's line lay past what was read and the notice said
  /// "another process".
  static func readProcFile(_ path: String) -> String? {
    guard let file = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? file.close() }
    // `readToEnd` reads until the file says end of file, whatever its size says.
    guard let data = try? file.readToEnd() else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

}
