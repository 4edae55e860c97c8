import CallDirectoryApp
import CallDirectoryHost
import DirectoryContainer
import Foundation
import HostTestSupport
import Testing

/// The user turns the extension on before the app has staged anything (issue 52, item 3): the
/// request must complete, or iOS turns the switch back off and the user sees a switch that will
/// not stay on.
@Suite("First launch: enabled before the first update")
struct FirstLaunchTests {
  @Test func enablingAContainerWithoutAManifestCompletesAnEmptyRequest() async throws {
    let fixture = try HostFixture()
    // iOS makes the App Group container; the app has written nothing into it yet.
    try FileManager.default.createDirectory(
      atPath: fixture.app.container, withIntermediateDirectories: true)
    #expect(
      !FileManager.default.fileExists(atPath: fixture.app.container + "/" + Manifest.fileName))
    let enabled = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(enabled.succeeded, "\(enabled.detail)")
    #expect(try fixture.system.store.state(of: fixture.bundleID) == .enabled)
    #expect(try fixture.system.store.counts(of: fixture.bundleID).identification == 0)
    // The journal says the request sent nothing, from no files.
    let journalText = try String(
      contentsOfFile: fixture.app.container + "/" + ExtensionJournal.fileName, encoding: .utf8)
    let journal = try ExtensionJournal(parsing: journalText)
    #expect(journal.entries == 0 && journal.files.isEmpty && !journal.incremental)
    #expect(journal.committed)

    // The first update and sync then install as usual.
    let entries = regionEntries(first: 74_950_000_000, count: 500, label: "Moscow")
    try await fixture.app.stage(
      file: fixture.writeBase("seed", entries), name: "seed", role: .seed, priority: 100,
      version: 1)
    let synced = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(synced.count == 1 && synced[0].succeeded, "\(synced.map(\.detail))")
    #expect(try fixture.system.store.counts(of: fixture.bundleID).identification == 500)
    #expect(try fixture.system.store.state(of: fixture.bundleID) == .enabled)
  }

  /// The example app's first launch, as `DirectoryUpdater` runs it: its status before anything
  /// is staged says the switch is off (so the screen offers Open Settings, not "Checking…" for
  /// ever); the user turns it on; the status says on; the first update installs.
  @Test func theFirstLaunchShowsTheSwitchThenTheFirstUpdateInstalls() async throws {
    let fixture = try HostFixture()
    try FileManager.default.createDirectory(
      atPath: fixture.app.container, withIntermediateDirectories: true)
    let manager = SimulatedCallDirectoryManager(
      system: fixture.system, executable: fixture.extensionPath, container: fixture.app.container)
    let first = try await fixture.app.status(manager: manager, bundleID: fixture.bundleID)
    #expect(first.bases.isEmpty)
    #expect(first.install.enabled != nil && first.install.enabled != .enabled)
    // The user turns the switch on in Settings before the first update: it stays on.
    let enabled = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(enabled.succeeded, "\(enabled.detail)")
    let on = try await fixture.app.status(manager: manager, bundleID: fixture.bundleID)
    #expect(on.install.enabled == .enabled)
    try await fixture.app.stage(
      file: fixture.writeBase("seed", regionEntries(first: 74_950_000_000, count: 50, label: "A")),
      name: "seed", role: .seed, priority: 100, version: 1)
    try fixture.app.requestFullSet()
    let outcomes = try await fixture.app.sync(manager: manager, bundleID: fixture.bundleID)
    #expect(!outcomes.isEmpty)
    #expect(try fixture.system.store.counts(of: fixture.bundleID).identification == 50)
  }

  @Test func enablingBeforeTheContainerFolderExistsCompletesWithoutAJournal() async throws {
    let fixture = try HostFixture()
    let enabled = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(enabled.succeeded, "\(enabled.detail)")
    #expect(try fixture.system.store.state(of: fixture.bundleID) == .enabled)
    #expect(!FileManager.default.fileExists(atPath: fixture.app.container))
  }
}
