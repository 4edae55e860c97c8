import CallDirectoryApp
import CallDirectoryHost
import DirectoryContainer
import Foundation
import HostTestSupport
import TestSupport
import Testing

/// The status says what the next sync changes, not only the install's progress (issue 65,
/// item 1): after an update it read "nothing pending" and `isUpToDate` was true, so an app that
/// synced only when not up to date never installed the update.
@Suite("The status tells what is pending after an update, a recompile, a choice, a failure")
struct PendingStatusTests {
  /// A seed and two regions, the full set with region A chosen, synced.
  func installed() async throws -> HostFixture {
    let fixture = try HostFixture()
    let app = fixture.app
    try await app.stage(
      file: fixture.writeBase("seed", regionEntries(first: 74_950_000_000, count: 40, label: "S")),
      name: "seed", role: .seed, priority: 100, version: 1)
    for (region, first) in [("A", Int64(74_951_000_000)), ("B", 74_952_000_000)] {
      try await app.stage(
        file: fixture.writeBase(region, regionEntries(first: first, count: 300, label: region)),
        name: "region-\(region)", role: .region, region: region, priority: 50, version: 1)
    }
    try app.requestFullSet()
    try await app.choose(regions: ["A"])
    let enabled = try app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(enabled.succeeded, "\(enabled.detail)")
    try await sync(fixture)
    let status = try app.status().install
    #expect(status.isUpToDate && status.pendingBases.isEmpty, "\(status)")
    #expect(status.summary.hasSuffix("nothing pending"), "\(status.summary)")
    return fixture
  }

  func sync(_ fixture: HostFixture) async throws {
    let results = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(results.allSatisfy { $0.succeeded }, "\(results.map(\.detail))")
  }

  @Test func aNewVersionOfABaseIsPendingUntilTheNextSync() async throws {
    let fixture = try await installed()
    try await fixture.app.stage(
      file: fixture.writeBase("A2", regionEntries(first: 74_951_000_001, count: 320, label: "A2")),
      name: "region-A", role: .region, region: "A", priority: 50, version: 2)
    let status = try fixture.app.status().install
    #expect(!status.isUpToDate)
    #expect(status.pendingBases.changed == ["region-A"], "\(status.pendingBases)")
    #expect(status.pendingBases.entriesInChanged == 320)
    #expect(
      status.summary.contains("pending at the next sync: 1 base changed"), "\(status.summary)")
    try await sync(fixture)
    #expect(try fixture.app.status().install.isUpToDate)
  }

  @Test func aChosenRegionIsAddedAndALeftOneRemoved() async throws {
    let fixture = try await installed()
    try await fixture.app.choose(regions: ["A", "B"])
    var pending = try fixture.app.status().install.pendingBases
    #expect(pending.added == ["region-B"] && pending.entriesToAdd == 300, "\(pending)")
    #expect(!(try fixture.app.status().install.isUpToDate))
    try await sync(fixture)
    #expect(try fixture.app.status().install.isUpToDate)
    try await fixture.app.choose(regions: ["B"])
    pending = try fixture.app.status().install.pendingBases
    #expect(pending.removed == ["region-A"] && pending.entriesToRemove == 300, "\(pending)")
    try await sync(fixture)
    #expect(try fixture.app.status().install.isUpToDate)
  }

  /// A request that fails (the extension cancels it) leaves the change pending.
  @Test func aFailedSyncLeavesTheChangePending() async throws {
    let fixture = try await installed()
    try await fixture.app.choose(regions: ["A", "B"])
    let executable = builtExecutablePath("calldir-misbehaving-extension")
    let container = fixture.folder.path("none")
    let failing = SimulatedCallDirectoryManager(system: fixture.system) { _ in
      .process(executable: executable, container: container, extraArguments: ["cancel"])
    }
    _ = try? await fixture.app.sync(manager: failing, bundleID: fixture.bundleID)
    let status = try fixture.app.status().install
    #expect(!status.isUpToDate)
    #expect(status.pendingBases.added == ["region-B"], "\(status.pendingBases)")
  }
}
