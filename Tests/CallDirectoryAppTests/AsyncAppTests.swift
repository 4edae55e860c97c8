import CallDirectoryApp
import CallDirectoryCore
import CallDirectoryHost
import DirectoryContainer
import Foundation
import HostTestSupport
import ReleaseFormat
import TestSupport
import Testing

/// The simulated system's manager, which cancels the calling task once `after` requests have
/// ended: an app whose background time expires in the middle of a sync, at a known point. An
/// app's test double, as the protocol lets one be: checked `Sendable`, throwing one error type.
struct CancellingManager: CallDirectoryManaging, Sendable {
  let manager: SimulatedCallDirectoryManager
  let after: Int
  let requests = EventLog()

  func enabledStatus(ofExtension identifier: String) async throws(HostError)
    -> ExtensionEnabledStatus
  {
    try manager.enabledStatus(ofExtension: identifier)
  }

  func reloadExtension(_ identifier: String, incremental: Bool) async throws(HostError)
    -> RequestResult
  {
    let result = try manager.reloadExtension(identifier, incremental: incremental)
    requests.record(.requestFinished(number: requests.events.count + 1, error: result.error))
    if requests.events.count == after { withUnsafeCurrentTask { $0?.cancel() } }
    return result
  }

  func openSettings() async throws(HostError) {}
}

/// A release folder whose fetches cancel the calling task at fetch number `cancelAt`.
struct CancellingSource: ReleaseSource, Sendable {
  let folder: FolderReleaseSource
  let cancelAt: Int
  let fetches = EventLog()

  func fetch(_ path: String, to destination: String, expectedByteCount: Int?)
    async throws(ReleaseError)
  {
    fetches.record(.baseFetched(name: path, bytes: 0))
    if fetches.events.count == cancelAt { withUnsafeCurrentTask { $0?.cancel() } }
    try folder.fetch(path, to: destination, expectedByteCount: expectedByteCount)
  }
}

/// The app's half as an app calls it: async, cancellable between steps, with typed events and
/// errors (issue 40, items 1–3).
@Suite("The app's async API: events, cancellation, parts, status")
struct AsyncAppTests {
  let past = PastTheCapTests()

