import Foundation
import TestSupport
import Testing

/// Several extensions by number range, as a user drives them: compile, `app sync --extensions`,
/// `host enable` each part, sync, `app status`, recompile one region, sync again.
@Suite("app sync --extensions and app status, on the command line")
struct SplitSyncCommandTests {
  let calldir = builtExecutablePath("calldir")

  /// A dump of two regions, Moscow (7-495) and St Petersburg (7-812), 200 numbers each; the
  /// rank makes a seed set of both. `changed` relabels Moscow's numbers.
  func writeDump(_ path: String, changed: Bool = false) throws {
    var text = "number\tlabel\tregion\trank\n"
    for index in 0..<200 {
      text +=
        "+7495\(1_000_000 + index * 37)\tMoscow \(index)\(changed ? " v2" : "")\t7-495\t\(index)\n"
      text += "+7812\(1_000_000 + index * 37)\tPiter \(index)\t7-812\t\(index)\n"
    }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  @Test func eachPartIsSyncedAndShownAndAnUpdateReloadsOnlyThePartItChanges() throws {
    let folder = try TemporaryFolder()
    let (dump, box) = (folder.path("dump.tsv"), folder.path("box"))
    let host = ["--host-dir", folder.path("host")]
    func run(_ arguments: [String]) throws -> ProcessRun {
      try runProcess(calldir, arguments)
    }
    try writeDump(dump)
    let compile = ["compile", dump, "--out", box, "--country", "RU", "--seed-size", "50"]
    #expect(try run(compile).status == 0)
    let sync = ["app", "sync", "com.example.split", "--container", box, "--extensions", "2"] + host

    // Not turned on yet: each part says how, and the sync fails.
    let first = try run(sync)
    #expect(first.status != 0)
    #expect(first.stdout.contains("calldir host enable com.example.split.2 --container "))
    for index in 1...2 {
      let enable = try run(
        ["host", "enable", "com.example.split.\(index)", "--container", box + "/parts/\(index)"]
          + host)
      #expect(enable.status == 0, "\(enable.stderr)")
    }
    let synced = try run(sync)
    #expect(synced.status == 0, "\(synced.stderr)")
    #expect(synced.stdout.components(separatedBy: "entries installed").count == 3)

    let status = try run(["app", "status", "com.example.split", "--container", box] + host)
    #expect(status.status == 0, "\(status.stderr)")
    #expect(status.stdout.contains("split by number range across 2 extensions:"))
    for index in 1...2 {
      #expect(status.stdout.contains("part \(index): numbers "))
      #expect(status.stdout.contains("com.example.split.\(index): enabled"))
    }
    #expect(status.stdout.components(separatedBy: "nothing pending").count == 3)

    // Moscow relabelled: its part (and the seed set's Moscow numbers) changes; St Petersburg's
    // part holds the same entries and is not reloaded.
    try writeDump(dump, changed: true)
    #expect(try run(compile).status == 0)
    let update = try run(sync)
    #expect(update.status == 0, "\(update.stderr)")
    #expect(
      update.stdout.contains(
        "sync com.example.split.1: 400 entries changed incrementally (200 added, 200 removed)"))
    #expect(update.stdout.contains("com.example.split.2: nothing to do"))
    // Part 2 says why: the new region and seed files hold nothing new for its numbers.
    #expect(
      update.stdout.contains(
        "com.example.split.2: 2 changed bases hold nothing new for this part's numbers: taken as installed without a request"
      ), "\(update.stdout)")
    #expect(!update.stdout.contains("com.example.split.1: 1 changed"))
    let lookup = try run(["host", "lookup", "74951000000"] + host)
    #expect(lookup.stdout.contains("Moscow 0 v2"), "\(lookup.stdout)")
  }
}
