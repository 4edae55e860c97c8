import BaseFormat
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@testable import CallDirectoryApp

/// A base a patch chain made is moved into staging, not copied and hashed again (issue 56,
/// item 2): the scratch file changes hands, the proven SHA-256 is kept, the base is still
/// verified whole, and a damaged one is refused and removed.
@Suite("Staging a made base by moving it")
struct StagedMoveTests {
  func base(_ path: String) throws {
    let writer = try BaseWriter(path: path, kind: .identification, compact: true)
    for index in 0..<5_000 {
      try writer.append(74_950_000_000 + Int64(index) * 3, label: "Фирма")
    }
    try writer.finish()
  }

  @Test func aMadeBaseIsMovedVerifiedAndKeepsItsProvenHash() throws {
    let folder = try TemporaryFolder()
    let made = folder.path("made.cdb")
    try base(made)
    let bytes = try #require(FileManager.default.contents(atPath: made))
    let proven = try #require(SHA256.hexDigest(ofFile: made))
    let staged = try #require(
      try ContainerApp.stagedMove(
        of: made, at: folder.path("staged.cdb"), sha256: proven, role: .region))
    #expect(!FileManager.default.fileExists(atPath: made), "moved, not copied")
    #expect(FileManager.default.contents(atPath: staged.path) == bytes)
    #expect(staged.sha256 == proven && staged.header.kind == .identification)
  }

  @Test func aDamagedOrMisplacedMadeBaseIsRefusedAndRemoved() throws {
    let folder = try TemporaryFolder()
    let damaged = folder.path("damaged.cdb")
    try base(damaged)
    var bytes = try #require(FileManager.default.contents(atPath: damaged))
    bytes[bytes.count - 100] ^= 0x55
    try bytes.write(to: URL(fileURLWithPath: damaged))
    #expect(throws: ContainerAppError.self) {
      try ContainerApp.stagedMove(
        of: damaged, at: folder.path("staged.cdb"), sha256: "x", role: .region)
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path("staged.cdb")))
    // An identification base where a blocking list belongs.
    let wrongKind = folder.path("wrong.cdb")
    try base(wrongKind)
    #expect(throws: ContainerAppError.self) {
      try ContainerApp.stagedMove(
        of: wrongKind, at: folder.path("staged.cdb"), sha256: "x", role: .blocking)
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path("staged.cdb")))
    // A file that is not there cannot move: the caller copies (and that fails on its own).
    #expect(
      try ContainerApp.stagedMove(
        of: folder.path("gone.cdb"), at: folder.path("staged.cdb"), sha256: "x", role: .region)
        == nil)
  }
}
