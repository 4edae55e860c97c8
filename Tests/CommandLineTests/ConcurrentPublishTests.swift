import Foundation
import Synchronization
import TestSupport
import Testing

/// Publishes that run at once into one release folder (issue 65, item 7): each waits for the
/// folder's lock, and the index never names a file that is not there. Without the lock, two
/// publishes read the same index and each removed what the other named: 3 of 22 trials left an
/// index naming deleted patches, and 19 ended one run with "rename failed".
@Suite("calldir publish, several at once")
struct ConcurrentPublishTests {
  let calldir = builtExecutablePath("calldir")

  /// Containers whose bases differ (each dump a different size), so every publish makes a
  /// version and patches from the ones before.
  func containers(_ folder: TemporaryFolder, count: Int) throws -> [String] {
    try (0..<count).map { index in
      let dump = folder.path("dump\(index).tsv")
      let generated = try runProcess(
        calldir,
        [
          "generate", "--profile", "ci-smoke", "--entries", "\(3_000 + 400 * index)",
          "--format", "tsv", "--out", dump,
        ])
      #expect(generated.status == 0, "\(generated.stderr)")
      let box = folder.path("box\(index)")
      let compiled = try runProcess(calldir, ["compile", dump, "--out", box])
      #expect(compiled.status == 0, "\(compiled.stderr)")
      return box
    }
  }

  /// Every file the index names, bases and patches.
  func namedFiles(_ releases: String) throws -> [String] {
    let data = try #require(FileManager.default.contents(atPath: releases + "/index.json"))
    let index = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let versions = try #require(index["versions"] as? [[String: Any]])
    let bases = versions.flatMap { ($0["bases"] as? [[String: Any]]) ?? [] }
    let patches = (index["patches"] as? [[String: Any]]) ?? []
    return (bases + patches).compactMap { $0["file"] as? String }
  }

  @Test func publishesAtOnceLeaveAnIndexWhoseFilesAreAllThere() throws {
    let folder = try TemporaryFolder()
    let boxes = try containers(folder, count: 3)
    let releases = folder.path("R")
    let first = try runProcess(calldir, ["publish", boxes[0], "--out", releases, "--quiet"])
    #expect(first.status == 0, "\(first.stderr)")
    for round in 0..<4 {
      let runs = Mutex<[ProcessRun?]>(Array(repeating: nil, count: boxes.count))
      DispatchQueue.concurrentPerform(iterations: boxes.count) { slot in
        // Each round publishes the boxes in another order, so each is the newest in turn.
        let box = boxes[(slot + round) % boxes.count]
        let run = try? runProcess(calldir, ["publish", box, "--out", releases, "--quiet"])
        runs.withLock { $0[slot] = run }
      }
      for run in runs.withLock({ $0 }) {
        let run = try #require(run)
        #expect(run.status == 0, "round \(round): \(run.stderr)")
      }
      let named = try namedFiles(releases)
      #expect(!named.isEmpty)
      for file in named {
        #expect(
          FileManager.default.fileExists(atPath: releases + "/" + file),
          "round \(round): the index names \(file), which is not there")
      }
    }
  }

  /// What a killed publish left (its scratch folder, a patch being written) is removed by the
  /// next publish, which holds the folder's lock: no live publisher owns it (issue 65, item 14).
  @Test func aKilledPublishsScratchIsRemovedByTheNext() throws {
    let folder = try TemporaryFolder()
    let boxes = try containers(folder, count: 2)
    let releases = folder.path("R")
    #expect(try runProcess(calldir, ["publish", boxes[0], "--out", releases]).status == 0)
    // 2147483000: a process ID no system hands out (Linux stops at 4194304).
    let scratch = releases + "/.publish-2147483000"
    let patch = releases + "/patches/x.cdp.tmp-2147483000"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: scratch + "/check.cdb", contents: Data([1])))
    #expect(FileManager.default.createFile(atPath: patch, contents: Data([1])))
    let next = try runProcess(calldir, ["publish", boxes[1], "--out", releases])
    #expect(next.status == 0, "\(next.stderr)")
    #expect(!FileManager.default.fileExists(atPath: scratch))
    #expect(!FileManager.default.fileExists(atPath: patch))
  }
}
