import DirectoryContainer
import FaultInjection
import Foundation
import SystemCalls
import TestSupport
import Testing

/// A writer whose durable steps fail in turn, as on a failing or full disk (the fault-injection
/// hook armed with an error: `CALLDIR_FAULT_AT=N CALLDIR_FAULT_ERRNO=EIO`): each failed run says
/// so in one line naming the file and the system's reason, exits 1, and leaves every file of the
/// container byte-identical, including the bases it had already moved in (issue 26, item 4: a
/// test stands in for the OS through the system-call room).
@Suite("A container is left byte-identical when a durable step fails")
struct FailingDiskTests {
  let calldir = builtExecutablePath("calldir")
  let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Datasets/samples").path

  /// The durable steps a finished run of `arguments` over a copy of `old` takes, as the
  /// fault-injection hook counts them (`CALLDIR_FAULT_COUNT`).
  func durableSteps(old: String, arguments: (String) -> [String], folder: TemporaryFolder) throws
    -> Int
  {
    let copy = folder.path("counted")
    try FileManager.default.copyItem(atPath: old, toPath: copy)
    defer { try? FileManager.default.removeItem(atPath: copy) }
    let run = try runProcess(calldir, arguments(copy), environment: DurableStepSample.counting)
    #expect(run.status == 0, "\(run.stderr)")
    return try #require(DurableStepSample.steps(reportedBy: run), "\(run.stderr)")
  }

  /// Runs `arguments` over a copy of `old` once per durable step of a sample
  /// (``DurableStepSample``: every step in CI), that step failing with `error`: each run either
  /// fails cleanly and leaves the copy byte-identical to `old`, or (the step was one that cannot
  /// fail, a folder's fsync) finishes.
  /// - Returns: how many runs failed, and whether every step ran.
  func failEverywhere(
    old: String, error: String, reason: String, arguments: (String) -> [String],
    folder: TemporaryFolder, test: String = #function
  ) throws -> (failed: Int, everyStep: Bool) {
    let sample = DurableStepSample("\(test), \(error)")
    let before = try folderSnapshot(old)
    let steps = try durableSteps(old: old, arguments: arguments, folder: folder)
    #expect(steps >= 4, "\(steps) durable steps")
    var failed = 0
    for step in sample.steps(of: steps) {
      let copy = folder.path("failed-\(error)-\(step)")
      try FileManager.default.copyItem(atPath: old, toPath: copy)
      defer { try? FileManager.default.removeItem(atPath: copy) }
      let run = try runProcess(
        calldir, arguments(copy),
        environment: [
          FaultInjection.environmentVariable: String(step), FaultInjection.errnoVariable: error,
        ])
      if run.status == 0 { continue }
      failed += 1
      #expect(run.status == 1, "step \(step), \(sample): \(run.stderr)")
      let lines = run.stderr.split(separator: "\n")
      #expect(lines.count == 1, "step \(step): one line, not \(run.stderr)")
      #expect(
        run.stderr.contains(reason) && run.stderr.contains(copy), "step \(step): \(run.stderr)")
      let after = try folderSnapshot(copy)
      #expect(Set(after.keys) == Set(before.keys), "step \(step): files added or lost")
      #expect(after == before, "step \(step): a file's bytes changed")
    }
    return (failed, sample.everyStep)
  }

  @Test(arguments: [("EIO", "Input/output error"), ("ENOSPC", "No space left on device")])
  func aRecompileWhoseStepFailsLeavesTheContainerAsItWas(error: String, reason: String) throws {
    let folder = try TemporaryFolder()
    let old = folder.path("old")
    #expect(
      try runProcess(calldir, ["compile", samples + "/sample.tsv", "--out", old]).status == 0)
    let (failed, everyStep) = try failEverywhere(
      old: old, error: error, reason: reason,
      arguments: { ["compile", samples + "/sample.csv", "--out", $0, "--seed-size", "1"] },
      folder: folder)
    // The first step (a base's fsync) can fail, so a sample fails at least once.
    #expect(
      failed >= (everyStep ? 6 : 1), "every base's fsync and renames, and the manifest's: \(failed)"
    )
  }

  @Test func aStageWhoseStepFailsLeavesTheContainerAsItWas() throws {
    let folder = try TemporaryFolder()
    let old = folder.path("old")
    #expect(
      try runProcess(calldir, ["compile", samples + "/sample.tsv", "--out", old]).status == 0)
    let other = folder.path("other")
    #expect(
      try runProcess(calldir, ["compile", samples + "/sample.csv", "--out", other]).status == 0)
    let staged = try #require(
      try FileManager.default.contentsOfDirectory(atPath: other + "/bases").first {
        $0.hasPrefix("region-US-NY")
      })
    let (failed, everyStep) = try failEverywhere(
      old: old, error: "EIO", reason: "Input/output error",
      arguments: {
        [
          "app", "stage", other + "/bases/" + staged, "--name", "region-US-NY", "--role", "region",
          "--region", "US-NY", "--priority", "50", "--version", "2", "--container", $0,
        ]
      },
      folder: folder)
    #expect(
      failed >= (everyStep ? 3 : 1),
      "the copy's fsync and rename, the move, the manifest: \(failed)")
  }
}
