import BaseFormat
import CallDirectoryApp
import CallDirectoryCore
import CallDirectoryHost
import DirectoryContainer
import Foundation
import HostTestSupport
import TestSupport
import Testing

/// A full set larger than one load, installed in chunks (issue 11), on a system whose cap is
/// 1,000 entries per load so every step is small.
@Suite("Past the cap: chunked installs, cap scopes, toggles, killed chunks")
struct PastTheCapTests {
  /// The system's `maximumAllowedEntries` in these tests: 1,000 entries per load.
  static let maximumAllowedEntries = 1_001
  static let perLoad = maximumAllowedEntries - 1

  /// One base's entries, with what the cap ranks them by.
  struct Source {
    var name: String
    var role: Manifest.Role
    var region: String?
    var priority: Int
    var kind: BaseKind
    var entries: [(Int64, String)]
  }

  /// A seed set, four regions that overlap each other and the seed set, and a blocking list:
  /// about 4,700 entries in all.
  static let sources: [Source] = [
    Source(
      name: "seed", role: .seed, priority: 100, kind: .identification,
      entries: regionEntries(first: 74_950_000_000, count: 300, step: 11, label: "Seed")),
    Source(
      name: "r1", role: .region, region: "R1", priority: 50, kind: .identification,
      entries: regionEntries(first: 74_950_000_000, count: 1_000, step: 5, label: "R1")),
    Source(
      name: "r2", role: .region, region: "R2", priority: 40, kind: .identification,
      entries: regionEntries(first: 74_950_002_000, count: 1_000, step: 7, label: "R2")),
    Source(
      name: "r3", role: .region, region: "R3", priority: 30, kind: .identification,
      entries: regionEntries(first: 78_120_000_000, count: 1_000, label: "R3")),
    Source(
      name: "r4", role: .region, region: "R4", priority: 20, kind: .identification,
      entries: regionEntries(first: 73_430_000_000, count: 1_000, label: "R4")),
    Source(
      name: "spam", role: .blocking, priority: 90, kind: .blocking,
      entries: regionEntries(first: 86_130_000_000, count: 400, label: "spam")),
  ]

  /// A fixture holding ``sources``, every region chosen, on a system with the small cap.
  func fixture(scope: CheckingContext.CapScope, chunk: Int = 800) async throws -> HostFixture {
    let fixture = try HostFixture()
    for source in Self.sources {
      try await fixture.app.stage(
        file: fixture.writeBase(source.name, kind: source.kind, source.entries),
        name: source.name, role: source.role, region: source.region, priority: source.priority,
        version: 1)
    }
    try await fixture.app.choose(regions: ["R1", "R2", "R3", "R4"])
    try fixture.app.setChunk(chunk)
    fixture.system.contract.maximumAllowedEntries = Self.maximumAllowedEntries
    fixture.system.contract.capScope = scope
    // These tests count requests: a debug-built extension sampled on a loaded machine must not
    // be killed for memory (error 2, a halved chunk). The bench measures the footprint.
    fixture.system.limits.memoryLimitBytes = 256 << 20
    return fixture
  }

  /// The store's contents a system without a cap would hold, computed here from the sources:
  /// a number keeps the label of its highest-priority base. Sorted as `fixture.contents()`.
  /// `top` keeps only the first entries in the cap's order (priority, identification before
  /// blocking, then ascending number).
  static func ideal(top: Int? = nil, of sources: [Source] = sources) -> [String] {
    var best: [String: (priority: Int, number: Int64, text: String)] = [:]
    for source in sources {
      for (number, label) in source.entries {
        let key = "\(source.kind) \(number)"
        if let held = best[key], held.priority >= source.priority { continue }
        let text = source.kind == .identification ? "id \(number) \(label)" : "block \(number)"
        best[key] = (source.priority, number, text)
      }
    }
    var ranked = Array(best.values)
    ranked.sort { a, b in
      if a.priority != b.priority { return a.priority > b.priority }
      let (aID, bID) = (a.text.hasPrefix("id"), b.text.hasPrefix("id"))
      if aID != bID { return aID }
      return a.number < b.number
    }
    let kept = top.map { Array(ranked.prefix($0)) } ?? ranked
    let identification = kept.filter { $0.text.hasPrefix("id") }.sorted { $0.number < $1.number }
    let blocking = kept.filter { $0.text.hasPrefix("block") }.sorted { $0.number < $1.number }
    return (identification + blocking).map(\.text)
  }

