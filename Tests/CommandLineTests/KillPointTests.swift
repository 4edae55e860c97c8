import BaseFormat
import CallDirectoryHost
import DirectoryContainer
import FaultInjection
import Foundation
import SystemCalls
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

  /// Runs `arguments` over a fresh copy of `old` to the end, counting its durable steps, then
  /// over a fresh copy stopped at each step of a sample (``DurableStepSample``: every step in
  /// CI); checks each stopped run left the old or the new contents, and that a run armed one
  /// step past the count finishes.
  /// - Returns: the number of durable steps of the run and how many stops left the new set.
  func stopEverywhere(
    old: String, arguments: (String) -> [String], folder: TemporaryFolder,
    test: String = #function
  ) throws -> (steps: Int, leftNew: Int) {
    let sample = DurableStepSample(test)
    let oldContents = try #require(contents(old))
    let reference = folder.path("reference")
    try FileManager.default.copyItem(atPath: old, toPath: reference)
    let finished = try runProcess(
      calldir, arguments(reference), environment: DurableStepSample.counting)
    #expect(finished.status == 0, "\(finished.stderr)")
    let steps = try #require(DurableStepSample.steps(reportedBy: finished), "\(finished.stderr)")
    let newContents = try #require(contents(reference))
    #expect(newContents != oldContents, "the change must change something")
    var leftNew = 0
    for step in sample.steps(of: steps) + [steps + 1] {
      let copy = folder.path("stopped-\(step)")
      try FileManager.default.copyItem(atPath: old, toPath: copy)
      // The next writer clears what the stopped one left behind.
      defer { try? FileManager.default.removeItem(atPath: copy) }
      let run = try runProcess(
        calldir, arguments(copy), environment: DurableStepSample.stoppingAt(step))
      if step > steps {
        #expect(run.status == 0, "one step past the count (\(sample)): \(run.stderr)")
        #expect(contents(copy) == newContents, "one step past the count: not the new set")
        continue
      }
      #expect(run.status == FaultInjection.exitStatus, "step \(step), \(sample): \(run.stderr)")
      let left = contents(copy)
      #expect(left == oldContents || left == newContents, "step \(step), \(sample): a mix")
      if left == newContents { leftNew += 1 }
    }
    return (steps, leftNew)
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

  /// A dump of `count` numbers over three regions, ranked, one label changed when `edited`.
  func dump(_ path: String, numbers: Range<Int>, edited: Bool = false) throws {
    var text = "number\tlabel\tregion\trank\n"
    for index in numbers {
      let label = edited && index == numbers.lowerBound ? "Renamed" : "Firm \(index)"
      text += "+7495\(7_000_000 + index)\t\(label)\tR\(index % 3)\t\(index)\n"
    }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  let bundleID = "com.example.box"

  /// What the system holds for the extension, comparable.
  func storeContents(_ host: String) throws -> [String] {
    let (identification, blocking) = try CallDirectoryStore(
      path: host + "/" + SimulatedSystem.databaseFileName
    ).contents(of: bundleID)
    return identification.map { "id \($0.0) \($0.1)" } + blocking.map { "block \($0)" }
  }

  /// Runs `app sync` over a fresh copy of `prepared` (a folder holding `box` and `host`) to the
  /// end, counting its durable steps, then over fresh copies stopped at a sample of them
  /// (``DurableStepSample``: every step in CI): the system then holds what it held or what a
  /// finished sync gives, the container stays readable, and the next syncs finish the job.
  /// - Returns: the number of durable steps of the sync.
  func syncStoppedEverywhere(
    prepared: String, folder: TemporaryFolder, phase: String
  ) throws -> Int {
    func sync(_ root: String, environment: [String: String]? = nil) throws -> ProcessRun {
      try runProcess(
        calldir,
        ["app", "sync", bundleID, "--container", root + "/box", "--host-dir", root + "/host"],
        environment: environment)
    }
    let sample = DurableStepSample("a sync stopped at any step, \(phase)")
    let before = try storeContents(prepared + "/host")
    let reference = folder.path("reference-\(UUID())")
    try FileManager.default.copyItem(atPath: prepared, toPath: reference)
    let finished = try sync(reference, environment: DurableStepSample.counting)
    #expect(finished.status == 0, "\(finished.stderr)")
    let steps = try #require(DurableStepSample.steps(reportedBy: finished), "\(finished.stderr)")
    let after = try storeContents(reference + "/host")
    #expect(after != before, "the sync must change what the system holds")
    #expect(try sync(reference).stdout.contains("nothing to do"))
    for step in sample.steps(of: steps) + [steps + 1] {
      let copy = folder.path("stopped-\(UUID())")
      try FileManager.default.copyItem(atPath: prepared, toPath: copy)
      defer { try? FileManager.default.removeItem(atPath: copy) }
      let run = try sync(copy, environment: DurableStepSample.stoppingAt(step))
      if step > steps {
        #expect(run.status == 0, "one step past the count (\(sample)): \(run.stderr)")
        #expect(try storeContents(copy + "/host") == after, "one step past the count")
        continue
      }
      #expect(run.status == FaultInjection.exitStatus, "step \(step), \(sample): \(run.stderr)")
      let held = try storeContents(copy + "/host")
      #expect(held == before || held == after, "step \(step), \(sample): the system holds a mix")
      #expect(
        contents(copy + "/box") != nil, "step \(step), \(sample): the container is unreadable")
      // The app runs again: it finishes what the stopped sync began, then has nothing to do.
      var again = try sync(copy)
      if !again.stdout.contains("nothing to do") { again = try sync(copy) }
      #expect(again.status == 0, "step \(step), \(sample): \(again.stderr)")
      #expect(try storeContents(copy + "/host") == after, "step \(step), \(sample): not healed")
      #expect(try sync(copy).stdout.contains("nothing to do"), "step \(step), \(sample)")
    }
    return steps
  }

  @Test func aSyncStoppedAtAnyStepLeavesTheOldOrTheNewSetAndTheNextSyncHeals() throws {
    let folder = try TemporaryFolder()
    let prepared = folder.path("prepared")
    let old = folder.path("old.tsv")
    let new = folder.path("new.tsv")
    try dump(old, numbers: 0..<30)
    try dump(new, numbers: 5..<40, edited: true)
    func run(_ arguments: [String]) throws {
      let run = try runProcess(calldir, arguments)
      #expect(run.status == 0, "\(arguments): \(run.stderr)")
    }
    let box = ["--container", prepared + "/box", "--host-dir", prepared + "/host"]
    try run(["compile", old, "--out", prepared + "/box", "--country", "RU", "--seed-size", "4"])
    try run(["host", "enable", bundleID] + box)
    // Phase two: the full set, through a complete request.
    let phaseTwo = try syncStoppedEverywhere(
      prepared: prepared, folder: folder, phase: "the full set")
    #expect(phaseTwo >= 7, "request, commit, record: \(phaseTwo)")
    // A recompile, then what changed, through an incremental request.
    try run(["app", "sync", bundleID] + box)
    try run(["compile", new, "--out", prepared + "/box", "--country", "RU", "--seed-size", "4"])
    let incremental = try syncStoppedEverywhere(
      prepared: prepared, folder: folder, phase: "an incremental request")
    #expect(incremental >= 4, "commit, record: \(incremental)")
  }
}
