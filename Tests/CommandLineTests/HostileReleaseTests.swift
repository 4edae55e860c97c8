import DirectoryContainer
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Releases that lie, and folders that trap: each is refused with one line, the container is
/// left byte-identical, and an honest update afterwards still works (issue 39, items 4–7, 11
/// and 12).
@Suite("Hostile releases: refused in one line, the container left usable")
struct HostileReleaseTests {
  let calldir = builtExecutablePath("calldir")

  /// A release `R` of one version (three regions and a spam list) from `srv`, and `app`, a
  /// container at that version.
  /// - Returns: the publish's run.
  @discardableResult
  func release(
    _ folder: TemporaryFolder, entries: Int = 3_000, version: Int = 1, allowShrink: Bool = false
  ) throws -> ProcessRun {
    var text = "number\tlabel\tregion\tcategory\n"
    for index in 0..<entries {
      text +=
        "+7495\(1_000_000 + index * 7)\tФирма \(index % 70) v\(index % 10 == 0 ? version : 1)\t\(["MOW", "SPE", "KZN"][index % 3])\t\n"
    }
    for index in stride(from: 0, to: entries / 10, by: 3) {
      text += "+7495\(1_000_000 + index * 7)\t\t\tspam\n"
    }
    try text.write(toFile: folder.path("d\(version).tsv"), atomically: true, encoding: .utf8)
    #expect(
      try runProcess(
        calldir,
        [
          "compile", folder.path("d\(version).tsv"), "--out", folder.path("srv"), "--seed-size",
          "0",
        ]
          + (allowShrink ? ["--allow-shrink"] : [])
      ).status == 0)
    let publish = try runProcess(
      calldir, ["publish", folder.path("srv"), "--out", folder.path("R")])
    if version == 1 {
      #expect(publish.status == 0, "\(publish.stderr)")
      #expect(try update(folder.path("R"), folder.path("app")).status == 0)
    }
    return publish
  }

  func update(_ from: String, _ container: String, _ extra: [String] = []) throws -> ProcessRun {
    try runProcess(
      calldir,
      ["app", "update", "--from", from, "--container", container, "--timeout", "5"] + extra)
  }

  /// The index as JSON objects, changed by `body` and written back.
  func editIndex(_ folder: TemporaryFolder, _ body: (inout [String: Any]) -> Void) throws {
    let path = folder.path("R/index.json")
    var index =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
      as! [String: Any]
    body(&index)
    try JSONSerialization.data(withJSONObject: index).write(to: URL(fileURLWithPath: path))
  }

  /// The newest version's bases in an index being edited.
  func editLatestBases(_ index: inout [String: Any], _ body: (inout [[String: Any]]) -> Void) {
    var versions = index["versions"] as! [[String: Any]]
    var bases = versions[versions.count - 1]["bases"] as! [[String: Any]]
    body(&bases)
    versions[versions.count - 1]["bases"] = bases
    index["versions"] = versions
  }

  static let hostileIndexes: [(String, String)] = [
    ("tab", "must be letters"), ("newline", "must be letters"), ("nul", "must be letters"),
    ("duplicate", "two bases named"), ("huge", "out of range"),
  ]

  @Test(arguments: hostileIndexes)
  func aHostileIndexIsRefusedAndTheContainerStaysUpdatable(kind: String, message: String) throws {
    let folder = try TemporaryFolder()
    try release(folder)
    #expect(try release(folder, version: 2).status == 0)
    let honest = try Data(contentsOf: URL(fileURLWithPath: folder.path("R/index.json")))
    try editIndex(folder) { index in
      editLatestBases(&index) { bases in
        switch kind {
        case "tab": bases[1]["name"] = "region\tMOW"
        case "newline": bases[1]["name"] = "region\nMOW"
        case "nul": bases[1]["name"] = "region\u{0}MOW"
        case "duplicate": bases.append(bases[1])
        default: bases[1]["bytes"] = 1 << 40
        }
      }
    }
    let before = try folderSnapshot(folder.path("app"))
    let run = try update(folder.path("R"), folder.path("app"))
    #expect(run.status == 1, "\(kind): \(run.stdout)")
    #expect(run.stderr.contains(message), "\(kind): \(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    #expect(try folderSnapshot(folder.path("app")) == before, "\(kind): byte-identical")
    try honest.write(to: URL(fileURLWithPath: folder.path("R/index.json")))
    let again = try update(folder.path("R"), folder.path("app"))
    #expect(again.status == 0 && again.stdout.contains("version 2"), "\(kind): \(again.stderr)")
  }

  /// An update into a new container chooses every region, as compile does; into an existing
  /// one it keeps the user's choice (issue 39, item 2).
  @Test func anUpdateChoosesEveryRegionInANewContainerAndKeepsTheUsersChoice() throws {
    let folder = try TemporaryFolder()
    try release(folder)
    let fresh = try Manifest.read(container: folder.path("app"))
    #expect(fresh.chosenRegions.sorted() == ["KZN", "MOW", "SPE"])
    let choose = try runProcess(
      calldir, ["app", "choose", "MOW", "--container", folder.path("app")])
    #expect(choose.status == 0, "\(choose.stderr)")
    #expect(try release(folder, version: 2).status == 0)
    let updated = try update(folder.path("R"), folder.path("app"))
    #expect(updated.status == 0 && updated.stdout.contains("version 2"), "\(updated.stderr)")
    let kept = try Manifest.read(container: folder.path("app"))
    #expect(kept.chosenRegions == ["MOW"])
  }

  /// A version with no bases (or under half the entries) is refused by publish and by update,
  /// exit 5, unless --allow-shrink.
  @Test func aShrinkingReleaseIsRefusedByPublishAndByUpdate() throws {
    let folder = try TemporaryFolder()
    try release(folder)
    // publish: a compile of a tenth of the entries, allowed into srv, refused into R.
    let indexBefore = try Data(contentsOf: URL(fileURLWithPath: folder.path("R/index.json")))
    let refused = try release(folder, entries: 300, version: 2, allowShrink: true)
    #expect(refused.status == 5 && refused.stderr.contains("--allow-shrink"), "\(refused.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("R/index.json"))) == indexBefore)
    // update: an index whose newest version has no bases.
    try editIndex(folder) { index in editLatestBases(&index) { $0 = [] } }
    let before = try folderSnapshot(folder.path("app"))
    let run = try update(folder.path("R"), folder.path("app"))
    #expect(run.status == 5 && run.stderr.contains("would leave no entries"), "\(run.stderr)")
    #expect(try folderSnapshot(folder.path("app")) == before)
    let allowed = try update(folder.path("R"), folder.path("app"), ["--allow-shrink"])
    #expect(allowed.status == 0, "\(allowed.stderr)")
    // A container with a manifest and no bases publishes nothing.
    try FileManager.default.createDirectory(
      atPath: folder.path("empty"), withIntermediateDirectories: true)
    try Manifest().write(container: folder.path("empty"))
    let none = try runProcess(
      calldir, ["publish", folder.path("empty"), "--out", folder.path("R2")])
    #expect(none.status == 1 && none.stderr.contains("no bases"), "\(none.stderr)")
  }

  /// An old base changed after it was published (v1's file copied over v2's), or gone:
  /// publish makes no patch from it, and clients at v2 fetch the changed bases whole.
  @Test(arguments: ["changed", "missing"])
  func publishTrustsNoOldFileItCannotHash(damage: String) throws {
    let folder = try TemporaryFolder()
    try release(folder)
    let v1 = try Manifest.read(container: folder.path("srv"))
    #expect(try release(folder, version: 2).status == 0)
    #expect(try update(folder.path("R"), folder.path("app")).status == 0)
    let v2 = try Manifest.read(container: folder.path("srv"))
    var damaged = 0
    for new in v2.bases {
      guard let old = v1.bases.first(where: { $0.name == new.name }), old.sha256 != new.sha256
      else { continue }
      let path = folder.path("R/bases/\(new.name).\(new.sha256.prefix(16)).cdb")
      try FileManager.default.removeItem(atPath: path)
      if damage == "changed" {
        try FileManager.default.copyItem(
          atPath: folder.path("R/bases/\(old.name).\(old.sha256.prefix(16)).cdb"), toPath: path)
      }
      damaged += 1
    }
    #expect(damaged > 0)
    let publish = try release(folder, version: 3)
    #expect(publish.status == 0, "\(publish.stderr)")
    #expect(publish.stderr.contains("no patch made from it"), "\(publish.stderr)")
    let run = try update(folder.path("R"), folder.path("app"))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("version 3: 0 patched, \(damaged) fetched whole"), "\(run.stdout)")
  }

  /// A manifest without sizes: publish measures each file, and the version installs from
  /// scratch.
  @Test func publishMeasuresFilesAManifestGivesNoSizeFor() throws {
    let folder = try TemporaryFolder()
    try release(folder)
    try FileManager.default.removeItem(atPath: folder.path("R"))
    var manifest = try Manifest.read(container: folder.path("srv"))
    for index in manifest.bases.indices { manifest.bases[index].byteCount = nil }
    try manifest.write(container: folder.path("srv"))
    let publish = try runProcess(
      calldir, ["publish", folder.path("srv"), "--out", folder.path("R")])
    #expect(publish.status == 0, "\(publish.stderr)")
    let text = try String(contentsOfFile: folder.path("R/index.json"), encoding: .utf8)
    #expect(!text.contains("\"bytes\":0"), "\(text)")
    let fresh = try update(folder.path("R"), folder.path("fresh"))
    #expect(fresh.status == 0, "\(fresh.stderr)")
  }

  @Test(arguments: [
    ["publish", "SRV", "--out", "R", "--keep", "9223372036854775807"],
    ["app", "update", "--from", "R", "--container", "app", "--timeout", "inf"],
    ["app", "update", "--from", "R", "--container", "app", "--timeout", "1e308"],
    ["app", "update", "--from", "R", "--container", "app", "--timeout", "nan"],
  ])
  func valuesThatTrappedAreUsageErrors(arguments: [String]) throws {
    let folder = try TemporaryFolder()
    let run = try runProcess(
      calldir, arguments.map { $0 == "SRV" ? folder.path("srv") : $0 }, directory: folder.url)
    #expect(run.status == 1, "\(arguments): \(run.stderr)")
    #expect(run.stderr.hasPrefix("calldir: ") && run.stderr.split(separator: "\n").count == 1)
  }

  /// A FIFO as the index or as a base: refused at once, not waited on.
  @Test(arguments: ["index.json", "base"])
  func aFIFOInAFolderReleaseIsRefused(what: String) throws {
    let folder = try TemporaryFolder()
    try release(folder)
    try release(folder, version: 2)
    let path: String
    if what == "index.json" {
      path = folder.path("R/index.json")
    } else {
      let index = try String(contentsOfFile: folder.path("R/index.json"), encoding: .utf8)
      let file = try #require(
        index.components(separatedBy: "\"file\":\"").dropFirst().map {
          String($0.prefix { $0 != "\"" })
        }.last { $0.hasPrefix("bases/region") })
      path = folder.path("R/" + file)
      // No patch to take instead: the base must be fetched whole.
      try FileManager.default.removeItem(atPath: folder.path("R/patches"))
    }
    try FileManager.default.removeItem(atPath: path)
    #expect(mkfifo(path, 0o644) == 0)
    let run = try update(folder.path("R"), folder.path("new"))
    #expect(run.status == 1 && run.stderr.contains("not a regular file"), "\(run.stderr)")
  }
}
