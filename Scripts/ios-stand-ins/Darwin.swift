// A stand-in for Darwin, for Scripts/typecheck-ios.sh: the C library calls and constants
// calldir's iOS modules make, as Swift imports them from Apple's SDK (size_t as Int, off_t as
// Int64, mode_t as UInt16, nullable pointers implicitly unwrapped, nonnull ones not optional;
// dirent's d_name is a tuple of 1,024 CChars, as the SDK's). Checked against the real iOS 16.4
// SDK (checked outside this repository): strlen takes a pointer that is not optional, and libproc
// (proc_pid_rusage) exists on macOS only.
// Linux-only names (MAP_POPULATE) are absent on purpose: code that uses them must sit behind
// `#if os(Linux)`. Values are Darwin's; nothing runs. Functions are @discardableResult, as Swift
// imports every C function.

public typealias off_t = Int64
public typealias mode_t = UInt16
public typealias pid_t = Int32
public typealias time_t = Int

public var errno: Int32 {
  get { 0 }
  set {}
}

public let EPERM: Int32 = 1
public let EINTR: Int32 = 4
public let EEXIST: Int32 = 17
// Darwin's values (sys/errno.h); the fault-injection hook names them.
public let EIO: Int32 = 5
public let EACCES: Int32 = 13
public let ENOSPC: Int32 = 28
public let EROFS: Int32 = 30
public let EDQUOT: Int32 = 69
public let F_OK: Int32 = 0
public let R_OK: Int32 = 4
public let W_OK: Int32 = 2
public let O_RDONLY: Int32 = 0
public let O_WRONLY: Int32 = 1
public let O_RDWR: Int32 = 2
public let O_CREAT: Int32 = 0x200
public let O_DIRECTORY: Int32 = 0x100000
public let O_CLOEXEC: Int32 = 0x1000000
public let PROT_READ: Int32 = 1
public let MAP_PRIVATE: Int32 = 2
public var MAP_FAILED: UnsafeMutableRawPointer! { UnsafeMutableRawPointer(bitPattern: -1) }
public let MADV_SEQUENTIAL: Int32 = 2
public let MADV_DONTNEED: Int32 = 4
public let LOCK_SH: Int32 = 1
public let LOCK_EX: Int32 = 2
public let LOCK_NB: Int32 = 4
public let LOCK_UN: Int32 = 8
public let DT_DIR: Int32 = 4
public let DT_REG: Int32 = 8
public let _SC_PAGESIZE: Int32 = 29
public let _SC_NPROCESSORS_ONLN: Int32 = 58
public let SIGKILL: Int32 = 9
public let SIGPIPE: Int32 = 13
public let STDERR_FILENO: Int32 = 2

public struct DIR {}
public struct dirent {
  public var d_ino: UInt64 = 0
  public var d_type: UInt8 = 0
  // MAXPATHLEN (1,024) bytes, as <sys/dirent.h> declares it on Darwin.
  public var d_name: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}

