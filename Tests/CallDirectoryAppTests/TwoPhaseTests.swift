import BaseFormat
import CallDirectoryApp
import CallDirectoryCore
import CallDirectoryHost
import CallDirectoryLoader
import Foundation
import HostTestSupport
import TestSupport
import Testing

@Suite("Two-phase loading through the simulated system")
struct TwoPhaseTests {
  /// A container with a seed set, two regions and a blocking list. Region A shares numbers with
  /// the seed set (different labels) and with region B.
  func stagedFixture() async throws -> HostFixture {
    let fixture = try HostFixture()
    let seed = regionEntries(first: 74_950_000_000, count: 1_000, step: 7, label: "Seed")
    let regionA =
      regionEntries(first: 74_950_000_000, count: 4_000, step: 5, label: "Москва")
    let regionB =
      regionEntries(first: 78_120_000_000, count: 3_000, label: "Питер")
      + regionEntries(first: 74_950_000_000, count: 100, step: 5, label: "Питер-дубль")
    let blocking = regionEntries(first: 86_130_000_000, count: 800, label: "spam")
    try await fixture.app.stage(
      file: fixture.writeBase("seed", seed), name: "seed", role: .seed, priority: 100, version: 1)
    try await fixture.app.stage(
      file: fixture.writeBase("a", regionA), name: "ru-495", role: .region, region: "RU-495",
      priority: 50, version: 1)
    try await fixture.app.stage(
      file: fixture.writeBase("b", regionB), name: "ru-812", role: .region, region: "RU-812",
      priority: 40, version: 1)
    try await fixture.app.stage(
      file: fixture.writeBase("spam", kind: .blocking, blocking), name: "spam", role: .blocking,
      priority: 90, version: 1)
    try await fixture.app.choose(regions: ["RU-495", "RU-812"])
    return fixture
  }

  @Test func enablingInstallsTheSeedSetThenSyncInstallsTheUnion() async throws {
    let fixture = try await stagedFixture()
    let first = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(first.succeeded, "\(first.detail)")
    #expect(try fixture.system.store.counts(of: fixture.bundleID).identification == 1_000)
    #expect(
      try fixture.system.lookup(74_950_000_007)
        == .identified(label: "Seed 1", bundleID: fixture.bundleID))
    #expect(try fixture.system.lookup(78_120_000_000) == .unknown)