  func sync(_ fixture: HostFixture, maximumRequests: Int = ContainerApp.maximumRequestsPerSync)
    async throws -> [RequestResult]
  {
    try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath,
      maximumRequests: maximumRequests)
  }

  func enable(_ fixture: HostFixture) throws {
    let result = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(result.succeeded, "\(result.detail)")
  }

  @Test func aCapPerRequestInstallsEverythingInChunksOfThePlannedSize() async throws {
    let fixture = try await fixture(scope: .perRequest)
    try enable(fixture)
    let results = try await sync(fixture)
    let ideal = Self.ideal()
    #expect(ideal.count > 4 * Self.perLoad, "the set must be several loads' worth")
    #expect(results.allSatisfy { $0.succeeded }, "\(results.map(\.detail))")
    // Phase two fills one load; each further request adds one chunk of 800.
    let chunks = (ideal.count - Self.perLoad + 799) / 800
    #expect(results.count == 1 + chunks, "\(results.map(\.detail))")
    #expect(results.first?.incremental == false)
    #expect(results.dropFirst().allSatisfy { $0.incremental && $0.entries <= 800 })
    #expect(try fixture.contents() == ideal)
    let progress = try fixture.app.manifest().installProgress
    #expect(progress.installedEntries == ideal.count && progress.totalEntries == ideal.count)
    #expect(progress.pendingEntries == 0)
    let manifestPath = fixture.app.container + "/" + Manifest.fileName
    func inode() throws -> Int? {
      try FileManager.default.attributesOfItem(atPath: manifestPath)[.systemFileNumber] as? Int
    }
    let before = try inode()
    #expect(try await sync(fixture).isEmpty, "a second sync has nothing to do")
    #expect(try inode() == before, "and leaves the manifest as it was, not rewritten")
  }

  /// The simulated system's default is iOS 26.1's loader (CDXLoadExtensionDataOperation, issue 40 item 7): each load
  /// operation counts its own additions, blocking and identification together, so the complete
  /// load stops at the cap across both lists, and the chunks after it install the rest.
  @Test func theDefaultCapIsPerRequestAndSharedByBothLists() async throws {
    let contract = try HostFixture().system.contract
    #expect(contract.capScope == .perRequest && contract.sharesCountAcrossLists)
    #expect(contract.maximumAllowedEntries == 2_000_000)
    let fixture = try await fixture(scope: contract.capScope)
    try enable(fixture)
    let phaseTwo = try await sync(fixture, maximumRequests: 1)
    #expect(phaseTwo.count == 1 && phaseTwo[0].succeeded && !phaseTwo[0].incremental)
    let held = try fixture.contents()
    #expect(held.count == Self.perLoad, "one load holds the cap, both lists counted together")
    #expect(held.contains { $0.hasPrefix("block") } && held.contains { $0.hasPrefix("id") })
    let results = try await sync(fixture)
    #expect(results.allSatisfy { $0.succeeded && $0.incremental })
    #expect(try fixture.contents() == Self.ideal(), "past the cap, all of it")
  }

  @Test func aCapPerExtensionKeepsExactlyTheTopEntriesByPriorityAndReportsTheRestPending()
    async throws
  {
    let fixture = try await fixture(scope: .perExtension)
    try enable(fixture)
    let log = EventLog()
    let results = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath,
      events: log.record)
    #expect(results.count == 2)
    #expect(results.first?.succeeded == true)
    #expect(results.last?.error?.code == 5, "the first chunk past the cap is refused")
    #expect(try fixture.contents() == Self.ideal(top: Self.perLoad))
    let progress = try fixture.app.manifest().installProgress
    #expect(progress.capReachedAt == Self.perLoad)
    #expect(progress.pendingEntries == Self.ideal().count - Self.perLoad)
    #expect(log.warnings.contains { $0.contains("error 5") })
    #expect(try await sync(fixture).isEmpty, "the plan stopped at the cap: nothing to retry")
  }

  @Test func aSettingsToggleAtEveryChunkBoundaryIsResumedAndConvergesToTheIdealSet() async throws {
    let ideal = Self.ideal()
    let chunks = (ideal.count - Self.perLoad + 799) / 800
    for boundary in 0...chunks {
      let fixture = try await fixture(scope: .perRequest)
      try enable(fixture)
      // Phase two, then `boundary` chunks: the app got that far before the user toggled.
      let partial = try await sync(fixture, maximumRequests: 1 + boundary)
      #expect(partial.count == 1 + boundary && partial.allSatisfy { $0.succeeded })
      try fixture.system.disable(fixture.bundleID)
      let toggled = try fixture.system.enable(fixture.bundleID, runner: fixture.realExtension)
      #expect(toggled.succeeded, "\(toggled.detail)")
      #expect(
        try fixture.contents() == Self.ideal(top: Self.perLoad),
        "iOS's own complete request brings back the first chunk only")
      let resumed = try await sync(fixture)
      #expect(resumed.allSatisfy { $0.succeeded }, "boundary \(boundary): \(resumed.map(\.detail))")
      #expect(
        resumed.allSatisfy { $0.incremental },
        "boundary \(boundary): the app resumes from the journal, with no complete reload")
      #expect(resumed.count == chunks, "boundary \(boundary)")
      #expect(try fixture.contents() == ideal, "boundary \(boundary)")
    }
  }

  @Test func aChunkTheSystemKillsIsRetriedWithHalfAsManyEntries() async throws {
    let fixture = try await fixture(scope: .perRequest)
    try enable(fixture)
    #expect(try await sync(fixture, maximumRequests: 1).first?.succeeded == true)
    // The store has grown and the device with it slows down: its watchdog now kills a request
    // of more than 500 entries, so the 800-entry chunks fail.
    fixture.system.watchdogEntries = 500
    let log = EventLog()
    let results = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath,
      events: log.record)
    #expect(results.filter { !$0.succeeded }.map { $0.error?.code } == [2])
    #expect(results.first?.error?.code == 2 && results.last?.succeeded == true)
    #expect(results.dropFirst().allSatisfy { $0.succeeded && $0.entries <= 400 })
    #expect(try fixture.contents() == Self.ideal())
    #expect(try fixture.app.manifest().installProgress.chunkEntries == 400)
    #expect(log.warnings.contains { $0.contains("chunks of 400") })
  }

  @Test func aChunkKilledAtTheFloorStopsTheSyncAndKeepsWhatIsIn() async throws {
    let fixture = try await fixture(scope: .perRequest)
    try fixture.app.setChunk(800, minimum: 800)
    try enable(fixture)
    #expect(try await sync(fixture, maximumRequests: 1).first?.succeeded == true)
    fixture.system.watchdogEntries = 500
    let results = try await sync(fixture)
    #expect(results.count == 1 && results.last?.error?.code == 2)
    #expect(try fixture.contents() == Self.ideal(top: Self.perLoad))
    #expect(try fixture.app.manifest().installProgress.installedEntries == Self.perLoad)
  }
}

