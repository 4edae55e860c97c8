import CallDirectoryApp
import CallDirectoryHost
import DirectoryContainer
import Foundation
import HostTestSupport
import Testing

/// The manifest is believed only as far as its files bear it out (issue 25, finding 7): the cap
/// plan is made from its entry counts, and bases are found by name.
@Suite("A manifest's facts checked against its files")
struct ManifestFactsTests {
  /// A container with a seed and one region, staged and chosen.
  func stagedFixture() async throws -> HostFixture {
    let fixture = try HostFixture()
    try await fixture.app.stage(
      file: fixture.writeBase("seed", regionEntries(first: 74_950_000_000, count: 50, label: "S")),
      name: "seed", role: .seed, priority: 100, version: 1)
    try await fixture.app.stage(
      file: fixture.writeBase("a", regionEntries(first: 78_120_000_000, count: 300, label: "A")),
      name: "ru-812", role: .region, region: "RU-812", priority: 40, version: 1)
    try await fixture.app.choose(regions: ["RU-812"])
    return fixture
  }

  /// Rewrites one base's manifest line through `edit`.
  func editBase(_ fixture: HostFixture, named name: String, _ edit: (inout Manifest.Base) -> Void)
    throws
  {
    var manifest = try Manifest.read(container: fixture.app.container)
    let index = try #require(manifest.bases.firstIndex { $0.name == name })
    edit(&manifest.bases[index])
    try manifest.write(container: fixture.app.container)
  }

  @Test(arguments: [("entries", -1), ("entries", 1), ("bytes", -1), ("bytes", 7)])
  func aWrongCountFailsTheLoadAndTheStoreKeepsWhatItHad(field: String, change: Int) async throws {
    let fixture = try await stagedFixture()
    let first = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(first.succeeded, "\(first.detail)")
    let before = try fixture.contents()
    try fixture.app.requestFullSet()
    try editBase(fixture, named: "ru-812") { base in
      if field == "entries" { base.entries += change } else { base.byteCount! += change }
    }
    let results = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    let failure = try #require(results.last)
    #expect(!failure.succeeded)
    #expect(
      failure.detail.contains("base ru-812: the manifest says")
        && failure.detail.contains(field), "\(failure.detail)")
    #expect(try fixture.contents() == before, "the seed set stays")
  }

  @Test func theSeedSetsWrongCountFailsEnabling() async throws {
    let fixture = try await stagedFixture()
    try editBase(fixture, named: "seed") { $0.entries = 0 }
    let result = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(!result.succeeded)
    #expect(result.detail.contains("the manifest says 0 entries, the file holds 50"))
    #expect(try fixture.contents().isEmpty)
  }

  @Test func aSecondBaseOfTheSameNameIsRefusedWithItsLine() async throws {
    let fixture = try await stagedFixture()
    let path = fixture.app.container + "/" + Manifest.fileName
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let seedLine = try #require(text.split(separator: "\n").first { $0.hasPrefix("base\tseed\t") })
    let lineCount = text.split(separator: "\n").count
    try (text + seedLine + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    #expect(
      throws: ManifestError(
        line: lineCount + 1, problem: "\(path): a second base named 'seed'")
    ) {
      try Manifest.read(container: fixture.app.container)
    }
  }
}