  /// A sync past the cap tells each request as it starts and ends, in order, with its target.
  @Test func aSyncReportsEachRequestAsTypedEvents() async throws {
    let fixture = try await past.fixture(scope: .perRequest)
    try past.enable(fixture)
    let log = EventLog()
    let results = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath,
      events: log.record)
    #expect(results.count >= 2)
    let started = log.events.compactMap { event -> Int? in
      if case .requestStarted(let number, _, _) = event { return number } else { return nil }
    }
    let finished = log.events.compactMap { event -> (Int, CallDirectoryError?)? in
      if case .requestFinished(let number, let error) = event { return (number, error) }
      return nil
    }
    #expect(started == Array(1...results.count))
    #expect(finished.map(\.0) == Array(1...results.count))
    #expect(finished.map(\.1) == results.map(\.error))
    #expect(try fixture.contents() == PastTheCapTests.ideal())
  }

  /// Cancelled after its first request (background time expired): the sync throws
  /// `.cancelled`, the manifest records that request and nothing in flight, and the next sync
  /// finishes the same install an uncancelled one makes.
  @Test func aCancelledSyncStopsBetweenRequestsAndTheNextResumes() async throws {
    let fixture = try await past.fixture(scope: .perRequest)
    try past.enable(fixture)
    let manager = CancellingManager(
      manager: SimulatedCallDirectoryManager(
        system: fixture.system, executable: fixture.extensionPath,
        container: fixture.app.container),
      after: 1)
    // Its own task, as an app's background task: the cancellation is that task's.
    let app = fixture.app
    let bundleID = fixture.bundleID
    let cancelled = await Task { try await app.sync(manager: manager, bundleID: bundleID) }.result
    switch cancelled {
    case .success: Issue.record("a cancelled sync returned")
    case .failure(let error):
      let appError = try #require(error as? ContainerAppError)
      #expect(appError.kind == .cancelled && appError.isRetryable, "\(appError)")
    }
    #expect(manager.requests.events.count == 1, "no request after the cancellation")
    let progress = try fixture.app.manifest().installProgress
    #expect(!progress.requestInFlight && progress.targetEntries == nil)
    #expect(progress.installedEntries == PastTheCapTests.perLoad)
    let resumed = try await past.sync(fixture)
    #expect(!resumed.isEmpty && resumed.allSatisfy { $0.succeeded })
    #expect(resumed.allSatisfy { $0.incremental }, "a recorded request needs no complete reload")
    #expect(try fixture.contents() == PastTheCapTests.ideal())
  }

  /// An update cancelled at its second fetch leaves the container byte-identical, and the next
  /// one completes.
  @Test func aCancelledUpdateChangesNothing() async throws {
    let fixture = try await past.fixture(scope: .perRequest)
    let release = try TemporaryFolder()
    _ = try ReleasePublisher(releases: release.path("R")).publish(container: fixture.app.container)
    let target = ContainerApp(container: release.path("box"))
    let cancelling = CancellingSource(
      folder: FolderReleaseSource(folder: release.path("R")), cancelAt: 2)
    let cancelled = await Task { try await target.update(from: cancelling) }.result
    switch cancelled {
    case .success: Issue.record("a cancelled update returned")
    case .failure(let error):
      #expect((error as? ContainerAppError)?.kind == .cancelled, "\(error)")
    }
    #expect(cancelling.fetches.events.count == 2, "no fetch after the cancellation")
    #expect(!FileManager.default.fileExists(atPath: target.container + "/" + Manifest.fileName))
    let log = EventLog()
    let summary = try await target.update(
      from: FolderReleaseSource(folder: release.path("R")), events: log.record)
    #expect(summary.fetchedWhole == PastTheCapTests.sources.count)
    // A base fetched whole each, and the phases' progress between them: the downloads end at
    // their whole, then each base is staged.
    let fetched = log.events.filter { if case .baseFetched = $0 { true } else { false } }
    #expect(fetched.count == PastTheCapTests.sources.count)
    let progress = log.events.compactMap { event -> UpdateProgress? in
      if case .updateProgress(let step) = event { step } else { nil }
    }
    #expect(
      progress.map(\.phase).reduce(into: [UpdateProgress.Phase]()) {
        if $0.last != $1 { $0.append($1) }
      } == [.downloading, .staging])
    let downloaded = progress.last { $0.phase == .downloading }
    #expect(downloaded?.done == downloaded?.total && (downloaded?.total ?? 0) > 0)
    #expect(
      progress.last == UpdateProgress(phase: .staging, done: fetched.count, total: fetched.count))
    #expect(try target.manifest().bases.count == PastTheCapTests.sources.count)
  }

  /// An app at version 1 whose update to version 2 is cancelled mid-download: every file of
  /// the container is as it was, byte for byte (the downloads folder keeps what arrived, for
  /// the next update to resume, and is left out).
  @Test func aCancelledUpdateLeavesEveryFileOfTheContainerAsItWas() async throws {
    let (_, folder, app) = try await UpdateWritersTests().containerAtVersionOne()
    func snapshot() throws -> [String: Data] {
      try folderSnapshot(app.container).filter { !$0.key.hasPrefix(".downloads") }
    }
    let before = try snapshot()
    #expect(before.keys.contains(Manifest.fileName) && before.count > 2, "\(before.keys)")
    let cancelling = CancellingSource(
      folder: FolderReleaseSource(folder: folder.path("R")), cancelAt: 2)
    let cancelled = await Task { try await app.update(from: cancelling) }.result
    guard case .failure(let error) = cancelled else {
      Issue.record("a cancelled update returned")
      return
    }
    #expect((error as? ContainerAppError)?.kind == .cancelled, "\(error)")
    #expect(try snapshot() == before)
  }

  /// Three parts, the second never turned on: by default the others are synced and its result
  /// says why; stopping at the first failure leaves the third alone. The status then shows
  /// each part's install and each extension's switch.
  @Test func partsSyncWithAFailurePolicyAndAStatusPerExtension() async throws {
    let fixture = try await past.fixture(scope: .perRequest)
    let manager = SimulatedCallDirectoryManager(
      system: fixture.system, executable: fixture.extensionPath, partsOf: fixture.app.container)
    for index in [1, 3] {
      let part = fixture.app.part(index)
      if index == 1 { try fixture.app.split(into: 3) }
      let result = try part.enable(
        system: fixture.system, bundleID: fixture.bundleID + ".\(index)",
        executable: fixture.extensionPath)
      #expect(result.succeeded, "\(result.detail)")
    }
    let stopped = try await fixture.app.syncParts(
      manager: manager, bundleID: fixture.bundleID, count: 3, policy: .stopAtFirstFailure)
    #expect(stopped.map(\.index) == [1, 2])
    #expect(stopped[1].error?.kind == .extensionNotEnabled && !stopped[1].succeeded)
    let all = try await fixture.app.syncParts(
      manager: manager, bundleID: fixture.bundleID, count: 3)
    #expect(all.map(\.index) == [1, 2, 3])
    #expect(all[0].succeeded && all[2].succeeded && !all[1].succeeded)
    #expect(all.map(\.bundleID) == (1...3).map { fixture.bundleID + ".\($0)" })
    let status = try await fixture.app.status(manager: manager, bundleID: fixture.bundleID)
    #expect(status.parts.map(\.enabled) == [.enabled, .unknown, .enabled])
    #expect(status.parts.map(\.numberRange) == all.map(\.numberRange))
    #expect(
      status.parts[0].isUpToDate && status.parts[2].isUpToDate && !status.parts[1].isUpToDate,
      "\(status.parts)")
    #expect(status.parts[1].installedEntries == nil && status.parts[1].pendingEntries > 0)
    #expect(status.chosenRegions == ["R1", "R2", "R3", "R4"])
  }

  /// A 404 is a download error a retry does not mend; a 503 is one it may.
  @Test func downloadErrorsSayWhetherARetryHelps() {
    let missing = ContainerAppError(
      release: ReleaseError("x: HTTP 404", kind: .download, file: "x", code: 404))
    let busy = ContainerAppError(
      release: ReleaseError("x: HTTP 503", kind: .download, file: "x", code: 503))
    let dropped = ContainerAppError(release: ReleaseError("x: dropped", kind: .download))
    #expect(missing.kind == .download && missing.code == 404 && !missing.isRetryable)
    #expect(missing.file == "x")
    #expect(busy.isRetryable && dropped.isRetryable)
    #expect(!ContainerAppError(release: ReleaseError("bad patch")).isRetryable)
  }
}

