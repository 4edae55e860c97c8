import BaseFormat
import CallDirectoryApp
import DirectoryContainer
import Foundation
import HostTestSupport
import ReleaseFormat
import TestSupport
import Testing

/// A release folder that runs `hook` (once, or at every base) when the update fetches a base:
/// another writer changing the container while an update downloads.
struct InterferingSource: ReleaseSource, Sendable {
  let folder: FolderReleaseSource
  let everyTime: Bool
  let hook: @Sendable () async throws -> Void
  let fetches = EventLog()

  func fetch(_ path: String, to destination: String, expectedByteCount: Int?)
    async throws(ReleaseError)
  {
    fetches.record(.baseFetched(name: path, bytes: 0))
    let bases = fetches.events.filter {
      if case .baseFetched(let name, _) = $0 { name != ReleaseIndex.fileName } else { false }
    }
    if path != ReleaseIndex.fileName && (everyTime || bases.count == 1) {
      do { try await hook() } catch { Issue.record("the interfering writer failed: \(error)") }
    }
    try folder.fetch(path, to: destination, expectedByteCount: expectedByteCount)
  }
}

/// Versions never go back, and concurrent writers never mix (issue 52, items 5–7): an update
/// commits only against the manifest it planned from, refuses an older release, and keeps its
/// downloads apart from another update's.
@Suite("An update against other writers and older releases")
struct UpdateWritersTests {
  let past = PastTheCapTests()

  /// A release of two versions: `R1` a copy at version 1, `R` at version 2 (region r1's
  /// labels changed), published from the fixture's container.
  func releases(_ fixture: HostFixture, in folder: TemporaryFolder) async throws {
    _ = try ReleasePublisher(releases: folder.path("R")).publish(container: fixture.app.container)
    try FileManager.default.copyItem(atPath: folder.path("R"), toPath: folder.path("R1"))
    let changed = regionEntries(first: 74_950_000_000, count: 1_000, step: 5, label: "R1 new")
    try await fixture.app.stage(
      file: fixture.writeBase("r1-new", changed), name: "r1", role: .region, region: "R1",
      priority: 50, version: 2)
    let second = try ReleasePublisher(releases: folder.path("R")).publish(
      container: fixture.app.container)
    #expect(second.version == 2)
  }

  /// The two releases, and an app's container updated to version 1 (`folder/app`).
  func containerAtVersionOne() async throws -> (HostFixture, TemporaryFolder, ContainerApp) {
    let fixture = try await past.fixture(scope: .perRequest)
    let folder = try TemporaryFolder()
    try await releases(fixture, in: folder)
    let app = ContainerApp(container: folder.path("app"))
    _ = try await app.update(from: FolderReleaseSource(folder: folder.path("R1")))
    return (fixture, folder, app)
  }

  /// The release's bases, by name and SHA-256, at `version` (read from its index).
  func releaseBases(_ folder: String) throws -> [String: String] {
    let index = try ReleaseIndex(
      parsing: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/index.json"))),
      path: "index.json")
    let latest = try #require(index.latest)
    return Dictionary(uniqueKeysWithValues: latest.bases.map { ($0.name, $0.sha256) })
  }

  /// The container's live bases, by name and SHA-256.
  func containerBases(_ app: ContainerApp) throws -> [String: String] {
    Dictionary(
      uniqueKeysWithValues: try app.manifest().bases.filter { $0.state != .retired }.map {
        ($0.name, $0.sha256)
      })
  }