extension PastTheCapTests {
  @Test func anExtensionStoppedAtEachStepOfItsJournalLeavesTheStoreAndTheNextSyncHeals()
    async throws
  {
    var step = 1
    while step < 20 {
      let fixture = try await fixture(scope: .perRequest)
      try enable(fixture)
      _ = try await sync(fixture, maximumRequests: 2)
      let before = try fixture.contents()
      fixture.system.extensionFaultAt = step
      let stopped = try await sync(fixture, maximumRequests: 1)
      fixture.system.extensionFaultAt = nil
      if stopped.first?.succeeded == true { break }  // past the journal's last durable step
      #expect(try fixture.contents() == before, "step \(step): the system keeps what it held")
      let healed = try await sync(fixture)
      #expect(healed.allSatisfy { $0.succeeded }, "step \(step): \(healed.map(\.detail))")
      #expect(try fixture.contents() == Self.ideal(), "step \(step)")
      step += 1
    }
    #expect(step - 1 == 3, "the journal's fsync, rename and directory fsync")
  }
}

extension PastTheCapTests {
  @Test func anUnreadableJournalMakesTheNextSyncACompleteReloadThatHealsIt() async throws {
    let fixture = try await fixture(scope: .perRequest)
    try enable(fixture)
    #expect(try await sync(fixture).allSatisfy { $0.succeeded })
    try Data("not a journal\n".utf8).write(
      to: URL(fileURLWithPath: fixture.app.container + "/" + ExtensionJournal.fileName))
    let log = EventLog()
    let healed = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath,
      events: log.record)
    #expect(healed.first?.incremental == false, "a complete reload first")
    #expect(healed.allSatisfy { $0.succeeded }, "\(healed.map(\.detail))")
    #expect(log.warnings.contains { $0.contains("never recorded") })
    #expect(try fixture.contents() == Self.ideal())
    #expect(try await sync(fixture).isEmpty, "the journal is whole again")
  }
}
