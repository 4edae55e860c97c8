import DirectoryContainer
import Foundation
import HostTestSupport
import SystemCalls
import TestSupport
import Testing

@testable import CallDirectoryApp

/// A sync checks that the files the system holds are the ones it installed by the hashes the
/// container recorded with their stamps, and reads only a file whose stamp moved (issue 56,
/// item 2: every sync hashed every installed base).
@Suite("A sync trusts the hashes recorded under the lock")
struct InstalledCheckTests {
  /// Two regions staged, enabled, and the full set synced.
  func installed() async throws -> HostFixture {
    let fixture = try HostFixture()
    for (index, region) in ["A", "B"].enumerated() {
      try await fixture.app.stage(
        file: fixture.writeBase(
          region,
          regionEntries(
            first: 74_950_000_000 + Int64(index) * 1_000_000, count: 5_000, label: region)),
        name: "r-\(region)", role: .region, region: region, priority: 50, version: 1)
    }
    try await fixture.app.choose(regions: ["A", "B"])
    #expect(
      try fixture.app.enable(
        system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath
      ).succeeded)
    let synced = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(synced.allSatisfy { $0.succeeded })
    return fixture
  }

  func installedFile(_ fixture: HostFixture, _ name: String) throws -> String {
    let manifest = try fixture.app.manifest()
    return try #require(manifest.bases.first { $0.name == name }?.installedFile)
  }

  @Test func aSecondCheckReadsNoFileAndAFileChangedInPlaceIsReadAndFound() async throws {
    let fixture = try await installed()
    let first = try await fixture.app.checkInstalledBases(fixture.app.manifest())
    #expect(first.damaged.isEmpty)
    #expect(first.filesHashed <= 2, "at most the two, when staged in the stamps' clock tick")
    let second = try await fixture.app.checkInstalledBases(fixture.app.manifest())
    #expect(second.damaged.isEmpty && second.filesHashed == 0, "\(second)")

    // One byte of region B changed in place: same size, same name, new times.
    let file = fixture.app.container + "/" + (try installedFile(fixture, "r-B"))
    let handle = try #require(FileHandle(forUpdatingAtPath: file))
    try handle.seek(toOffset: 200)
    let byte = try #require(try handle.read(upToCount: 1)).first!
    try handle.seek(toOffset: 200)
    try handle.write(contentsOf: [byte ^ 0xFF])
    try handle.close()
    let third = try await fixture.app.checkInstalledBases(fixture.app.manifest())
    #expect(third.damaged == ["r-B"] && third.filesHashed == 1, "\(third)")

    // The sync says so and reloads completely.
    let events = EventLog()
    _ = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath,
      events: { events.record($0) })
    #expect(events.events.contains(.installedBasesChanged(["r-B"])), "\(events.events)")
  }

  @Test func aFileWhoseStampMovedIsReadAgainAndRecordedWhenRight() async throws {
    let fixture = try await installed()
    _ = try await fixture.app.checkInstalledBases(fixture.app.manifest())
    // New times, same bytes (a backup restored, `touch`): read again, found right, recorded.
    let file = fixture.app.container + "/" + (try installedFile(fixture, "r-A"))
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: file)
    let moved = try await fixture.app.checkInstalledBases(fixture.app.manifest())
    #expect(moved.damaged.isEmpty && moved.filesHashed == 1, "\(moved)")
    let after = try await fixture.app.checkInstalledBases(fixture.app.manifest())
    #expect(after.damaged.isEmpty && after.filesHashed == 0, "\(after)")
  }

  @Test func unreadableStampsAreNoStampsAndAWrongRecordIsNeverTrusted() async throws {
    let fixture = try await installed()
    _ = try await fixture.app.checkInstalledBases(fixture.app.manifest())
    let stampsPath = fixture.app.container + "/" + HashStamps.fileName
    let recorded = try String(contentsOfFile: stampsPath, encoding: .utf8)
    #expect(recorded.hasPrefix("calldir hash stamps 1\n"))
    // A torn or foreign stamps file: everything is read again, nothing trusted.
    try "calldir hash stamps 1\nnot a record\n".write(
      toFile: stampsPath, atomically: true, encoding: .utf8)
    let torn = try await fixture.app.checkInstalledBases(fixture.app.manifest())
    #expect(torn.damaged.isEmpty && torn.filesHashed == 2, "\(torn)")
    // A record whose hash is not the manifest's is not taken as a check: the file is read.
    let stamps = HashStamps.read(container: fixture.app.container)
    let file = try installedFile(fixture, "r-A")
    #expect(stamps.trustedSHA256(of: file, container: fixture.app.container) != nil)
    let forged = try String(contentsOfFile: stampsPath, encoding: .utf8)
      .replacingOccurrences(
        of: try #require(stamps.trustedSHA256(of: file, container: fixture.app.container)),
        with: String(repeating: "0", count: 64))
    try forged.write(toFile: stampsPath, atomically: true, encoding: .utf8)
    let wrong = try await fixture.app.checkInstalledBases(fixture.app.manifest())
    #expect(wrong.damaged.isEmpty && wrong.filesHashed == 1, "\(wrong)")
  }

  @Test func aStampIsSettledOnlyStrictlyBeforeTheRecord() {
    let stamp = FileStamp(
      byteCount: 10, device: 1, inode: 2, modifiedNanoseconds: 1_000, changedNanoseconds: 1_500)
    #expect(stamp.isSettled(before: 1_501))
    #expect(!stamp.isSettled(before: 1_500), "changed in the record's own tick")
    #expect(!stamp.isSettled(before: 900))
  }
}
