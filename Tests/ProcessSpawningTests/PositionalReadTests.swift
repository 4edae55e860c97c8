import ByteCoding
import Foundation
import SystemCalls
import SystemPackage
import TestSupport
import Testing

/// `PositionalRead` reports a failure as swift-system's `Errno`, thrown, as swift-system's own
/// calls do, rather than -1 and a global `errno` each caller had to read in time (issue 68,
/// item 4).
@Suite("PositionalRead throws Errno")
struct PositionalReadTests {
  @Test func aFileThatCannotBeOpenedThrowsItsErrno() throws {
    let folder = try TemporaryFolder()
    #expect(throws: Errno.noSuchFileOrDirectory) {
      try PositionalRead.open(folder.path("missing"))
    }
    #expect(throws: Errno.notDirectory) {
      try "x".write(toFile: folder.path("file"), atomically: true, encoding: .utf8)
      return try PositionalRead.open(folder.path("file") + "/below")
    }
  }

  @Test func readsAtAnOffsetAndEndWithZero() throws {
    let folder = try TemporaryFolder()
    let text = "0123456789abcdef"
    try text.write(toFile: folder.path("f"), atomically: true, encoding: .utf8)
    let descriptor = try PositionalRead.open(folder.path("f"))
    defer { PositionalRead.close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 8)
    #expect(try PositionalRead.read(descriptor, into: &buffer, from: 2, byteCount: 4, at: 10) == 4)
    #expect(buffer == [0, 0] + Array("abcd".utf8) + [0, 0])
    #expect(try PositionalRead.read(descriptor, into: &buffer, at: 16) == 0, "at the end")
    let storage = ByteStorage()
    #expect(try PositionalRead.read(descriptor, appendingTo: storage, byteCount: 32, at: 12) == 4)
    #expect(storage.withView { Array($0) } == Array("cdef".utf8))
  }

  @Test func aReadThatFailsThrowsAndAppendsNothing() throws {
    let folder = try TemporaryFolder()
    // A folder opens read-only, and reading it fails with EISDIR.
    let descriptor = try PositionalRead.open(folder.path(""))
    defer { PositionalRead.close(descriptor) }
    var buffer = [UInt8](repeating: 7, count: 4)
    #expect(throws: Errno.isDirectory) {
      try PositionalRead.read(descriptor, into: &buffer, at: 0)
    }
    #expect(buffer == [7, 7, 7, 7])
    let storage = ByteStorage()
    #expect(throws: Errno.isDirectory) {
      try PositionalRead.read(descriptor, appendingTo: storage, byteCount: 16, at: 0)
    }
    #expect(storage.count == 0)
  }
}
