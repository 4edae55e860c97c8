import CallDirectoryHost
import Foundation
import TestSupport
import Testing

/// The export against a Call Directory install of the same container, through the real
/// processes: every entry the simulated system holds after `host enable` and `app sync` has a
/// block row with the same number, whose byte is its blocking-list membership, and every
/// identified one an identity row whose name is its label; nothing else is exported (but the
/// onboarding identity).
@Suite("The Live Caller ID Lookup export holds what an install holds")
struct LiveLookupPropertyTests {
  let calldir = builtExecutablePath("calldir")
  let bundle = "com.example.directory"

  /// Installs `box` in its own simulated system, exports it, and compares; returns how many
  /// numbers were compared.
  func compare(_ folder: TemporaryFolder, box: String) throws -> Int {
    let system = ["--container", box, "--host-dir", box + "-host"]
    let enable = try runProcess(calldir, ["host", "enable", bundle] + system)
    #expect(enable.status == 0, "\(enable.stderr)")
    let sync = try runProcess(calldir, ["app", "sync", bundle] + system)
    #expect(sync.status == 0, "\(sync.stderr)")
    let (identification, blocking) = try CallDirectoryStore(
      path: box + "-host/" + SimulatedSystem.databaseFileName
    ).contents(of: bundle)
    let out = box + "-lcidl"
    let export = try runProcess(
      calldir, ["export", "lcidl", "--container", box, "--out", out, "--bundle-id", "net.example"])
    #expect(export.status == 0, "\(export.stderr)")
    let blockRows = try KeywordDatabaseReader.rows(of: out + "/block.binpb")
    let identityRows = try KeywordDatabaseReader.rows(of: out + "/identity.binpb")
    let test = "+14085551212"
    var blockByNumber: [String: [UInt8]] = [:]
    for row in blockRows { blockByNumber[row.keyword] = row.value }
    var nameByNumber: [String: String] = [:]
    for row in identityRows {
      nameByNumber[row.keyword] = try KeywordDatabaseReader.name(in: row.value)
    }
    let blocked = Set(blocking.map { "+\($0)" })
    let labels = Dictionary(
      identification.map { ("+\($0.0)", $0.1) }, uniquingKeysWith: { a, _ in a })
    let installed = blocked.union(labels.keys)
    #expect(
      Set(blockByNumber.keys).subtracting([test]) == installed,
      "block rows are the install's numbers")
    var mismatches = 0
    for number in installed {
      if blockByNumber[number] != [blocked.contains(number) ? 1 : 0] { mismatches += 1 }
      if labels[number] != nameByNumber[number] { mismatches += 1 }
    }
    #expect(mismatches == 0, "\(mismatches) rows differ from the install")
    #expect(Set(nameByNumber.keys).subtracting([test]) == Set(labels.keys))
    #expect(nameByNumber[test] == labels[test] ?? "Johnny Appleseed")
    return installed.count
  }

  @Test(arguments: [
    "ci-smoke", "regional-2m", "directory-4m", "seed-100k", "spam-1m", "blocking-1m",
  ])
  func everyProfilesGeneratedContainer(profile: String) throws {
    let folder = try TemporaryFolder()
    let box = folder.path("box")
    let generate = try runProcess(
      calldir,
      [
        "generate", "--profile", profile, "--entries", "4000", "--format", "container", "--out",
        box,
        "--cache", folder.path("cache"),
      ])
    #expect(generate.status == 0, "\(generate.stderr)")
    #expect(try compare(folder, box: box) > 0)
  }

  @Test func theSamplesCompiled() throws {
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Datasets/samples").standardized.path
    let folder = try TemporaryFolder()
    let box = folder.path("box")
    let compile = try runProcess(
      calldir,
      [
        "compile", samples + "/sample.tsv", samples + "/sample.csv:US", samples + "/russian.txt",
        "--out", box, "--country", "RU",
      ])
    #expect(compile.status == 0, "\(compile.stderr)")
    #expect(try compare(folder, box: box) >= 5)
  }
}
