import BaseFormat
import CallDirectoryApp
import CallDirectoryCore
import CallDirectoryHost
import DirectoryContainer
import Foundation
import HostTestSupport
import TestSupport
import Testing

@Suite("Several extensions of one app")
struct SeveralExtensionsTests {
  @Test func lookupsFollowTheSystemsOrderAndOneExtensionsFailureLeavesTheOthers() async throws {
    let folder = try TemporaryFolder()
    let system = try SimulatedSystem(hostDirectory: folder.path("host"))
    let extensionPath = builtExecutablePath("calldir-extension")
    // Two extensions, each with its own container; 74950000000 is in both, labelled apart.
    var apps: [String: ContainerApp] = [:]
    for (bundleID, label, first) in [
      ("com.example.a", "A", Int64(74_950_000_000)), ("com.example.b", "B", 74_950_000_000),
    ] {
      let app = ContainerApp(container: folder.path(bundleID))
      let base = folder.path(bundleID + ".cdb")
      let writer = try BaseWriter(path: base, kind: .identification)
      for (number, text) in regionEntries(first: first, count: 200, label: label) {
        try writer.append(number, label: text)
      }
      try writer.finish()
      try await app.stage(file: base, name: "seed", role: .seed, priority: 1, version: 1)
      let enabled = try app.enable(system: system, bundleID: bundleID, executable: extensionPath)
      #expect(enabled.succeeded, "\(enabled.detail)")
      apps[bundleID] = app
    }
    try system.store.setPriority(2, of: "com.example.b")
    try system.store.setPriority(1, of: "com.example.a")
    #expect(
      try system.lookup(74_950_000_000) == .identified(label: "B 0", bundleID: "com.example.b"))
    try system.store.setPriority(3, of: "com.example.a")
    #expect(
      try system.lookup(74_950_000_000) == .identified(label: "A 0", bundleID: "com.example.a"))
    // A disabled extension is skipped.
    try system.disable("com.example.a")
    #expect(
      try system.lookup(74_950_000_000) == .identified(label: "B 0", bundleID: "com.example.b"))
    _ = try system.enable(
      "com.example.a",
      runner: .process(executable: extensionPath, container: apps["com.example.a"]!.container))
    // B's base is damaged: its reload fails, and neither extension's entries move.
    let before = try ["com.example.a", "com.example.b"].map { try system.store.contents(of: $0) }
    let damaged =
      apps["com.example.b"]!.container + "/" + (try apps["com.example.b"]!.manifest().bases[0].file)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: damaged))
    bytes[bytes.count - 5] ^= 0x40
    try bytes.write(to: URL(fileURLWithPath: damaged))
    let failed = try system.reload(
      "com.example.b", incremental: false,
      runner: .process(executable: extensionPath, container: apps["com.example.b"]!.container))
    #expect(!failed.succeeded)
    let after = try ["com.example.a", "com.example.b"].map { try system.store.contents(of: $0) }
    #expect(after.map { $0.0.map(\.0) } == before.map { $0.0.map(\.0) })
    #expect(after.map { $0.0.map(\.1) } == before.map { $0.0.map(\.1) })
    #expect(
      try system.lookup(74_950_000_003) == .identified(label: "A 1", bundleID: "com.example.a"))
  }
}

extension PastTheCapTests {
  @Test func fiveExtensionsSplitTheSetByNumberRangeEachUnderItsCap() async throws {
    let fixture = try await fixture(scope: .perExtension)
    let parts = try fixture.app.split(into: 5)
    var identification: [(Int64, String)] = []
    var blocking: [Int64] = []
    for (index, part) in parts.enumerated() {
      let bundleID = fixture.bundleID + ".\(index + 1)"
      let enabled = try part.enable(
        system: fixture.system, bundleID: bundleID, executable: fixture.extensionPath)
      #expect(enabled.succeeded, "part \(index + 1): \(enabled.detail)")
      let results = try await part.sync(
        system: fixture.system, bundleID: bundleID, executable: fixture.extensionPath)
      #expect(results.allSatisfy { $0.succeeded }, "part \(index + 1): \(results.map(\.detail))")
      let held = try fixture.system.store.contents(of: bundleID)
      #expect(held.identification.count + held.blocking.count <= Self.perLoad)
      identification += held.identification
      blocking += held.blocking
    }
    // Together the five hold the whole set once: no number in two parts, none left out.
    let union =
      identification.sorted { $0.0 < $1.0 }.map { "id \($0.0) \($0.1)" }
      + blocking.sorted().map { "block \($0)" }
    #expect(union == Self.ideal())
    // A lookup answers from the part whose range holds the number.
    let ranges = try parts.map { try #require(try $0.manifest().numberRange) }
    let number: Int64 = 78_120_000_300
    let owner = try #require(ranges.firstIndex { $0.contains(number) })
    #expect(
      try fixture.system.lookup(number)
        == .identified(label: "R3 0", bundleID: fixture.bundleID + ".\(owner + 1)"))
    // Splitting again keeps the ranges, and every part is up to date.
    let again = try fixture.app.split(into: 5)
    #expect(try again.map { try $0.manifest().numberRange } == ranges)
    for (index, part) in again.enumerated() {
      await #expect(
        try part.sync(
          system: fixture.system, bundleID: fixture.bundleID + ".\(index + 1)",
          executable: fixture.extensionPath
        ).isEmpty)
    }
  }
}

