import CallDirectoryApp
import CallDirectoryHost
import DirectoryCompiler
import DirectoryContainer
import Foundation
import HostTestSupport
import TestSupport
import Testing

/// Containers the compiler writes with its defaults (compact bases) must load within the memory
/// limit however many regions they have. Each region here has a full label dictionary (the same
/// 1,100 labels of about 200 bytes, each used twice), so a reader that copied its dictionary
/// would hold about 280 KiB per base: 24 regions passed 5 MiB before the dictionary was mapped.
/// The total is the same for every number of regions, so only k changes; the 200-byte labels also
/// keep the channel's batch buffer honest (10,000 of them were a 2 MiB buffer).
@Suite("Compiled containers with many compact regions load in constant memory")
struct ManyCompactRegionsTests {
  static let labelsPerRegion = 1_100
  /// Entries in every container: each label used at least twice in each of up to 24 regions.
  static let totalEntries = 24 * 2 * labelsPerRegion
  /// A tight limit: the extension's footprint is about 1.1–1.7 MiB whatever the regions.
  static let tightLimit = 3 << 20

  /// A raw dump of `regions` regions; `changed` relabels every 7th entry of the first region.
  func writeDump(_ path: String, regions: Int, changed: Bool = false) throws {
    let padding = String(repeating: "Ж", count: 95)
    var text = "number\tlabel\tregion\trank\n"
    for region in 0..<regions {
      for index in 0..<(Self.totalEntries / regions) {
        let number = 79_000_000_000 + Int64(region) * 1_000_000 + Int64(index) * 3
        var label = "Организация \(index % Self.labelsPerRegion) \(padding)"
        if changed, region == 0, index % 7 == 0 { label = "Переехала \(index)" }
        text += "+\(number)\t\(label)\tR\(region)\t\(index)\n"
      }
    }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  func compile(_ dump: String, into container: String) throws {
    var options = CompileOptions(inputs: [(dump, .tsv)], output: container)
    options.seedSize = 100
    let report = try Compiler(options: options).run()
    #expect(report.rejectedCount == 0)
  }

  /// Phase one, phase two, then an incremental update (the first region recompiled and staged);
  /// returns the footprint peaks of the three requests.
  func loadAllPhases(regions: Int) async throws -> [Int] {
    let fixture = try HostFixture()
    fixture.system.limits.memoryLimitBytes = Self.tightLimit
    let dump = fixture.folder.path("dump.tsv")
    try writeDump(dump, regions: regions)
    try compile(dump, into: fixture.app.container)
    let seed = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(seed.succeeded, "\(seed.detail)")
    let full = try await #require(
      try fixture.app.sync(
        system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath
      ).first)
    #expect(full.succeeded, "phase two over \(regions) compact regions: \(full.detail)")
    #expect(full.entries == Self.totalEntries)

    try writeDump(dump, regions: regions, changed: true)
    let recompiled = fixture.folder.path("recompiled")
    try compile(dump, into: recompiled)
    try await fixture.app.stage(
      file: recompiled + "/"
        + (try #require(
          try Manifest.read(container: recompiled).bases.first { $0.name == "region-R0" })).file,
      name: "region-R0", role: .region,
      region: "R0", priority: 50, version: 2)
    let update = try await #require(
      try fixture.app.sync(
        system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath
      ).first)
    #expect(update.succeeded, "incremental over \(regions) compact regions: \(update.detail)")
    #expect(update.incremental)
    #expect(
      try fixture.system.lookup(79_000_000_000)
        == .identified(label: "Переехала 0", bundleID: fixture.bundleID))
    return [seed, full, update].map(\.footprintPeakBytes)
  }

  @Test func manyCompactRegionsLoadUnderATightLimitAndTheFootprintIsFlat() async throws {
    let few = try await loadAllPhases(regions: 3)
    let many = try await loadAllPhases(regions: 24)
    for (phase, (small, large)) in zip(["seed", "full", "incremental"], zip(few, many)) {
      #expect(large <= Self.tightLimit, "\(phase): \(large) bytes")
      #expect(
        large - small <= 256 * 1024,
        "\(phase): footprint \(small) bytes with 3 regions, \(large) with 24: not flat")
    }
  }
}
