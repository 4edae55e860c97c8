import CallDirectoryApp
import CallDirectoryHost
import Foundation
import HostTestSupport
import TestSupport
import Testing

/// A store after any sequence of updates equals a fresh install, table by table, not only
/// entry by entry (issue 52, item 4: an incremental update that removed 5% of the rows left
/// their `PhoneNumber` and `Label` rows behind, and the file grew with every update).
@Suite("The store after updates equals a fresh install")
struct StoreAfterUpdatesTests {
  /// `count` numbers of one region, every `removedEvery`th left out, and one in ten relabelled
  /// with a label of its own in `version`.
  func region(version: Int, removedEvery: Int?) -> [(Int64, String)] {
    (0..<4_000).compactMap { index -> (Int64, String)? in
      if let removedEvery, index % removedEvery == 0 { return nil }
      let number = 74_950_000_000 + Int64(index) * 3
      let label = version > 1 && index % 10 == 1 ? "Renamed \(index)" : "Label \(index % 700)"
      return (number, label)
    }
  }

  /// Stages the region's first version, chooses it and turns the extension on (phase one).
  func stageFirstRegionAndEnable(_ fixture: HostFixture) async throws {
    try await fixture.app.stage(
      file: fixture.writeBase("r-1", region(version: 1, removedEvery: nil)), name: "r",
      role: .region, region: "R", priority: 50, version: 1)
    try await fixture.app.choose(regions: ["R"])
    _ = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
  }

  @Test func updatesThatRemoveAndRelabelLeaveNoOrphanedRows() async throws {
    let fixture = try HostFixture()
    let blocking = regionEntries(first: 86_130_000_000, count: 500, label: "spam")
    try await fixture.app.stage(
      file: fixture.writeBase("spam1", kind: .blocking, blocking), name: "spam", role: .blocking,
      priority: 90, version: 1)
    try await stageFirstRegionAndEnable(fixture)
    _ = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    for (version, removedEvery) in [(2, 20), (3, 7)] {
      try await fixture.app.stage(
        file: fixture.writeBase(
          "r-\(version)", region(version: version, removedEvery: removedEvery)),
        name: "r", role: .region, region: "R", priority: 50, version: version)
      try await fixture.app.stage(
        file: fixture.writeBase(
          "spam\(version)", kind: .blocking, Array(blocking.dropFirst(version * 40))),
        name: "spam", role: .blocking, priority: 90, version: version)
      let results = try await fixture.app.sync(
        system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
      #expect(results.allSatisfy { $0.succeeded }, "\(results.map(\.detail))")
      #expect(results.contains { $0.incremental }, "the update went as an incremental request")
    }
    let updated = try fixture.system.store.tables()
    // The same container installed fresh, on a system of its own.
    let fresh = try SimulatedSystem(hostDirectory: fixture.folder.path("fresh-host"))
    let enabled = try fixture.app.enable(
      system: fresh, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(enabled.succeeded, "\(enabled.detail)")
    let installed = try fresh.store.tables()
    #expect(installed.identification.count == region(version: 3, removedEvery: 7).count)
    #expect(updated.identification == installed.identification)
    #expect(updated.blocking == installed.blocking)
    #expect(updated.labels == installed.labels, "no orphaned labels")
    #expect(updated.numbers == installed.numbers, "no orphaned numbers")
  }

  /// One call where there were three (issue 56, item 4): a sync after an update installs what
  /// the update brought, with no `requestFullSet()` between them, whether the extension holds
  /// only the seed set (first launch) or the full set already.
  @Test(arguments: [false, true])
  func aSyncAloneInstallsWhatAnUpdateBrought(syncedBefore: Bool) async throws {
    let fixture = try HostFixture()
    try await stageFirstRegionAndEnable(fixture)
    if syncedBefore {
      _ = try await fixture.app.sync(
        system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    }
    try await fixture.app.stage(
      file: fixture.writeBase("r-2", region(version: 2, removedEvery: 9)), name: "r",
      role: .region, region: "R", priority: 50, version: 2)
    let results = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(results.allSatisfy { $0.succeeded }, "\(results.map(\.detail))")
    let fresh = try SimulatedSystem(hostDirectory: fixture.folder.path("fresh-host"))
    _ = try fixture.app.enable(
      system: fresh, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    let installed = try fresh.store.tables()
    #expect(installed.identification.count == region(version: 2, removedEvery: 9).count)
    #expect(try fixture.system.store.tables().identification == installed.identification)
  }
}