/// Extensions named explicitly, not by the `bundleID.N` convention (issue 56, item 5).
@Suite("Parts synced through extensions the app names")
struct NamedPartExtensionsTests {
  let past = PastTheCapTests()

  @Test func eachPartSyncsThroughTheExtensionTheListNamesAndTheStatusAsksThem() async throws {
    let fixture = try await past.fixture(scope: .perRequest)
    let extensions = ["com.example.blocking", "com.example.identity.extra"]
    let manager = SimulatedCallDirectoryManager(
      system: fixture.system, executable: fixture.extensionPath, partsOf: fixture.app.container,
      extensions: extensions)
    try fixture.app.split(into: 2)
    for (offset, identifier) in extensions.enumerated() {
      let result = try fixture.app.part(offset + 1).enable(
        system: fixture.system, bundleID: identifier, executable: fixture.extensionPath)
      #expect(result.succeeded, "\(result.detail)")
    }
    let results = try await fixture.app.syncParts(manager: manager, extensions: extensions)
    #expect(results.map(\.bundleID) == extensions)
    #expect(results.allSatisfy { $0.succeeded }, "\(results.map(\.error))")
    let status = try await fixture.app.status(
      manager: manager, bundleID: "com.example.main", partExtensions: extensions)
    #expect(status.parts.map(\.bundleID) == extensions)
    #expect(status.parts.map(\.enabled) == [.enabled, .enabled])
    #expect(status.parts.allSatisfy { $0.isUpToDate }, "\(status.parts)")
  }

  @Test(arguments: [["com.a", "com.a"], ["com.a", ""]])
  func aListThatRepeatsOrLeavesOutAnIdentifierIsRefused(extensions: [String]) async throws {
    let fixture = try await past.fixture(scope: .perRequest)
    let manager = SimulatedCallDirectoryManager(
      system: fixture.system, executable: fixture.extensionPath, partsOf: fixture.app.container,
      extensions: extensions)
    await #expect {
      _ = try await fixture.app.syncParts(manager: manager, extensions: extensions)
    } throws: { error in
      (error as? ContainerAppError)?.kind == .badArgument
    }
    #expect(fixture.app.existingParts().isEmpty, "nothing split")
  }
}
