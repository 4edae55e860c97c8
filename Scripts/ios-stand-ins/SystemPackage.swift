// A stand-in for swift-system's SystemPackage, for Scripts/typecheck-ios.sh: the declarations
// calldir's iOS modules use, with swift-system 1.8.1's signatures. Built as a package (not the
// ABI-stable System of Apple's SDK), swift-system's availability is its source availability
// ("macOS 10.10, iOS 8.0": Package.swift), so nothing here carries an @available: calldir's own
// availability is what the type-check is for. Bodies only satisfy the compiler; nothing runs.

import Darwin

public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }
  public var description: String { "errno \(rawValue)" }
  public static var ioError: Errno { Errno(rawValue: 5) }
  public static var invalidArgument: Errno { Errno(rawValue: 22) }
  public static var fileTooLarge: Errno { Errno(rawValue: 27) }
  public static var interrupted: Errno { Errno(rawValue: 4) }
  public static var noSuchFileOrDirectory: Errno { Errno(rawValue: 2) }
  public static var fileExists: Errno { Errno(rawValue: 17) }
  public static var resourceTemporarilyUnavailable: Errno { Errno(rawValue: 35) }
  public static var wouldBlock: Errno { Errno(rawValue: 35) }
  public static var noSpace: Errno { Errno(rawValue: 28) }
  public static var badFileDescriptor: Errno { Errno(rawValue: 9) }
  public static var permissionDenied: Errno { Errno(rawValue: 13) }
  public static var notDirectory: Errno { Errno(rawValue: 20) }
  public static var isDirectory: Errno { Errno(rawValue: 21) }
  public static var canceled: Errno { Errno(rawValue: 89) }  // ECANCELED on Darwin
}

public struct FilePath: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  public var string: String
  public init(_ string: String) { self.string = string }
  public init(stringLiteral value: String) { self.string = value }
  public var description: String { string }
  public func stat(followTargetSymlink: Bool = true, retryOnInterrupt: Bool = true) throws(Errno)
    -> Stat
  { Stat() }
}

public struct FilePermissions: OptionSet, Hashable, Sendable {
  public let rawValue: UInt16
  public init(rawValue: UInt16) { self.rawValue = rawValue }
  public static var ownerReadWrite: FilePermissions { FilePermissions(rawValue: 0o600) }
  public static var ownerRead: FilePermissions { FilePermissions(rawValue: 0o400) }
  public static var ownerWrite: FilePermissions { FilePermissions(rawValue: 0o200) }
  public static var groupRead: FilePermissions { FilePermissions(rawValue: 0o040) }
  public static var otherRead: FilePermissions { FilePermissions(rawValue: 0o004) }
  public static var ownerReadWriteExecute: FilePermissions { FilePermissions(rawValue: 0o700) }
}

public struct Stat: Sendable {
  public struct FileType: Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static var regular: FileType { FileType(rawValue: 0o100000) }
    public static var directory: FileType { FileType(rawValue: 0o040000) }
    public static var symbolicLink: FileType { FileType(rawValue: 0o120000) }
    public static var pipe: FileType { FileType(rawValue: 0o010000) }
    public static var characterSpecial: FileType { FileType(rawValue: 0o020000) }
  }
  /// `dev_t` is Int32 on Darwin; `ino_t` UInt64.
  public struct DeviceID: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
  }
  public struct Inode: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
  }
  init() {}
  public var type: FileType { .regular }
  public var size: Int64 { 0 }
  public var deviceID: DeviceID { DeviceID(rawValue: 0) }
  public var inode: Inode { Inode(rawValue: 0) }
  public var st_mtim: timespec { timespec() }
  public var st_ctim: timespec { timespec() }
}

public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
  public let rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }

  public struct AccessMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static var readOnly: AccessMode { AccessMode(rawValue: 0) }
    public static var writeOnly: AccessMode { AccessMode(rawValue: 1) }
    public static var readWrite: AccessMode { AccessMode(rawValue: 2) }
  }

  public struct OpenOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static var nonBlocking: OpenOptions { OpenOptions(rawValue: 0x4) }
    public static var append: OpenOptions { OpenOptions(rawValue: 0x8) }
    public static var create: OpenOptions { OpenOptions(rawValue: 0x200) }
    public static var truncate: OpenOptions { OpenOptions(rawValue: 0x400) }
    public static var exclusiveCreate: OpenOptions { OpenOptions(rawValue: 0x800) }
    public static var noFollow: OpenOptions { OpenOptions(rawValue: 0x100) }
    public static var closeOnExec: OpenOptions { OpenOptions(rawValue: 0x1000000) }
  }

  public enum SeekOrigin: Sendable { case start, current, end }

  public static func open(
    _ path: FilePath, _ mode: AccessMode, options: OpenOptions = [],
    permissions: FilePermissions? = nil, retryOnInterrupt: Bool = true
  ) throws -> FileDescriptor { FileDescriptor(rawValue: -1) }

  public static func open(
    _ path: String, _ mode: AccessMode, options: OpenOptions = [],
    permissions: FilePermissions? = nil, retryOnInterrupt: Bool = true
  ) throws -> FileDescriptor { FileDescriptor(rawValue: -1) }

  public func close() throws {}
  public func read(into buffer: UnsafeMutableRawBufferPointer, retryOnInterrupt: Bool = true)
    throws -> Int
  { 0 }
  public func read(
    fromAbsoluteOffset offset: Int64, into buffer: UnsafeMutableRawBufferPointer,
    retryOnInterrupt: Bool = true
  ) throws -> Int { 0 }
  public func write(_ buffer: UnsafeRawBufferPointer, retryOnInterrupt: Bool = true) throws -> Int
  { 0 }
  public func writeAll<S: Sequence>(_ sequence: S) throws -> Int where S.Element == UInt8 { 0 }
  public func writeAll<S: Sequence>(toAbsoluteOffset offset: Int64, _ sequence: S) throws -> Int
  where S.Element == UInt8 { 0 }
  public func seek(offset: Int64, from whence: SeekOrigin) throws -> Int64 { 0 }
  public func stat(retryOnInterrupt: Bool = true) throws(Errno) -> Stat { Stat() }
  public static var standardInput: FileDescriptor { FileDescriptor(rawValue: 0) }
  public static var standardOutput: FileDescriptor { FileDescriptor(rawValue: 1) }
  public static var standardError: FileDescriptor { FileDescriptor(rawValue: 2) }
}
