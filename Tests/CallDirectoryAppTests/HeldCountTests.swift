import CallDirectoryApp
import CallDirectoryHost
import DirectoryContainer
import HostTestSupport
import Testing

/// What the app records as installed is what the store holds, when a number is in two bases
/// (the seed set inside its regions): issue 25, finding 8 ("the top 1100000 of 1100000" while
/// the store held 1,000,000).
@Suite("The installed count is the store's")
struct HeldCountTests {
  /// The manifest's installed and total counts.
  func recorded(_ fixture: HostFixture) throws -> [Int?] {
    let progress = try Manifest.read(container: fixture.app.container).installProgress
    return [progress.installedEntries, progress.totalEntries]
  }

  func held(_ fixture: HostFixture) throws -> Int {
    let counts = try fixture.system.store.counts(of: fixture.bundleID)
    return counts.identification + counts.blocking
  }

  @Test func everyRequestRecordsWhatTheStoreHolds() async throws {
    let fixture = try HostFixture()
    let region = regionEntries(first: 74_950_000_000, count: 2_000, step: 5, label: "Москва")
    // The seed set: every tenth of the region's numbers, so all of it is counted twice by the
    // manifest's entries.
    let seed = region.enumerated().filter { $0.offset % 10 == 0 }.map(\.element)
    try await fixture.app.stage(
      file: fixture.writeBase("seed", seed), name: "seed", role: .seed, priority: 100, version: 1)
    try await fixture.app.stage(
      file: fixture.writeBase("region", region), name: "ru-495", role: .region, region: "RU-495",
      priority: 50, version: 1)
    try await fixture.app.stage(
      file: fixture.writeBase(
        "spam", kind: .blocking, regionEntries(first: 86_130_000_000, count: 300, label: "spam")),
      name: "spam", role: .blocking, priority: 90, version: 1)
    try await fixture.app.choose(regions: ["RU-495"])
    let run = (
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath
    )

    #expect(try fixture.app.enable(system: run.0, bundleID: run.1, executable: run.2).succeeded)
    // Phase two, a complete load of the union.
    let full = try await fixture.app.sync(system: run.0, bundleID: run.1, executable: run.2)
    #expect(full.allSatisfy { $0.succeeded }, "\(full.map(\.detail))")
    #expect(try held(fixture) == 2_300)
    #expect(try recorded(fixture) == [2_300, 2_300])

    // An incremental update: a new version of the region, a third of it gone.
    let smaller = region.enumerated().filter { $0.offset % 3 != 0 }.map(\.element)
    try await fixture.app.stage(
      file: fixture.writeBase("region-2", smaller), name: "ru-495", role: .region,
      region: "RU-495", priority: 50, version: 2)
    let update = try await fixture.app.sync(system: run.0, bundleID: run.1, executable: run.2)
    #expect(update.count == 1 && update[0].incremental && update[0].succeeded)
    let expected = try held(fixture)
    #expect(expected == Set(smaller.map(\.0)).union(seed.map(\.0)).count + 300)
    #expect(try recorded(fixture) == [expected, expected])

    // A reload with nothing changed (the path that sends nothing) keeps the count.
    let again = try fixture.system.reload(
      fixture.bundleID, incremental: true, runner: fixture.realExtension)
    #expect(again.succeeded, "\(again.detail)")
    try fixture.app.recordRequest(succeeded: true)
    #expect(try recorded(fixture) == [expected, expected])
  }
}