  @Test func anOlderReleaseIsRefusedUnlessADowngradeIsAllowed() async throws {
    let fixture = try await past.fixture(scope: .perRequest)
    let folder = try TemporaryFolder()
    try await releases(fixture, in: folder)
    let app = ContainerApp(container: folder.path("app"))
    let updated = try await app.update(from: FolderReleaseSource(folder: folder.path("R")))
    #expect(updated.version == 2)
    let before = try folderSnapshot(app.container)
    await #expect {
      try await app.update(from: FolderReleaseSource(folder: folder.path("R1")))
    } throws: { error in
      let refused = error as? ContainerAppError
      return refused?.kind == .downgrade && refused?.description.contains("version 1") == true
        && refused?.description.contains("version 2") == true
    }
    #expect(try folderSnapshot(app.container) == before, "a refused update changes nothing")
    let back = try await app.update(
      from: FolderReleaseSource(folder: folder.path("R1")), allowDowngrade: true)
    #expect(back.version == 1)
    #expect(try containerBases(app) == releaseBases(folder.path("R1")))
  }

  /// A release that changes only a base's priority or region (same bytes) is applied, not
  /// taken as unchanged while its version is reported (issue 52, item 13).
  @Test func aReleaseThatChangesOnlyAPriorityIsApplied() async throws {
    let fixture = try await past.fixture(scope: .perRequest)
    let folder = try TemporaryFolder()
    _ = try ReleasePublisher(releases: folder.path("R")).publish(container: fixture.app.container)
    let app = ContainerApp(container: folder.path("app"))
    _ = try await app.update(from: FolderReleaseSource(folder: folder.path("R")))
    let r3 = try #require(PastTheCapTests.sources.first { $0.name == "r3" })
    try await fixture.app.stage(
      file: fixture.writeBase("r3-again", kind: r3.kind, r3.entries), name: "r3", role: .region,
      region: "R3-renamed", priority: 33, version: 2)
    let published = try ReleasePublisher(releases: folder.path("R")).publish(
      container: fixture.app.container)
    #expect(published.version == 2)
    let summary = try await app.update(from: FolderReleaseSource(folder: folder.path("R")))
    #expect(summary.metadataChanged == 1 && summary.patched == 0 && summary.fetchedWhole == 0)
    let held = try #require(try app.manifest().bases.first { $0.name == "r3" })
    #expect(held.priority == 33 && held.region == "R3-renamed" && held.version == 2)
  }

  /// A writer that changes the container while the update downloads makes it plan again: the
  /// container ends as the release, never a mix of what the writer left and the update's plan.
  @Test func anUpdateOverlappedByAnotherWriterPlansAgain() async throws {
    let (fixture, folder, app) = try await containerAtVersionOne()
    let other = ContainerApp(container: app.container)
    let foreign = try fixture.writeBase(
      "foreign", regionEntries(first: 78_120_000_000, count: 50, label: "Foreign"))
    // Meanwhile, a base the update judged unchanged is replaced (as a compile would).
    let source = InterferingSource(
      folder: FolderReleaseSource(folder: folder.path("R")), everyTime: false
    ) {
      try await other.stage(
        file: foreign, name: "r3", role: .region, region: "R3", priority: 30, version: 7)
    }
    let summary = try await app.update(from: source, allowDowngrade: true)
    #expect(summary.version == 2)
    #expect(try containerBases(app) == releaseBases(folder.path("R")), "a set the release had")
    // The index was fetched once for each plan: the first, and the one after the change.
    let indexFetches = source.fetches.events.filter {
      if case .baseFetched(let name, _) = $0 { name == ReleaseIndex.fileName } else { false }
    }
    #expect(indexFetches.count == 2)
  }

  @Test func anUpdateOverlappedAtEveryPlanGivesUpAndChangesNothingOfItsOwn() async throws {
    let (_, folder, app) = try await containerAtVersionOne()
    let other = ContainerApp(container: app.container)
    // At every plan, between reading the manifest and committing (as each staging begins),
    // another writer commits: a plan's resumed downloads fetch nothing, so the source cannot.
    let interfered = EventLog()
    let interfere: @Sendable (SyncEvent) -> Void = { event in
      guard case .updateProgress(let step) = event, step.phase == .staging, step.done == 0 else {
        return
      }
      interfered.record(event)
      do { try other.requestFullSet(interfered.events.count % 2 == 0) } catch {
        Issue.record("the interfering writer failed: \(error)")
      }
    }
    await #expect {
      try await app.update(from: FolderReleaseSource(folder: folder.path("R")), events: interfere)
    } throws: { error in
      (error as? ContainerAppError)?.kind == .conflict
        && (error as? ContainerAppError)?.isRetryable == true
    }
    #expect(interfered.events.count == 3, "three plans, each overlapped")
    #expect(try containerBases(app) == releaseBases(folder.path("R1")), "still version 1")
    // Its downloads wait, idle, for the next update, which completes.
    let waiting = try FileManager.default.contentsOfDirectory(atPath: app.container + "/.downloads")
    #expect(waiting.count == 1 && waiting[0].hasPrefix("idle-"), "\(waiting)")
    let resumed = try await app.update(from: FolderReleaseSource(folder: folder.path("R")))
    // Only the index is fetched again (a folder names no version of it, so no 304 saves it).
    let indexBytes = try Data(contentsOf: URL(fileURLWithPath: folder.path("R/index.json"))).count
    #expect(resumed.downloadedBytes == indexBytes, "resumed from the waiting downloads")
    #expect(try containerBases(app) == releaseBases(folder.path("R")))
  }

  /// Two updates of one container at once: the second runs whole while the first is
  /// downloading. Neither deletes the other's downloads; both succeed, and the container is the
  /// release.
  @Test func twoUpdatesAtOnceKeepTheirDownloadsApart() async throws {
    let (_, folder, app) = try await containerAtVersionOne()
    let second = ContainerApp(container: app.container)
    let release = folder.path("R")
    let source = InterferingSource(
      folder: FolderReleaseSource(folder: folder.path("R")), everyTime: false
    ) {
      let summary = try await second.update(from: FolderReleaseSource(folder: release))
      #expect(summary.version == 2)
    }
    let first = try await app.update(from: source)
    #expect(first.version == 2)
    #expect(try containerBases(app) == releaseBases(folder.path("R")))
    #expect(!FileManager.default.fileExists(atPath: app.container + "/.downloads"))
  }
}
