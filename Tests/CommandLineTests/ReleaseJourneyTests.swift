import CallDirectoryHost
import Foundation
import ReleaseServer
import TestSupport
import Testing

/// The README's update journey as a user runs it, against real servers: compile → publish →
/// `app update --from URL` → `app sync`, into a new container and into a live one, with the
/// server killed mid-download ten times, then finished by a server that answers as a stock
/// static server (`python3 -m http.server`) does, a `Range` request with the whole file, 200,
/// or by one that honours `Range` (both `ReleaseServer`, in the tests' own process).
/// Every run ends with the system's store equal to a fresh install of the new version
/// (issue 39, items 2 and 3, and the closing note's journey).
@Suite("The update journey over HTTP, the server killed mid-download")
struct ReleaseJourneyTests {
  let calldir = builtExecutablePath("calldir")
  let bundle = "com.example.journey"

  /// Dumps of three regions and a spam list (some of whose numbers are labelled too), version 2
  /// relabelling every tenth entry; both compiled into `srv` and published to `R`; `ref` a
  /// fresh install of version 2 and `live` a container at version 1, each enabled and synced.
  func prepare(_ folder: TemporaryFolder) throws {
    for version in 1...2 {
      var text = "number\tlabel\tregion\tcategory\n"
      for index in 0..<9_000 {
        let label = "Фирма \(index % 70) v\(index % 10 == 0 ? version : 1)"
        text += "+7495\(1_000_000 + index * 7)\t\(label)\t\(["MOW", "SPE", "KZN"][index % 3])\t\n"
      }
      for index in stride(from: 0, to: 900, by: 3) {
        text += "+7495\(1_000_000 + index * 7)\t\t\tspam\n"
      }
      try text.write(toFile: folder.path("d\(version).tsv"), atomically: true, encoding: .utf8)
    }
    func run(_ arguments: [String]) throws {
      let run = try runProcess(calldir, arguments)
      #expect(run.status == 0, "\(arguments): \(run.stderr)")
    }
    for version in 1...2 {
      let dump = folder.path("d\(version).tsv")
      try run(["compile", dump, "--out", folder.path("srv"), "--seed-size", "500"])
      try run(["publish", folder.path("srv"), "--out", folder.path("R")])
      let box = version == 1 ? "live" : "ref"
      try run(["compile", dump, "--out", folder.path(box), "--seed-size", "500"])
      try install(folder, box, sync: true)
    }
  }

  /// `host enable` then `app sync` of `box` into its own host folder.
  func install(_ folder: TemporaryFolder, _ box: String, sync: Bool) throws {
    let system = ["--container", folder.path(box), "--host-dir", folder.path(box + "-host")]
    let enable = try runProcess(calldir, ["host", "enable", bundle] + system)
    #expect(enable.status == 0, "\(enable.stderr)")
    guard sync else { return }
    let synced = try runProcess(calldir, ["app", "sync", bundle] + system)
    #expect(synced.status == 0, "\(synced.stderr)")
  }

  /// What the system holds for `box`, read back from its SQLite store.
  func store(_ folder: TemporaryFolder, _ box: String) throws -> [String] {
    let (identification, blocking) = try CallDirectoryStore(
      path: folder.path(box + "-host") + "/" + SimulatedSystem.databaseFileName
    ).contents(of: bundle)
    return identification.map { "id \($0.0) \($0.1)" } + blocking.map { "block \($0)" }
  }

  func update(_ url: String, _ container: String) throws -> ProcessRun {
    try runProcess(
      calldir, ["app", "update", "--from", url, "--container", container, "--timeout", "20"])
  }

  @Test(arguments: [false, true])
  func tenKillsThenAServerThatIgnoresOrHonoursRange(honoursRange: Bool) throws {
    let folder = try TemporaryFolder()
    try prepare(folder)
    let reference = try store(folder, "ref")
    #expect(reference.count == 9_300, "9,000 identified and 300 blocked, 100 of them both")
    #expect(
      reference.contains("block 74951000000")
        && reference.contains { $0.hasPrefix("id 74951000000 ") })
    for container in ["new", "live"] {
      var killed = 0
      for round in 1...10 {
        let server = try ReleaseServer(folder: folder.path("R"), faults: .dying(after: 29 + round))
        let run = try update(server.url, folder.path(container))
        _ = server.stop()
        if run.status == 0 { break }
        killed += 1
        #expect(run.status == 1 && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
      }
      #expect(killed == 10, "\(container): every round cut a download")
      let finished: ProcessRun
      if honoursRange {
        let server = try ReleaseServer(folder: folder.path("R"))
        finished = try update(server.url, folder.path(container))
        let log = server.stop()
        #expect(log.contains(" 206"), "the parts were resumed with Range: \(log)")
      } else {
        let server = try ReleaseServer(folder: folder.path("R"), faults: .stock)
        #expect(server.port > 0)
        finished = try update(server.url, folder.path(container))
        server.stop()
      }
      #expect(finished.status == 0, "\(container): \(finished.stderr)")
      #expect(!FileManager.default.fileExists(atPath: folder.path(container + "/.downloads")))
      if container == "new" {
        try install(folder, container, sync: true)
      } else {
        let synced = try runProcess(
          calldir,
          [
            "app", "sync", bundle, "--container", folder.path("live"), "--host-dir",
            folder.path("live-host"),
          ])
        #expect(synced.status == 0, "\(synced.stderr)")
      }
      #expect(try store(folder, container) == reference, "\(container): a fresh install's store")
    }
  }

  @Test
  func aContentRangeFromElsewhereIsRefusedAndTheNextUpdateStartsOver() throws {
    let folder = try TemporaryFolder()
    try prepare(folder)
    let cut = try ReleaseServer(folder: folder.path("R"), faults: .dying(after: 200))
    #expect(try update(cut.url, folder.path("new")).status == 1)
    _ = cut.stop()
    let wrong = try ReleaseServer(folder: folder.path("R"), faults: .wrongRange)
    let refused = try update(wrong.url, folder.path("new"))
    _ = wrong.stop()
    #expect(refused.status == 1, "\(refused.stdout)")
    #expect(refused.stderr.contains("not from byte 200"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("new/manifest.cdm")))
    let stock = try ReleaseServer(folder: folder.path("R"), faults: .stock)
    let again = try update(stock.url, folder.path("new"))
    stock.stop()
    #expect(again.status == 0, "\(again.stderr)")
    try install(folder, "new", sync: true)
    #expect(try store(folder, "new") == store(folder, "ref"))
  }
}
