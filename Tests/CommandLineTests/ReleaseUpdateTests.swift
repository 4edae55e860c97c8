import DirectoryContainer
import FaultInjection
import Foundation
import ReleaseServer
import SystemCalls
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A release published, then fetched by an app: over a folder and over a real HTTP server on
/// loopback (URLSession against `ReleaseServer`, in the tests' own process, which speaks `Range` and
/// injects faults). The app never stages a wrong base, and what it stages is byte for byte what
/// was published (issue 27, items 1, 4 and 5).
@Suite("Releases: publish, then update from a folder or over HTTP, faults refused")
struct ReleaseUpdateTests {
  let calldir = builtExecutablePath("calldir")

  /// A release of two versions (one region relabelled in the second) in `folder`: `R` the
  /// release, `app` the app's container at version 1, `box` the compiler's at version 2.
  func twoVersions(_ folder: TemporaryFolder) throws {
    let first = folder.path("d1.tsv")
    #expect(
      try runProcess(
        calldir,
        [
          "generate", "--profile", "directory-4m", "--entries", "30000", "--format", "tsv", "--out",
          first,
        ]
      ).status == 0)
    var lines = try String(contentsOfFile: first, encoding: .utf8).split(separator: "\n").map(
      String.init)
    let region = try #require(lines.dropFirst().first?.split(separator: "\t")[2])
    var relabelled = 0
    for index in lines.indices.dropFirst() where relabelled < 200 {
      var fields = lines[index].split(separator: "\t", omittingEmptySubsequences: false).map(
        String.init)
      guard fields[2] == region, Int(fields[3]) ?? 0 < 50_000 else { continue }
      fields[1] = "Новое имя \(relabelled % 5)"
      lines[index] = fields.joined(separator: "\t")
      relabelled += 1
    }
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: folder.path("d2.tsv"), atomically: true, encoding: .utf8)
    for (dump, step) in [("d1.tsv", 1), ("d2.tsv", 2)] {
      let compile = try runProcess(
        calldir, ["compile", folder.path(dump), "--out", folder.path("box")])
      #expect(compile.status == 0, "\(compile.stderr)")
      let publish = try runProcess(
        calldir, ["publish", folder.path("box"), "--out", folder.path("R")])
      #expect(
        publish.status == 0 && publish.stdout.contains("version \(step)"), "\(publish.stderr)")
      if step == 1 {
        try FileManager.default.copyItem(atPath: folder.path("box"), toPath: folder.path("app"))
      }
    }
  }

  /// The container's bases as the manifest names them: name → bytes.
  func bases(_ container: String) throws -> [String: Data] {
    let manifest = try Manifest.read(container: container)
    var bases: [String: Data] = [:]
    for base in manifest.bases where base.state != .retired {
      bases[base.name] = try Data(contentsOf: URL(fileURLWithPath: container + "/" + base.file))
    }
    return bases
  }

  /// The container's files except the downloads waiting to resume.
  func containerFiles(_ container: String) throws -> [String: Data] {
    try folderSnapshot(container).filter { !$0.key.hasPrefix(".downloads") }
  }

  func update(_ from: String, _ container: String, timeout: Double = 30) throws -> ProcessRun {
    try runProcess(
      calldir,
      ["app", "update", "--from", from, "--container", container, "--timeout", String(timeout)])
  }

  @Test func anUpdateFromAFolderPatchesOnlyWhatChangedAndMatchesTheRelease() throws {
    let folder = try TemporaryFolder()
    try twoVersions(folder)
    let index = try String(contentsOfFile: folder.path("R/index.json"), encoding: .utf8)
    #expect(index.contains("\"version\":2") && index.contains("\"patches\":[{"))
    try FileManager.default.copyItem(atPath: folder.path("app"), toPath: folder.path("quiet"))
    let run = try update(folder.path("R"), folder.path("app"))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("version 2: 2 patched, 0 fetched whole"), "\(run.stdout)")
    #expect(run.stdout.split(separator: "\n").count == 3, "a line per base patched, the summary")
    #expect(try bases(folder.path("app")) == bases(folder.path("box")), "byte for byte the release")
    // --quiet: the summary alone, the same bases.
    let quiet = try runProcess(
      calldir,
      ["app", "update", "--from", folder.path("R"), "--container", folder.path("quiet"), "--quiet"])
    #expect(quiet.status == 0, "\(quiet.stderr)")
    #expect(quiet.stdout.split(separator: "\n") == [run.stdout.split(separator: "\n").last!])
    #expect(quiet.stderr.isEmpty)
    #expect(try bases(folder.path("quiet")) == bases(folder.path("box")))
    let again = try update(folder.path("R"), folder.path("app"))
    #expect(again.stdout.contains("0 patched, 0 fetched whole"), "\(again.stdout)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("app/.downloads")))
  }

  @Test func anIndexNamingAMissingFileOrABadCopyIsRefusedAndTheContainerKept() throws {
    let folder = try TemporaryFolder()
    try twoVersions(folder)
    let before = try containerFiles(folder.path("app"))
    let patches = try FileManager.default.contentsOfDirectory(atPath: folder.path("R/patches"))
    let patch = folder.path("R/patches/" + patches.sorted()[0])
    let saved = try Data(contentsOf: URL(fileURLWithPath: patch))
    try FileManager.default.removeItem(atPath: patch)
    let missing = try update(folder.path("R"), folder.path("app"))
    #expect(missing.status == 1 && missing.stderr.contains("cannot fetch"), "\(missing.stderr)")
    #expect(try containerFiles(folder.path("app")) == before)
    var corrupt = saved
    corrupt[corrupt.count / 2] ^= 0x40
    try corrupt.write(to: URL(fileURLWithPath: patch))
    let wrong = try update(folder.path("R"), folder.path("app"))
    #expect(
      wrong.status == 1 && wrong.stderr.contains("SHA-256 is not the index's"), "\(wrong.stderr)")
    #expect(wrong.stderr.split(separator: "\n").count == 1)
    #expect(try containerFiles(folder.path("app")) == before)
  }

  /// An update check over HTTP asks "changed since?" with the index's ETag: a 304 costs a
  /// header, not the index, and the bytes reported count the index when it is fetched (issue 56,
  /// item 6: every check fetched it whole and reported 0 bytes).
  @Test
  func anUnchangedIndexCostsAHeader() throws {
    let folder = try TemporaryFolder()
    try twoVersions(folder)
    let indexBytes = try Data(contentsOf: URL(fileURLWithPath: folder.path("R/index.json"))).count
    let server = try ReleaseServer(folder: folder.path("R"))
    let first = try update(server.url, folder.path("app"))
    #expect(first.status == 0, "\(first.stderr)")
    let downloaded = first.stdout.split(separator: " ").firstIndex(of: "bytes").flatMap {
      Int(first.stdout.split(separator: " ")[$0 - 1])
    }
    #expect((downloaded ?? 0) > indexBytes, "the index counts: \(first.stdout)")
    #expect(FileManager.default.fileExists(atPath: folder.path("app/.release-index")))
    let second = try update(server.url, folder.path("app"))
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout.contains("0 patched, 0 fetched whole"), "\(second.stdout)")
    #expect(second.stdout.contains("; 0 bytes downloaded"), "\(second.stdout)")
    // A new version: the ETag no longer matches, and the index is fetched and applied.
    let compile = try runProcess(
      calldir, ["compile", folder.path("d1.tsv"), "--out", folder.path("box")])
    #expect(compile.status == 0, "\(compile.stderr)")
    #expect(
      try runProcess(calldir, ["publish", folder.path("box"), "--out", folder.path("R")]).status
        == 0)
    let third = try update(server.url, folder.path("app"))
    #expect(third.status == 0 && third.stdout.contains("version 3"), "\(third.stdout)")
    #expect(try bases(folder.path("app")) == bases(folder.path("box")))
    let log = server.stop()
    let indexRequests = log.split(separator: "\n").filter { $0.hasPrefix("GET index.json") }
    #expect(
      indexRequests.map { String($0.split(separator: " ").last ?? "") } == ["200", "304", "200"],
      "\(log)")
    // Another server's tag says nothing of this one's file, even when it is the same tag: the
    // first check against a new URL is unconditional.
    let other = try ReleaseServer(folder: folder.path("R"))
    #expect(try update(other.url, folder.path("app")).status == 0)
    let otherLog = other.stop()
    #expect(otherLog.contains("GET index.json - 200"), "\(otherLog)")
    #expect(!otherLog.contains("GET index.json - 304"), "\(otherLog)")
    // A source without validators keeps no cache.
    let plain = try ReleaseServer(folder: folder.path("R"), faults: .noETag)
    #expect(try update(plain.url, folder.path("app")).status == 0)
    _ = plain.stop()
    #expect(!FileManager.default.fileExists(atPath: folder.path("app/.release-index")))
  }

  @Test
  func aDroppedConnectionResumesWithRange() throws {
    let folder = try TemporaryFolder()
    try twoVersions(folder)
    let before = try containerFiles(folder.path("app"))
    let server = try ReleaseServer(folder: folder.path("R"), faults: .dropping(after: 100))
    #expect(server.port > 0)
    var runs: [ProcessRun] = []
    for _ in 0..<3 {
      let run = try update(server.url, folder.path("app"))
      runs.append(run)
      if run.status == 0 { break }
      #expect(run.stderr.contains("kept; the next update resumes"), "\(run.stderr)")
      #expect(try containerFiles(folder.path("app")) == before, "nothing staged from a cut file")
    }
    let log = server.stop()
    #expect(runs.last?.status == 0, "\(runs.map(\.stderr))")
    #expect(log.contains("bytes=100- 206"), "the rest was asked for with Range: \(log)")
    #expect(try bases(folder.path("app")) == bases(folder.path("box")))
  }

  @Test(
    arguments: [
      (ServerFaults.corrupt, "SHA-256 is not the index's"), (.missing, "HTTP 404"),
      (.stalling, "timed out"), (.gzipBomb(), "Content-Encoding gzip"),
    ])
  func aFaultyServerIsRefusedAndTheContainerKept(faults: ServerFaults, message: String) throws {
    let folder = try TemporaryFolder()
    try twoVersions(folder)
    let before = try containerFiles(folder.path("app"))
    let server = try ReleaseServer(folder: folder.path("R"), faults: faults)
    let run = try update(server.url, folder.path("app"), timeout: 2)
    _ = server.stop()
    #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
    #expect(run.stderr.contains(message), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    #expect(try containerFiles(folder.path("app")) == before)
  }

  /// SIGINT or SIGTERM during a download cancels the update (issue 52, item 9): one line, exit
  /// 130 or 143, the container as it was; the next update finishes.
  @Test(
    arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
  func aSignalledUpdateStopsAndKeepsTheContainer(signal: Int32, status: Int32) throws {
    let folder = try TemporaryFolder()
    try twoVersions(folder)
    let before = try containerFiles(folder.path("app"))
    let server = try ReleaseServer(folder: folder.path("R"), faults: .stalling)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: calldir)
    process.arguments = ["app", "update", "--from", server.url, "--container", folder.path("app")]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    // The update is mid-download once the server logs a patch or base request (then stalls).
    #expect(server.waitForRequest(containing: "GET patches/"))
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    _ = server.stop()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == status, "\(message)")
    #expect(message.contains("interrupted by") && message.contains("container is as it was"))
    #expect(message.split(separator: "\n").count == 1, "\(message)")
    #expect(try containerFiles(folder.path("app")) == before)
    let next = try update(folder.path("R"), folder.path("app"))
    #expect(next.status == 0, "\(next.stderr)")
    #expect(try bases(folder.path("app")) == bases(folder.path("box")))
  }

  @Test func theSyncAfterAnUpdateSendsOnlyTheChangesIncrementally() throws {
    let folder = try TemporaryFolder()
    func dump(_ name: String, relabelledEvery: Int?) throws -> String {
      var text = "number\tlabel\tregion\n"
      for index in 0..<3_000 {
        let version = relabelledEvery.map { index % $0 == 0 ? 2 : 1 } ?? 1
        text += "+7495\(1_000_000 + index * 7)\tFirm \(index % 50) v\(version)\tMOW\n"
      }
      try text.write(toFile: folder.path(name), atomically: true, encoding: .utf8)
      return folder.path(name)
    }
    let (first, second) = (
      try dump("d1.tsv", relabelledEvery: nil), try dump("d2.tsv", relabelledEvery: 20)
    )
    let compile = { (dump: String, out: String) throws -> Void in
      let run = try runProcess(
        self.calldir, ["compile", dump, "--out", out, "--country", "RU", "--seed-size", "10"])
      #expect(run.status == 0, "\(run.stderr)")
    }
    let system = ["--container", folder.path("box"), "--host-dir", folder.path("host")]
    // The app: version 1 compiled as the server compiles it, enabled and synced.
    try compile(first, folder.path("box"))
    #expect(try runProcess(calldir, ["host", "enable", "com.example.box"] + system).status == 0)
    #expect(try runProcess(calldir, ["app", "sync", "com.example.box"] + system).status == 0)
    // The server: versions 1 and 2 published.
    for dump in [first, second] {
      try compile(dump, folder.path("srv"))
      #expect(
        try runProcess(calldir, ["publish", folder.path("srv"), "--out", folder.path("R")]).status
          == 0)
    }
    let updated = try update(folder.path("R"), folder.path("box"))
    #expect(
      updated.status == 0 && updated.stdout.contains("region-MOW: patched"), "\(updated.stdout)")
    let synced = try runProcess(calldir, ["app", "sync", "com.example.box"] + system)
    #expect(synced.status == 0, "\(synced.stderr)")
    #expect(
      synced.stdout.contains("300 entries changed incrementally (150 added, 150 removed)"),
      "the 150 relabelled entries, and nothing else: \(synced.stdout)")
  }

  @Test func anUpdateStoppedAtAnyDurableStepLeavesTheOldOrTheNewBases() throws {
    let folder = try TemporaryFolder()
    try twoVersions(folder)
    let old = try bases(folder.path("app"))
    let new = try bases(folder.path("box"))
    let sample = DurableStepSample("an update stopped at any durable step")
    let counted = folder.path("counted")
    try FileManager.default.copyItem(atPath: folder.path("app"), toPath: counted)
    let finished = try runProcess(
      calldir, ["app", "update", "--from", folder.path("R"), "--container", counted],
      environment: DurableStepSample.counting)
    #expect(finished.status == 0, "\(finished.stderr)")
    #expect(try bases(counted) == new)
    let steps = try #require(DurableStepSample.steps(reportedBy: finished), "\(finished.stderr)")
    for step in sample.steps(of: steps) + [steps + 1] {
      let copy = folder.path("stopped-\(step)")
      try FileManager.default.copyItem(atPath: folder.path("app"), toPath: copy)
      defer { try? FileManager.default.removeItem(atPath: copy) }
      let run = try runProcess(
        calldir, ["app", "update", "--from", folder.path("R"), "--container", copy],
        environment: DurableStepSample.stoppingAt(step))
      let left = try bases(copy)
      #expect(left == old || left == new, "step \(step), \(sample): a mix")
      if step > steps {
        #expect(run.status == 0 && left == new, "one step past the count: \(run.stderr)")
        continue
      }
      #expect(run.status == FaultInjection.exitStatus, "step \(step), \(sample): \(run.stderr)")
      // The next update finishes the job from whatever the stopped one left.
      let again = try update(folder.path("R"), copy)
      #expect(again.status == 0, "step \(step), \(sample): \(again.stderr)")
      #expect(try bases(copy) == new, "step \(step), \(sample)")
    }
    #expect(steps >= 6, "downloads, made bases, copies, adoption, manifest: \(steps)")
  }
}