@discardableResult public func memcmp(_ a: UnsafeRawPointer!, _ b: UnsafeRawPointer!, _ count: Int) -> Int32 { 0 }
@discardableResult public func memcpy(_ a: UnsafeMutableRawPointer!, _ b: UnsafeRawPointer!, _ count: Int)
  -> UnsafeMutableRawPointer!
{ a }
@discardableResult public func strlen(_ text: UnsafePointer<CChar>) -> Int { 0 }
@discardableResult public func strerror(_ code: Int32) -> UnsafeMutablePointer<CChar>! { nil }
@discardableResult public func getenv(_ name: UnsafePointer<CChar>!) -> UnsafeMutablePointer<CChar>! { nil }
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { -1 }
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 { -1 }
@discardableResult public func close(_ descriptor: Int32) -> Int32 { 0 }
@discardableResult public func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer!, _ count: Int) -> Int {
  0
}
@discardableResult public func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer!, _ count: Int) -> Int { 0 }
@discardableResult public func pread(
  _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer!, _ count: Int, _ offset: off_t
) -> Int { 0 }
@discardableResult public func pwrite(
  _ descriptor: Int32, _ buffer: UnsafeRawPointer!, _ count: Int, _ offset: off_t
) -> Int { 0 }
@discardableResult public func fsync(_ descriptor: Int32) -> Int32 { 0 }
@discardableResult public func rename(_ old: UnsafePointer<CChar>!, _ new: UnsafePointer<CChar>!) -> Int32 { 0 }
@discardableResult public func link(_ old: UnsafePointer<CChar>!, _ new: UnsafePointer<CChar>!) -> Int32 { 0 }
@discardableResult public func unlink(_ path: UnsafePointer<CChar>!) -> Int32 { 0 }
@discardableResult public func rmdir(_ path: UnsafePointer<CChar>!) -> Int32 { 0 }
@discardableResult public func mkdir(_ path: UnsafePointer<CChar>!, _ mode: mode_t) -> Int32 { 0 }
@discardableResult public func access(_ path: UnsafePointer<CChar>!, _ mode: Int32) -> Int32 { 0 }
@discardableResult public func flock(_ descriptor: Int32, _ operation: Int32) -> Int32 { 0 }
@discardableResult public func mmap(
  _ address: UnsafeMutableRawPointer!, _ length: Int, _ protection: Int32, _ flags: Int32,
  _ descriptor: Int32, _ offset: off_t
) -> UnsafeMutableRawPointer! { nil }
@discardableResult public func munmap(_ address: UnsafeMutableRawPointer!, _ length: Int) -> Int32 { 0 }
@discardableResult public func madvise(_ address: UnsafeMutableRawPointer!, _ length: Int, _ advice: Int32) -> Int32
{ 0 }
@discardableResult public func sysconf(_ name: Int32) -> Int { 0 }
@discardableResult public func opendir(_ path: UnsafePointer<CChar>!) -> UnsafeMutablePointer<DIR>! { nil }
@discardableResult public func readdir(_ stream: UnsafeMutablePointer<DIR>!) -> UnsafeMutablePointer<dirent>! { nil }
@discardableResult public func closedir(_ stream: UnsafeMutablePointer<DIR>!) -> Int32 { 0 }
@discardableResult public func getpid() -> pid_t { 0 }
// Free space (FolderCalls.availableByteCount): Darwin's fsblkcnt_t is 32 bits.
public typealias fsblkcnt_t = UInt32
public struct statvfs {
  public var f_bsize: UInt = 0
  public var f_frsize: UInt = 0
  public var f_blocks: fsblkcnt_t = 0
  public var f_bfree: fsblkcnt_t = 0
  public var f_bavail: fsblkcnt_t = 0
  public init() {}
}
@discardableResult public func fstatvfs(_ descriptor: Int32, _ status: UnsafeMutablePointer<statvfs>!) -> Int32 { 0 }
// Output paths (OutputTarget): a link's target.
@discardableResult public func realpath(
  _ path: UnsafePointer<CChar>!, _ resolved: UnsafeMutablePointer<CChar>!
) -> UnsafeMutablePointer<CChar>! { nil }
public func free(_ pointer: UnsafeMutableRawPointer?) {}
@discardableResult public func kill(_ process: pid_t, _ signal: Int32) -> Int32 { 0 }
@discardableResult public func time(_ result: UnsafeMutablePointer<time_t>!) -> time_t { 0 }
public func _exit(_ status: Int32) -> Never { fatalError() }
public func exit(_ status: Int32) -> Never { fatalError() }
@discardableResult public func memchr(_ buffer: UnsafeRawPointer!, _ byte: Int32, _ count: Int)
  -> UnsafeMutableRawPointer!
{ nil }

public struct _opaque_pthread_t {}
public typealias pthread_t = UnsafeMutablePointer<_opaque_pthread_t>
public struct pthread_attr_t {}
@discardableResult public func pthread_create(
  _ thread: UnsafeMutablePointer<pthread_t?>!, _ attributes: UnsafePointer<pthread_attr_t>?,
  _ body: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?,
  _ argument: UnsafeMutableRawPointer?
) -> Int32 { 0 }
@discardableResult public func pthread_join(_ thread: pthread_t, _ result: UnsafeMutablePointer<UnsafeMutableRawPointer?>?)
  -> Int32
{ 0 }

