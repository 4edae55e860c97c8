import BaseFormat
import CallDirectoryHost
import DirectoryContainer
import Foundation
import TestSupport
import Testing

/// A dataset profile with patterns (`fr-telemarketing`'s shape, issue 54): the generated
/// container holds the patterns as a rule base beside an explicit blocking list drawn from the
/// same plan, and an install gives the union, each number once.
@Suite("Dataset profiles with patterns")
struct PatternProfileTests {
  let calldir = builtExecutablePath("calldir")
  let bundleID = "com.example.profile-patterns"

  /// One pattern of 100,000 numbers where the FR plan draws (its subscribers start at 2).
  static let profile = """
    {
      "name": "fr-small", "entries": 3000, "kind": "identification", "plans": ["FR"],
      "labels": "latin", "seed": 7, "patterns": ["+33 1 62 2# ## ##"]
    }
    """

  @Test func aGeneratedContainerInstallsThePatternsAndItsListsOnce() throws {
    let folder = try TemporaryFolder()
    try Self.profile.write(toFile: folder.path("fr.json"), atomically: true, encoding: .utf8)
    let box = folder.path("box")
    let generated = try runProcess(
      calldir,
      [
        "generate", "--format", "container", "--profile", folder.path("fr.json"), "--out", box,
        "--blocking-entries", "20000", "--seed-entries", "100",
      ])
    #expect(generated.status == 0, "\(generated.stderr)")
    let manifest = try Manifest.read(container: box)
    let rules = try #require(manifest.bases.first { $0.name == "rules-blocking" })
    #expect(rules.entries == 100_000)
    let list = try #require(manifest.bases.first { $0.name == "blocking-spam" })
    var listed: Set<Int64> = []
    let reader = try BaseFile.reader(path: box + "/" + list.file)
    while let entry = try reader.next() { listed.insert(entry.number) }
    let range = Set(Int64(33_162_200_000)...Int64(33_162_299_999))
    // The list is French and overlaps the pattern: the merge has something to do.
    #expect(listed.count == 20_000)
    #expect(listed.allSatisfy { String($0).hasPrefix("33") && String($0).count == 11 })
    #expect(!listed.isDisjoint(with: range))

    let hostFlags = ["--container", box, "--host-dir", folder.path("host")]
    let enabled = try runProcess(calldir, ["host", "enable", bundleID] + hostFlags)
    #expect(enabled.status == 0, "\(enabled.stderr)")
    var synced = ""
    for _ in 0..<4 where !synced.contains("nothing pending") {
      let sync = try runProcess(calldir, ["app", "sync", bundleID] + hostFlags)
      #expect(sync.status == 0, "\(sync.stderr)")
      synced += sync.stdout
    }
    let tables = try CallDirectoryStore(
      path: folder.path("host") + "/" + SimulatedSystem.databaseFileName
    ).tables()
    let blocked = tables.blocking.compactMap { $0.split(separator: " ").last.flatMap { Int64($0) } }
    #expect(blocked.count == range.union(listed).count, "each number given once")
    #expect(Set(blocked) == range.union(listed))
  }

  @Test func aProfilesPatternsAreCheckedAsItLoads() throws {
    let folder = try TemporaryFolder()
    try Self.profile.replacingOccurrences(of: "2# ## ##", with: "2#\\t## ##")
      .write(toFile: folder.path("bad.json"), atomically: true, encoding: .utf8)
    let refused = try runProcess(
      calldir,
      [
        "generate", "--format", "container", "--profile", folder.path("bad.json"), "--out",
        folder.path("box"),
      ])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("patterns[0] must be one non-empty line without tabs"))
    #expect(!FileManager.default.fileExists(atPath: folder.path("box")))
  }
}
