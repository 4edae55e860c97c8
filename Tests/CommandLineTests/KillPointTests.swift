import BaseFormat
import DirectoryContainer
import Foundation
import TestSupport
import Testing

/// A writer stopped at each of its durable steps in turn (`CALLDIR_FAULT_AT=N`, the fault-injection
/// hook): after every stop the container holds exactly the old set or the new one.
@Suite("A container changes only as a whole, at every durable step")
struct KillPointTests {
  let calldir = builtExecutablePath("calldir")
  let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Datasets/samples").path

  /// What a container holds, as a reader sees it: base name → SHA-256, each file checked
  /// against its hash. Nil when the container is not readable as a whole.
  func contents(_ container: String) -> [String: String]? {
    guard let manifest = try? Manifest.read(container: container) else { return nil }
    var contents: [String: String] = [:]
    for base in manifest.bases {
      guard SHA256.hexDigest(ofFile: container + "/" + base.file) == base.sha256 else {
        return nil
      }
      contents[base.name] = base.sha256
    }
    return contents
  }

  /// Runs `arguments` over a fresh copy of `old` with the hook armed at 1, 2, … until a run
  /// finishes; checks each stopped run left the old or the new contents.
  /// - Returns: the number of durable steps of the run and how many stops left the new set.
  func stopEverywhere(old: String, arguments: (String) -> [String], folder: TemporaryFolder)
    throws -> (steps: Int, leftNew: Int)
  {
    let oldContents = try #require(contents(old))
    let reference = folder.path("reference")
    try FileManager.default.copyItem(atPath: old, toPath: reference)
    let finished = try runProcess(calldir, arguments(reference))
    #expect(finished.status == 0, "\(finished.stderr)")
    let newContents = try #require(contents(reference))
    #expect(newContents != oldContents, "the change must change something")
    var leftNew = 0
    for step in 1...200 {
      let copy = folder.path("stopped-\(step)")
      try FileManager.default.copyItem(atPath: old, toPath: copy)
      let run = try runProcess(
        calldir, arguments(copy), environment: [FaultInjection.environmentVariable: String(step)])
      if run.status == 0 { return (step - 1, leftNew) }
      #expect(run.status == FaultInjection.exitStatus, "step \(step): \(run.stderr)")
      let left = contents(copy)
      #expect(left == oldContents || left == newContents, "step \(step): a mix, \(run.stderr)")
      if left == newContents { leftNew += 1 }
      // The next writer clears what the stopped one left behind.
      try FileManager.default.removeItem(atPath: copy)
    }
    Issue.record("more than 200 durable steps")
    return (0, leftNew)
  }

  @Test func aRecompileStoppedAtAnyStepLeavesTheOldOrTheNewContainer() throws {
    let folder = try TemporaryFolder()
    let old = folder.path("old")
    #expect(
      try runProcess(calldir, ["compile", samples + "/sample.tsv", "--out", old]).status == 0)
    let (steps, leftNew) = try stopEverywhere(
      old: old,
      arguments: { ["compile", samples + "/sample.csv", "--out", $0, "--seed-size", "1"] },
      folder: folder)
    #expect(steps >= 5, "bases, manifest and directory syncs: \(steps)")
    #expect(leftNew >= 1, "the manifest's rename is the last step but one or two")
  }

  @Test func aStageStoppedAtAnyStepLeavesTheOldOrTheNewContainer() throws {
    let folder = try TemporaryFolder()
    let old = folder.path("old")
    #expect(
      try runProcess(calldir, ["compile", samples + "/sample.tsv", "--out", old]).status == 0)
    let staged = folder.path("blocked.cdb")
    let writer = try BaseWriter(path: staged, kind: .blocking)
    try writer.append(74_950_000_001, label: "")
    try writer.finish()
    let (steps, _) = try stopEverywhere(
      old: old,
      arguments: {
        [
          "app", "stage", staged, "--name", "spam", "--role", "blocking", "--priority", "95",
          "--version", "1", "--container", $0,
        ]
      },
      folder: folder)
    #expect(steps >= 4, "copy, move into bases/, manifest: \(steps)")
  }
}