// libproc: macOS only, as in the SDKs (iOS has no libproc.h): calldir calls it behind
// `#if os(macOS)`, and a call outside one fails the iOS check here.
#if os(macOS)
public typealias rusage_info_t = UnsafeMutableRawPointer
public let RUSAGE_INFO_V4: Int32 = 4
public struct rusage_info_v4 {
  public var ri_resident_size: UInt64 = 0
  public var ri_phys_footprint: UInt64 = 0
  public var ri_lifetime_max_phys_footprint: UInt64 = 0
  public init() {}
}
@discardableResult public func proc_pid_rusage(
  _ pid: Int32, _ flavor: Int32, _ buffer: UnsafeMutablePointer<rusage_info_t?>!
) -> Int32 { 0 }
#endif

@discardableResult public func pipe(_ ends: UnsafeMutablePointer<Int32>!) -> Int32 { 0 }

// MonotonicTime: mach's uptime clock, as DispatchTime reads it.
public struct clockid_t: Equatable, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }
}
public let CLOCK_REALTIME = clockid_t(rawValue: 0)
public let CLOCK_UPTIME_RAW = clockid_t(rawValue: 8)
public let CLOCK_PROCESS_CPUTIME_ID = clockid_t(rawValue: 12)
public func clock_gettime_nsec_np(_ clock: clockid_t) -> UInt64 { 0 }

// <sys/resource.h>: the open-file limit a compile's merge raises toward its hard limit.
public typealias rlim_t = UInt64
public let RLIMIT_NOFILE: Int32 = 8
public struct rlimit {
  public var rlim_cur: rlim_t = 0
  public var rlim_max: rlim_t = 0
  public init() {}
  public init(rlim_cur: rlim_t, rlim_max: rlim_t) {
    self.rlim_cur = rlim_cur
    self.rlim_max = rlim_max
  }
}
@discardableResult public func getrlimit(_ resource: Int32, _ limits: UnsafeMutablePointer<rlimit>!)
  -> Int32
{ 0 }
@discardableResult public func setrlimit(_ resource: Int32, _ limits: UnsafePointer<rlimit>!)
  -> Int32
{ 0 }

// The standard descriptors (SystemCalls.StandardStreams): fcntl's F_GETFD, signal, stdio's
// stdout with fflush and ferror, as the SDK declares them.
public let EBADF: Int32 = 9
public let EPIPE: Int32 = 32
public let F_GETFD: Int32 = 1
public let F_GETFL: Int32 = 3
public let O_ACCMODE: Int32 = 3
public let STDIN_FILENO: Int32 = 0
public typealias sig_t = @convention(c) (Int32) -> Void
public let SIG_IGN: sig_t? = nil
@discardableResult public func fcntl(_ descriptor: Int32, _ command: Int32) -> Int32 { 0 }
@discardableResult public func signal(_ signal: Int32, _ handler: sig_t!) -> sig_t! { nil }
public struct FILE {}
public var stdout: UnsafeMutablePointer<FILE>! { nil }
@discardableResult public func fflush(_ stream: UnsafeMutablePointer<FILE>!) -> Int32 { 0 }
@discardableResult public func ferror(_ stream: UnsafeMutablePointer<FILE>!) -> Int32 { 0 }

// File times (`stat`'s st_mtimespec and st_ctimespec, as swift-system's Stat hands them on) and
// the terminal's size (`ioctl(TIOCGWINSZ)`), as the SDK imports them: the Darwin overlay's
// pointer form of ioctl, and TIOCGWINSZ as an unsigned long.
public struct timespec {
  public var tv_sec: Int = 0
  public var tv_nsec: Int = 0
  public init() {}
}
public struct winsize {
  public var ws_row: UInt16 = 0
  public var ws_col: UInt16 = 0
  public var ws_xpixel: UInt16 = 0
  public var ws_ypixel: UInt16 = 0
  public init() {}
}
public var TIOCGWINSZ: UInt { 0x4008_7468 }
@discardableResult public func ioctl(
  _ descriptor: Int32, _ request: UInt, _ pointer: UnsafeMutableRawPointer
) -> Int32 { 0 }
