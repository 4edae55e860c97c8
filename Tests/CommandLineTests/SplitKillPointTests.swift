import BaseFormat
import CallDirectoryHost
import DirectoryContainer
import FaultInjection
import Foundation
import SystemCalls
import TestSupport
import Testing

extension KillPointTests {
  /// What the system holds for each of `count` extensions `BUNDLE.N`, comparable.
  func partContents(_ host: String, bundleID: String, count: Int) throws -> [[String]] {
    let store = try CallDirectoryStore(path: host + "/" + SimulatedSystem.databaseFileName)
    return try (1...count).map { index in
      let (identification, blocking) = try store.contents(of: bundleID + ".\(index)")
      return identification.map { "id \($0.0) \($0.1)" } + blocking.map { "block \($0)" }
    }
  }

  /// `app sync --extensions 2` after a recompile that changes part 1 only, stopped at each
  /// durable step (the parts' manifests, part 1's request and record, part 2's taking the new
  /// files without a request): each part's system holds its old or its new entries, every
  /// container stays readable, and the next sync finishes the job.
  @Test func aSplitSyncStoppedAtAnyStepLeavesEachPartOldOrNewAndTheNextSyncHeals() throws {
    let folder = try TemporaryFolder()
    let prepared = folder.path("prepared")
    let (old, new) = (folder.path("old.tsv"), folder.path("new.tsv"))
    let split = "com.example.split"
    // Two area codes, so a part each; the edit renames a Moscow number only.
    var text = "number\tlabel\tregion\trank\n"
    for index in 0..<20 {
      text += "+7495\(7_000_000 + index)\tFirm \(index)\tR495\t\(index)\n"
      text += "+7812\(7_000_000 + index)\tShop \(index)\tR812\t\(index)\n"
    }
    try text.write(toFile: old, atomically: true, encoding: .utf8)
    try text.replacingOccurrences(of: "Firm 3\t", with: "Renamed\t")
      .write(toFile: new, atomically: true, encoding: .utf8)
    func run(_ arguments: [String], root: String = prepared, environment: [String: String]? = nil)
      throws -> ProcessRun
    {
      try runProcess(
        calldir, arguments.map { $0.replacingOccurrences(of: "ROOT", with: root) },
        environment: environment)
    }
    let compile = ["compile", "DUMP", "--out", "ROOT/box", "--country", "RU", "--seed-size", "6"]
    let sync = ["app", "sync", split, "--container", "ROOT/box", "--host-dir", "ROOT/host"]
    #expect(try run(compile.map { $0 == "DUMP" ? old : $0 }).status == 0)
    _ = try run(sync + ["--extensions", "2"])
    for index in 1...2 {
      let enable = try run([
        "host", "enable", split + ".\(index)", "--container", "ROOT/box/parts/\(index)",
        "--host-dir", "ROOT/host",
      ])
      #expect(enable.status == 0, "\(enable.stderr)")
    }
    #expect(try run(sync + ["--extensions", "2"]).status == 0)
    #expect(try run(compile.map { $0 == "DUMP" ? new : $0 }).status == 0)

    let before = try partContents(prepared + "/host", bundleID: split, count: 2)
    let sample = DurableStepSample("a split sync stopped at any step")
    let reference = folder.path("reference")
    try FileManager.default.copyItem(atPath: prepared, toPath: reference)
    let finished = try run(
      sync + ["--extensions", "2"], root: reference, environment: DurableStepSample.counting)
    #expect(finished.status == 0, "\(finished.stderr)")
    #expect(finished.stdout.contains("\(split).2: nothing to do"), "\(finished.stdout)")
    let steps = try #require(DurableStepSample.steps(reportedBy: finished), "\(finished.stderr)")
    #expect(steps >= 4, "split, request, record, take: \(steps) durable steps")
    let after = try partContents(reference + "/host", bundleID: split, count: 2)
    #expect(after[0] != before[0] && after[1] == before[1], "part 1 changes, part 2 does not")
    for step in sample.steps(of: steps) + [steps + 1] {
      let copy = folder.path("stopped-\(step)")
      try FileManager.default.copyItem(atPath: prepared, toPath: copy)
      defer { try? FileManager.default.removeItem(atPath: copy) }
      let stopped = try run(
        sync + ["--extensions", "2"], root: copy, environment: DurableStepSample.stoppingAt(step))
      if step > steps {
        #expect(stopped.status == 0, "one step past the count (\(sample)): \(stopped.stderr)")
        continue
      }
      #expect(
        stopped.status == FaultInjection.exitStatus, "step \(step), \(sample): \(stopped.stderr)")
      let held = try partContents(copy + "/host", bundleID: split, count: 2)
      for part in 0..<2 {
        #expect(held[part] == before[part] || held[part] == after[part], "step \(step), \(sample)")
      }
      for container in ["/box", "/box/parts/1", "/box/parts/2"] {
        #expect(contents(copy + container) != nil, "step \(step): \(container) unreadable")
      }
      // The app runs again: it finishes the job, then has nothing to do in either part.
      var again = try run(sync + ["--extensions", "2"], root: copy)
      if again.stdout.contains("changed") {
        again = try run(sync + ["--extensions", "2"], root: copy)
      }
      #expect(again.status == 0, "step \(step), \(sample): \(again.stderr)")
      #expect(
        try partContents(copy + "/host", bundleID: split, count: 2) == after,
        "step \(step), \(sample)")
      let idle = try run(sync + ["--extensions", "2"], root: copy)
      #expect(
        idle.stdout.components(separatedBy: "nothing to do").count == 3, "step \(step), \(sample)")
    }
  }
}