    let second = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(second.count == 1 && second[0].succeeded, "\(second.map(\.detail))")
    #expect(second[0].incremental == false, "phase two is a complete load")
    // Union: seed ∪ A ∪ B (A and B share 100 numbers; the seed shares 1,000/7-ish with A).
    let counts = try fixture.system.store.counts(of: fixture.bundleID)
    let seedNumbers = Set((0..<1_000).map { 74_950_000_000 + Int64($0) * 7 })
    let aNumbers = Set((0..<4_000).map { 74_950_000_000 + Int64($0) * 5 })
    let bNumbers = Set((0..<3_000).map { 78_120_000_000 + Int64($0) * 3 })
    #expect(counts.identification == seedNumbers.union(aNumbers).union(bNumbers).count)
    #expect(counts.blocking == 800)
    // A number in the seed set (priority 100) and region A (50) keeps the seed's label; one in
    // A (50) and B (40) keeps A's.
    #expect(
      try fixture.system.lookup(74_950_000_035)
        == .identified(label: "Seed 5", bundleID: fixture.bundleID))
    #expect(
      try fixture.system.lookup(74_950_000_005)
        == .identified(label: "Москва 1", bundleID: fixture.bundleID))
    #expect(try fixture.system.lookup(86_130_000_003) == .blocked(bundleID: fixture.bundleID))
    #expect(try fixture.system.lookup(70_000_000_001) == .unknown)
    let manifest = try fixture.app.manifest()
    #expect(manifest.bases.allSatisfy { $0.state == .installed })
    await #expect(
      try fixture.app.sync(
        system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath
      ).isEmpty)
  }

  @Test func disableThenEnableReinstallsTheSameEntriesFromTheKeptBases() async throws {
    let fixture = try await stagedFixture()
    _ = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    _ = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    let installed = try fixture.contents()
    // Settings: off, then on again. The system wipes nothing on disable, but the complete load on
    // enable replaces everything, so the bases must still be there.
    try fixture.system.disable(fixture.bundleID)
    let again = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(again.succeeded, "\(again.detail)")
    #expect(try fixture.contents() == installed)
  }

  @Test func aTamperedBaseIsRefusedAndTheStoreKept() async throws {
    let fixture = try await stagedFixture()
    _ = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    _ = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    let installed = try fixture.contents()
    let file =
      fixture.app.container + "/"
      + (try fixture.app.manifest().bases.first { $0.name == "ru-812" }!.file)
    let original = try Data(contentsOf: URL(fileURLWithPath: file))
    // A flipped bit: the format's block checksum (or the SHA-256) refuses it.
    var flipped = original
    flipped[flipped.count - 3] ^= 0x20
    try flipped.write(to: URL(fileURLWithPath: file))
    var result = try fixture.system.reload(
      fixture.bundleID, incremental: false, runner: fixture.realExtension)
    #expect(!result.succeeded)
    #expect(try fixture.contents() == installed)
    // A valid base with other labels swapped in: the manifest's size tells first.
    let recordedBytes = try #require(
      try fixture.app.manifest().bases.first { $0.name == "ru-812" }?.byteCount)
    let other = try fixture.writeBase(
      "forged", regionEntries(first: 78_120_000_000, count: 3_000, label: "Подделка"))
    try Data(contentsOf: URL(fileURLWithPath: other)).write(to: URL(fileURLWithPath: file))
    result = try fixture.system.reload(
      fixture.bundleID, incremental: false, runner: fixture.realExtension)
    #expect(!result.succeeded)
    #expect(result.detail.contains("the manifest says \(recordedBytes) bytes"), "\(result.detail)")
    #expect(try fixture.contents() == installed)
    // Without a recorded size (an older manifest) and with the forged file's entry count, only
    // the SHA-256 can tell.
    var manifest = try fixture.app.manifest()
    let index = try #require(manifest.bases.firstIndex { $0.name == "ru-812" })
    manifest.bases[index].byteCount = nil
    manifest.bases[index].entries = 3_000
    try manifest.write(container: fixture.app.container)
    result = try fixture.system.reload(
      fixture.bundleID, incremental: false, runner: fixture.realExtension)
    #expect(!result.succeeded)
    #expect(result.detail.contains("SHA-256"), "\(result.detail)")
    #expect(try fixture.contents() == installed)
  }

  @Test func cappingKeepsExactlyTheHighestPriorityEntries() async throws {
    let fixture = try await stagedFixture()
    try fixture.app.requestFullSet()
    let cap = 3_000
    fixture.system.contract.maximumAllowedEntries = cap + 1
    let result = try fixture.system.enable(fixture.bundleID, runner: fixture.realExtension)
    #expect(result.succeeded, "\(result.detail)")
    let counts = try fixture.system.store.counts(of: fixture.bundleID)
    #expect(counts.identification + counts.blocking == cap)
    // Priorities: seed 100 (1,000 numbers), blocking 90 (800), A 50 (the rest of the cap), B 40.
    #expect(counts.blocking == 800)
    let (identification, _) = try fixture.system.store.contents(of: fixture.bundleID)
    let labels = identification.map(\.1)
    #expect(labels.filter { $0.hasPrefix("Seed") }.count == 1_000)
    #expect(labels.filter { $0.hasPrefix("Москва") }.count == cap - 1_800)
    #expect(!labels.contains { $0.hasPrefix("Питер") }, "the lowest priority is dropped first")
  }

  @Test func anIncrementalUpdateEqualsACompleteLoadOfTheNewVersion() async throws {
    let fixture = try await stagedFixture()
    _ = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    _ = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    // Version 2 of region A: a third of the numbers gone, new ones, some labels changed.
    var regionA2 = regionEntries(first: 74_950_000_000, count: 4_000, step: 5, label: "Москва")
      .enumerated().filter { $0.offset % 3 != 0 }.map {
        $0.offset % 10 == 1 ? ($0.element.0, "Переименовано \($0.offset)") : $0.element
      }
    regionA2 += regionEntries(first: 74_990_000_000, count: 500, label: "Новые")
    try await fixture.app.stage(
      file: fixture.writeBase("a2", regionA2), name: "ru-495", role: .region, region: "RU-495",
      priority: 50, version: 2)
    let update = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(update.count == 1 && update[0].succeeded, "\(update.map(\.detail))")
    #expect(update[0].incremental, "an installed region's new version goes in incrementally")
    let incremental = try fixture.contents()

    let fresh = try SimulatedSystem(hostDirectory: fixture.folder.path("fresh-host"))
    let complete = try fresh.enable(fixture.bundleID, runner: fixture.realExtension)
    #expect(complete.succeeded && !complete.incremental)
    let (identification, blocking) = try fresh.store.contents(of: fixture.bundleID)
    let expected = identification.map { "id \($0.0) \($0.1)" } + blocking.map { "block \($0)" }
    #expect(incremental == expected)
    #expect(incremental.contains("id 74990000000 Новые 0"))
  }

  @Test func anInstalledFileChangedInPlaceMakesTheNextSyncACompleteReload() async throws {
    let fixture = try await stagedFixture()
    let sync = { () async throws -> ([RequestResult], [String]) in
      let log = EventLog()
      let results = try await fixture.app.sync(
        system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath,
        events: log.record)
      return (results, log.warnings)
    }
    _ = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    _ = try await sync()
    let installed = try fixture.contents()
    let region = try #require(try fixture.app.manifest().bases.first { $0.name == "ru-812" })
    let installedPath = fixture.app.container + "/" + region.file
    // A valid base with other labels written over the installed (and current) file.
    let forged = try fixture.writeBase(
      "forged", regionEntries(first: 78_120_000_000, count: 3_000, label: "Подделка"))
    try Data(contentsOf: URL(fileURLWithPath: forged)).write(
      to: URL(fileURLWithPath: installedPath))
    // Not "nothing to do": a complete reload, which the damaged current file fails loudly.
    var (results, warnings) = try await sync()
    #expect(warnings.count == 1 && warnings[0].contains("ru-812"), "\(warnings)")
    #expect(results.count == 1 && !results[0].incremental && !results[0].succeeded)
    #expect(results[0].detail.contains("the manifest says"), "\(results[0].detail)")
    #expect(try fixture.contents() == installed, "a failed reload keeps the store")
    // A new version staged: the installed file is still not what the system holds, so the
    // difference cannot be trusted; a complete reload installs the new set, and the store heals.
    let regionB2 = regionEntries(first: 78_120_000_000, count: 2_000, label: "Питер-2")
    try await fixture.app.stage(
      file: fixture.writeBase("b2", regionB2), name: "ru-812", role: .region, region: "RU-812",
      priority: 40, version: 2)
    (results, warnings) = try await sync()
    #expect(warnings.count == 1)
    #expect(results.count == 1 && !results[0].incremental && results[0].succeeded)
    let healed = try fixture.contents()
    #expect(!healed.contains { $0.contains("Подделка") })
    let fresh = try SimulatedSystem(hostDirectory: fixture.folder.path("fresh-host"))
    #expect(try fresh.enable(fixture.bundleID, runner: fixture.realExtension).succeeded)
    let (identification, blocking) = try fresh.store.contents(of: fixture.bundleID)
    #expect(healed == identification.map { "id \($0.0) \($0.1)" } + blocking.map { "block \($0)" })
    (results, warnings) = try await sync()
    #expect(results.isEmpty && warnings.isEmpty, "up to date, and every installed file checks")
    // The extension checks the old side of a difference too.
    let now = try #require(try fixture.app.manifest().bases.first { $0.name == "ru-812" })
    try await fixture.app.stage(
      file: fixture.writeBase("b3", regionB2.dropLast(5)), name: "ru-812", role: .region,
      region: "RU-812", priority: 40, version: 3)
    try Data(contentsOf: URL(fileURLWithPath: forged)).write(
      to: URL(fileURLWithPath: fixture.app.container + "/" + now.file))
    let direct = try fixture.system.reload(
      fixture.bundleID, incremental: true, runner: fixture.realExtension)
    #expect(!direct.succeeded && direct.detail.contains("installed"), "\(direct.detail)")
  }

  @Test func aFailedPhaseTwoLeavesNoFullSetRequestedAndTheStoreKept() async throws {
    let fixture = try await stagedFixture()
    _ = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    let seedOnly = try fixture.contents()
    // A region of the full set damaged: phase two fails.
    let region = try #require(try fixture.app.manifest().bases.first { $0.name == "ru-812" })
    let url = URL(fileURLWithPath: fixture.app.container + "/" + region.file)
    let original = try Data(contentsOf: url)
    var damaged = original
    damaged[damaged.count - 3] ^= 0x20
    try damaged.write(to: url)
    let failed = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(failed.count == 1 && !failed[0].succeeded)
    #expect(try fixture.app.manifest().fullSetRequested == false, "no full set is in")
    #expect(try fixture.contents() == seedOnly)
    // Repaired, the next sync is phase two again, and it goes in.
    try original.write(to: url)
    let retried = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(retried.count == 1 && retried[0].succeeded && !retried[0].incremental)
    #expect(try fixture.app.manifest().fullSetRequested)
    #expect(try fixture.contents().count > seedOnly.count)
  }
}