extension PastTheCapTests {
  /// An update of one region, and of a seed set that spans several parts but changes one
  /// number, reloads only the extensions whose part it changes: the others hold the same
  /// entries before and after, and take the new files as installed without a request (on a
  /// device, an extension launch each for nothing).
  @Test func anUpdatedRegionReloadsOnlyThePartsWhoseRangeItTouches() async throws {
    let fixture = try await fixture(scope: .perExtension)
    let parts = try fixture.app.split(into: 5)
    func bundleID(_ index: Int) async -> String { fixture.bundleID + ".\(index + 1)" }
    for (index, part) in parts.enumerated() {
      let enabled = try part.enable(
        system: fixture.system, bundleID: await bundleID(index), executable: fixture.extensionPath)
      #expect(enabled.succeeded, "part \(index + 1): \(enabled.detail)")
      await #expect(
        try part.sync(
          system: fixture.system, bundleID: bundleID(index), executable: fixture.extensionPath
        ).allSatisfy { $0.succeeded })
    }
    // R3, version 2: every other number dropped, every label changed.
    var sources = Self.sources
    let r3 = try #require(sources.firstIndex { $0.name == "r3" })
    let old = sources[r3].entries
    sources[r3].entries = old.enumerated().compactMap { index, entry in
      index % 2 == 0 ? (entry.0, "R3 v2 \(index)") : nil
    }
    try await fixture.app.stage(
      file: fixture.writeBase("r3-v2", kind: .identification, sources[r3].entries), name: "r3",
      role: .region, region: "R3", priority: 30, version: 2)
    // The seed set, version 2: its first label changed; the file spans several parts, but only
    // the part holding that number sees a change.
    let seed = try #require(sources.firstIndex { $0.name == "seed" })
    sources[seed].entries[0].1 = "Seed v2"
    try await fixture.app.stage(
      file: fixture.writeBase("seed-v2", kind: .identification, sources[seed].entries),
      name: "seed", role: .seed, priority: 100, version: 2)
    let again = try fixture.app.split(into: 5)
    let touched = old.first!.0...old.last!.0
    let seedSpan = sources[seed].entries.first!.0...sources[seed].entries.last!.0
    let seedChange = sources[seed].entries[0].0
    let ranges = try again.map { try #require(try $0.manifest().numberRange) }
    #expect(ranges.filter { $0.overlaps(seedSpan) }.count >= 2, "the seed set spans parts")
    var reloaded: [Int] = []
    for (index, part) in again.enumerated() {
      let range = ranges[index]
      let results = try await part.sync(
        system: fixture.system, bundleID: await bundleID(index), executable: fixture.extensionPath)
      #expect(results.allSatisfy { $0.succeeded && $0.incremental }, "\(results.map(\.detail))")
      if !results.isEmpty { reloaded.append(index) }
      let changed = range.overlaps(touched) || range.contains(seedChange)
      #expect(results.count == (changed ? 1 : 0), "part \(index + 1)")
      // Either way the part's manifest now holds the new files as installed.
      for name in ["r3", "seed"] {
        let base = try #require(try part.manifest().bases.first { $0.name == name })
        #expect(base.installedFile == base.file && base.state == .installed)
      }
    }
    #expect(!reloaded.isEmpty && reloaded.count < again.count, "reloaded \(reloaded)")
    var union: [String] = []
    var blocking: [String] = []
    for index in again.indices {
      let held = try await fixture.system.store.contents(of: bundleID(index))
      union += held.identification.map { "id \($0.0) \($0.1)" }
      blocking += held.blocking.map { "block \($0)" }
    }
    #expect(union + blocking == Self.ideal(of: sources))
    // Nothing left to do anywhere, and a later sync leaves every manifest as it is.
    for (index, part) in again.enumerated() {
      await #expect(
        try part.sync(
          system: fixture.system, bundleID: bundleID(index), executable: fixture.extensionPath
        ).isEmpty)
    }
  }
}
