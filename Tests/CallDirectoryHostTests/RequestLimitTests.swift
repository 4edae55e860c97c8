import CallDirectoryCore
import CallDirectoryHost
import Foundation
import HostTestSupport
import ProcessSpawning
import TestSupport
import Testing

@Suite("Requests through the pipe: the contract, the limits, and nothing lost")
struct RequestLimitTests {
  /// A store holding a known good load, and its contents.
  func installedFixture() throws -> (HostFixture, [String]) {
    let fixture = try HostFixture()
    let first = try fixture.system.enable(
      fixture.bundleID,
      runner: fixture.misbehaving([
        "add-id:100:Аптека", "add-id:200:Кафе", "add-block:50", "complete",
      ]))
    #expect(first.succeeded, "\(first.detail)")
    let contents = try fixture.contents()
    #expect(contents == ["id 100 Аптека", "id 200 Кафе", "block 50"])
    return (fixture, contents)
  }

  @Test(arguments: [
    (["add-id:300:x", "add-id:299:y", "complete"], 3),
    (["add-id:300:x", "add-id:300:y", "complete"], 4),
    (["add-block:0", "complete"], 4),
    (["add-block:-5", "complete"], 3),
    (["remove-id:100", "complete"], 8),
    (["remove-all-block", "complete"], 8),
  ])
  func eachViolationGetsItsCodeAndLeavesTheStore(steps: [String], code: Int) throws {
    let (fixture, before) = try installedFixture()
    let result = try fixture.system.reload(
      fixture.bundleID, incremental: false, runner: fixture.misbehaving(steps))
    #expect(result.error?.code == code, "\(steps): \(result.detail)")
    #expect(try fixture.contents() == before)
    #expect(try fixture.system.store.lastRequest(of: fixture.bundleID)?.errorCode == code)
  }

  @Test func theCapFailsWithCode5AndLeavesTheStore() throws {
    let (fixture, before) = try installedFixture()
    fixture.system.contract.maximumAllowedEntries = 25_000
    let result = try fixture.system.reload(
      fixture.bundleID, incremental: false,
      runner: fixture.misbehaving(["add-ids:1000:25000", "complete"]))
    #expect(result.error?.code == 5)
    #expect(try fixture.contents() == before)
    let fits = try fixture.system.reload(
      fixture.bundleID, incremental: false,
      runner: fixture.misbehaving(["add-ids:1000:24999", "complete"]))
    #expect(fits.succeeded, "\(fits.detail)")
    #expect(try fixture.system.store.counts(of: fixture.bundleID).identification == 24_999)
  }

  @Test func anExtensionKilledAtARandomBatchLeavesTheStore() throws {
    let (fixture, before) = try installedFixture()
    var generator = SystemRandomNumberGenerator()
    let killAt = Int.random(in: 1...34_999, using: &generator)
    let result = try fixture.system.reload(
      fixture.bundleID, incremental: false,
      runner: fixture.misbehaving([
        "kill-after-entries:\(killAt)", "add-ids:1000:35000", "complete",
      ]))
    #expect(result.error == .loadingInterrupted, "killed after \(killAt): \(result.detail)")
    #expect(result.detail.contains("crashed"))
    #expect(try fixture.contents() == before)
  }

  @Test func aHangingExtensionTimesOutAndLeavesTheStore() throws {
    let (fixture, before) = try installedFixture()
    // Time as the sampler sees it: 0.1 s a reading, so the 0.5 s limit passes after a fixed
    // number of samples however fast the machine is.
    fixture.system.limits.timeoutSeconds = 0.5
    fixture.system.limits.clock = SteppingClock(step: 100_000_000).clock
    let result = try fixture.system.reload(
      fixture.bundleID, incremental: false,
      runner: fixture.misbehaving(["add-ids:1000:20000", "hang", "complete"]))
    #expect(result.error == .loadingInterrupted)
    #expect(result.detail.contains("still loading"))
    #expect(result.killedFor == .timeout)
    #expect(try fixture.contents() == before)
  }

  @Test func anExtensionOverTheMemoryLimitIsKilledAndLeavesTheStore() throws {
    let (fixture, before) = try installedFixture()
    let result = try fixture.system.reload(
      fixture.bundleID, incremental: false,
      runner: fixture.misbehaving(["add-ids:1000:1000", "allocate:16777216", "hang", "complete"]))
    #expect(result.error == .loadingInterrupted)
    #expect(result.detail.contains("memory limit"))
    #expect(result.killedFor == .memory)
    #expect(result.footprintPeakBytes > 5 * 1024 * 1024)
    #expect(try fixture.contents() == before)
  }

  @Test func aCancelledRequestLeavesTheStore() throws {
    let (fixture, before) = try installedFixture()
    let result = try fixture.system.reload(
      fixture.bundleID, incremental: false,
      runner: fixture.misbehaving(["add-ids:1000:500", "cancel"]))
    #expect(result.error != nil)
    #expect(result.detail.contains("cancelled"))
    #expect(try fixture.contents() == before)
  }

  @Test func aSecondReloadDuringALoadGets7() throws {
    let (fixture, _) = try installedFixture()
    let system = fixture.system
    let bundleID = fixture.bundleID
    let hostDirectory = system.hostDirectory
    let misbehaving = builtExecutablePath("calldir-misbehaving-extension")
    // The slow load says when it is running (and so holds the extension's lock), then waits
    // until this test lets it complete: no sleeping.
    let ready = try Rendezvous(fixture.folder.path("ready"))
    let go = try Rendezvous(fixture.folder.path("go"))
    let slowDone = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var slowResult: RequestResult?
    Thread.detachNewThread {
      // A second connection: the first load holds the extension's lock for its whole request.
      let other = try! SimulatedSystem(hostDirectory: hostDirectory)
      // The slow load ends when the test says, never at the system's 60 s (a loaded machine).
      other.limits.timeoutSeconds = 3_600
      slowResult = try? other.reload(
        bundleID, incremental: false,
        runner: .process(
          executable: misbehaving, container: hostDirectory,
          extraArguments: ["add-id:300:x", "ready:\(ready.path)", "wait:\(go.path)", "complete"]))
      slowDone.signal()
    }
    try ready.awaitByte()
    #expect(
      throws: HostError.callDirectory(.currentlyLoading, detail: "\(bundleID) is already loading")
    ) {
      try system.reload(bundleID, incremental: false, runner: fixture.misbehaving(["complete"]))
    }
    // Through the app's manager surface, the refusal is the completion's error, not a throw.
    let manager = SimulatedCallDirectoryManager(
      system: system, executable: misbehaving, container: hostDirectory)
    #expect(try manager.reloadExtension(bundleID, incremental: false).error == .currentlyLoading)
    try go.sendByte()
    slowDone.wait()
    #expect(slowResult?.succeeded == true)
  }

  @Test func aDisabledExtensionCannotReloadAndLookupsIgnoreIt() throws {
    let (fixture, before) = try installedFixture()
    #expect(
      try fixture.system.lookup(100) == .identified(label: "Аптека", bundleID: fixture.bundleID))
    try fixture.system.disable(fixture.bundleID)
    #expect(try fixture.system.lookup(100) == .unknown)
    #expect(throws: HostError.self) {
      try fixture.system.reload(
        fixture.bundleID, incremental: false, runner: fixture.misbehaving(["complete"]))
    }
    #expect(try fixture.contents() == before, "disabling keeps the data")
  }

  @Test func aFailedEnableLeavesTheExtensionDisabled() throws {
    let (fixture, before) = try installedFixture()
    try fixture.system.disable(fixture.bundleID)
    let failed = try fixture.system.enable(
      fixture.bundleID, runner: fixture.misbehaving(["add-id:300:x", "add-id:299:y", "complete"]))
    #expect(failed.error?.code == 3)
    #expect(try fixture.system.store.state(of: fixture.bundleID) == .disabled)
    #expect(try fixture.system.lookup(100) == .unknown, "the switch went back off")
    #expect(try fixture.contents() == before)
    // A first enable that fails leaves a known, disabled extension too.
    let other = "com.example.other"
    let first = try fixture.system.enable(other, runner: fixture.misbehaving(["add-block:0"]))
    #expect(!first.succeeded)
    #expect(try fixture.system.store.state(of: other) == .disabled)
  }

  @Test func anIncrementalRequestCountsItsRemovals() throws {
    let (fixture, _) = try installedFixture()
    let result = try fixture.system.reload(
      fixture.bundleID, incremental: true,
      runner: fixture.misbehaving(["remove-id:100", "remove-id:200", "add-id:300:x", "complete"]))
    #expect(result.succeeded, "\(result.detail)")
    #expect(result.incremental)
    #expect((result.entries, result.removals) == (1, 2))
    #expect(try fixture.contents() == ["id 300 x", "block 50"])
  }

  @Test func theStoreHasIOSsSchema() throws {
    let fixture = try HostFixture()
    let path = fixture.system.store.path
    #expect(path.hasSuffix("/CallDirectory.db"))
    // Read through a connection of its own (the store's SQLite wrapper), as a tool would.
    let reader = try SQLiteDatabase(path: path)
    let statement = try reader.prepare(
      "select name from sqlite_master where type='table' order by name")
    var names: [String] = []
    while try statement.step() { names.append(statement.text(at: 0) ?? "") }
    let tables = names.map { "'\($0)'" }.joined(separator: ", ")
    for table in [
      "Extension", "PhoneNumber", "Label", "PhoneNumberBlockingEntry",
      "PhoneNumberIdentificationEntry", "SchemaVersion",
    ] {
      #expect(tables.contains("'\(table)'"), "\(tables)")
    }
  }
}
