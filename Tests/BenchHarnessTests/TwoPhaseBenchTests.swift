import Foundation
import TestSupport
import Testing

@testable import BenchMeasuring
@testable import BenchReporting

@Suite("bench --two-phase, end to end")
struct TwoPhaseBenchTests {
  func bench(_ extra: [String], folder: TemporaryFolder, quiet: Bool = true) throws -> (
    Int32, String, [RunRecord]
  ) {
    let csv = folder.path("two-phase.csv")
    let result = try runProcess(
      try builtExecutable("calldir"),
      [
        "bench", "two-phase", "--profile", "ci-smoke", "--entries", "3000", "--regions", "3",
        "--seed-entries", "300", "--blocking-entries", "200", "--repeat", "2", "--cache",
        folder.path("cache"), "--out", csv,
      ] + (quiet ? ["--quiet"] : []) + extra)
    let records =
      (try? String(contentsOfFile: csv, encoding: .utf8)).flatMap {
        try? RunRecord.records(fromCSV: $0)
      }
      ?? []
    return (result.status, result.stderr, records)
  }

  @Test func everyRepeatHasASeedAFullAndAnIncrementalRow() throws {
    let folder = try TemporaryFolder()
    // No --gate: its time-to-enabled target is wall-clock, gated by CI's bench step; here the
    // figures' presence and consistency are checked.
    let (status, stderr, records) = try bench([], folder: folder)
    #expect(status == 0, "\(stderr)")
    #expect(records.map(\.phase) == ["seed", "full", "incremental", "seed", "full", "incremental"])
    #expect(records.allSatisfy { $0.status == .ok })
    let seed = try #require(records.first)
    #expect(seed.entries == 300)
    #expect(seed.timeToEnabledSeconds ?? 0 > 0)
    #expect(seed.footprintPeakBytes > 0)
    #expect(seed.hostIngestPerSecond ?? 0 > 0)
    let full = try #require(records.first { $0.phase == "full" })
    #expect(
      full.entries == 3_000 + 200, "the union: regions (the seed set is inside them) and blocking")
    #expect(full.timeToFullSeconds ?? 0 > seed.timeToEnabledSeconds ?? 0)
    let incremental = try #require(records.first { $0.phase == "incremental" })
    #expect(incremental.entries > 0)
  }

  /// `--progress json`: one object per step on stderr (the container prepared, the idle
  /// extension, each repeat's enabling, full set and update), the repeats done counting up to
  /// their whole; on a pipe the default draws nothing.
  @Test func progressIsOneJSONObjectPerStepAndNothingOnAPipe() throws {
    let folder = try TemporaryFolder()
    let (status, stderr, _) = try bench(["--progress", "json"], folder: folder, quiet: false)
    #expect(status == 0, "\(stderr)")
    // A notice (no jemalloc here) is a line of its own, not progress.
    let objects = try ProgressLines.objects(
      stderr.split(separator: "\n").filter { $0.hasPrefix("{") }.joined(separator: "\n"))
    #expect(objects.allSatisfy { $0["command"] as? String == "bench two-phase" })
    let steps = objects.compactMap { $0["step"] as? String }
    #expect(steps.first == "3 regions, preparing the container", "\(steps)")
    for step in ["run 1 of 2: enabling", "run 2 of 2: the full set", "run 2 of 2: the update"] {
      #expect(steps.contains("3 regions, " + step), "\(steps)")
    }
    let done = objects.compactMap { $0["done"] as? Int }
    #expect(done == done.sorted() && done.last == 2, "\(done)")
    #expect(objects.allSatisfy { $0["total"] as? Int == 2 && $0["unit"] as? String == "runs" })
    let (pipedStatus, piped, _) = try bench([], folder: folder, quiet: false)
    #expect(pipedStatus == 0)
    #expect(!piped.contains("\r") && !piped.contains("{\""), "a pipe gets no progress: \(piped)")
  }

  /// Every file under `folder` with its bytes, for comparing a folder before and after a run.
  func snapshot(_ folder: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
    for case let path as String in enumerator {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder),
        !isFolder.boolValue
      {
        files[path] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))
      }
    }
    return files
  }

  /// The runs stage and sync an update, which rewrites a manifest and removes a retired base's
  /// file. Done on the cached container, two benches sharing the cache broke each other and
  /// every later run ("cannot read …/region-R1.….cdb"): each repeat works on its own copy.
  @Test func aRunLeavesTheSharedCacheAsItWasAndABrokenCacheIsMadeAgain() throws {
    let folder = try TemporaryFolder()
    let first = try bench([], folder: folder)
    #expect(first.0 == 0, "\(first.1)")
    let cache = folder.path("cache")
    let before = try snapshot(cache)
    #expect(before.keys.contains { $0.hasSuffix(".cdb") })
    let second = try bench([], folder: folder)
    #expect(second.0 == 0, "\(second.1)")
    #expect(second.2.allSatisfy { $0.status == .ok })
    let after = try snapshot(cache)
    #expect(after.keys.sorted() == before.keys.sorted())
    #expect(after == before, "a run changed the cached container")
    // A cache an older bench left without a base is generated again, not failed on.
    let bases = before.keys.filter { $0.contains("/bases/region-R1.") }
    #expect(bases.count == 2, "the container's and the update's: \(bases)")
    for base in bases {
      try FileManager.default.removeItem(atPath: cache + "/" + base)
      let again = try bench([], folder: folder)
      #expect(again.0 == 0, "\(again.1)")
      #expect(again.2.allSatisfy { $0.status == .ok }, "\(again.2.map(\.detail))")
      #expect(FileManager.default.fileExists(atPath: cache + "/" + base))
    }
  }

  @Test(arguments: ["per-request", "per-extension"])
  func pastTheCapTheRowsCountRequestsInstalledEntriesAndProjectedTime(scope: String) throws {
    let folder = try TemporaryFolder()
    // 3,200 entries on a system that takes 1,000 per load; chunks of 1,000 (the clamp).
    let (status, stderr, records) = try bench(
      ["--max-entries", "1001", "--cap-scope", scope, "--device", "iphone13"], folder: folder)
    #expect(status == 0, "\(stderr)")
    let first = records.filter { $0.repeatIndex == 1 }
    #expect(first.map(\.requests) == Array(1...first.count).map { Optional($0) })
    #expect(first.allSatisfy { $0.capScope == scope && $0.device == "iphone13" })
    #expect(first.allSatisfy { ($0.deviceProjectedSeconds ?? 0) > 0 || $0.entries == 0 })
    let chunks = first.filter { $0.phase == "chunk" }
    let last = try #require(chunks.last)
    if scope == "per-request" {
      #expect(chunks.count == 3 && chunks.allSatisfy { $0.errorCode == nil })
      #expect(last.installedEntries == 3_200, "everything: regions and blocking")
    } else {
      #expect(chunks.count == 1 && last.errorCode == 5)
      #expect(last.installedEntries == 1_000, "the top 1,000 by priority")
    }
    #expect(last.timeToAllSeconds ?? 0 >= first[1].timeToFullSeconds ?? .infinity)
    #expect(last.deviceTimeToAllSeconds ?? 0 > first[0].deviceTimeToEnabledSeconds ?? .infinity)
  }

  @Test func fourExtensionsInstallTheWholeSetUnderACapPerExtension() throws {
    let folder = try TemporaryFolder()
    // 3,200 entries, 1,000 per extension: one extension keeps 1,000; four hold all of it.
    let (status, stderr, records) = try bench(
      ["--max-entries", "1001", "--cap-scope", "per-extension", "--extensions", "4"],
      folder: folder)
    #expect(status == 0, "\(stderr)")
    let first = records.filter { $0.repeatIndex == 1 }
    #expect(first.filter { $0.phase == "seed" }.count == 4)
    #expect(first.filter { $0.phase == "full" }.count == 4)
    #expect(first.allSatisfy { $0.strategy.hasSuffix("-x4") && $0.status == .ok })
    let last = try #require(first.last { $0.timeToAllSeconds != nil })
    #expect(last.installedEntries == 3_200)
    #expect(first.filter { $0.phase != "incremental" }.allSatisfy { $0.entries <= 1_000 })
    // The update of the first region reloads the parts whose range it meets, not all four.
    let updates = first.filter { $0.phase == "incremental" }
    #expect((1..<4).contains(updates.count), "\(updates.count) extensions reloaded")
    let report = TwoPhaseReport.render(records, title: "four extensions")
    #expect(
      report.contains("3200 entries installed in 8 requests (cap per-extension, 4 extensions)"))
  }

  /// A container that has been synced (the full set requested and installed) is benched from
  /// its compiled state: phase one installs the seed set, phase two runs (issue 25, finding 8).
  @Test(arguments: [false, true])
  func aCompiledContainerIsBenchedAsItIsAndLeftUntouched(synced: Bool) throws {
    let folder = try TemporaryFolder()
    let calldir = try builtExecutable("calldir")
    let dump = folder.path("dump.tsv")
    #expect(
      try runProcess(
        calldir,
        [
          "generate", "--profile", "ci-smoke", "--entries", "4000", "--format", "tsv", "--out",
          dump,
        ]
      ).status == 0)
    let box = folder.path("box")
    #expect(
      try runProcess(calldir, ["compile", dump, "--out", box, "--seed-size", "200"]).status == 0)
    if synced {
      let host = ["com.example.synced", "--container", box, "--host-dir", folder.path("host")]
      let enabled = try runProcess(calldir, ["host", "enable"] + host)
      #expect(enabled.status == 0, "\(enabled.stderr)")
      let sync = try runProcess(calldir, ["app", "sync"] + host)
      #expect(sync.status == 0, "\(sync.stderr)")
      #expect(
        try String(contentsOfFile: box + "/manifest.cdm", encoding: .utf8).contains(
          "full-set\trequested"))
    }
    let manifest = try String(contentsOfFile: box + "/manifest.cdm", encoding: .utf8)
    let (status, stderr, records) = try bench(["--container", box], folder: folder)
    #expect(status == 0, "\(stderr)")
    #expect(records.map(\.phase) == ["seed", "full", "incremental", "seed", "full", "incremental"])
    #expect(records.allSatisfy { $0.status == .ok }, "\(records.map(\.detail))")
    #expect(records.first { $0.phase == "seed" }?.entries == 200)
    #expect(records.first { $0.phase == "incremental" }.map { $0.entries > 0 } == true)
    #expect(try String(contentsOfFile: box + "/manifest.cdm", encoding: .utf8) == manifest)
  }

  @Test func aForcedTimeToEnabledFailureExits2() throws {
    let folder = try TemporaryFolder()
    let (status, stderr, _) = try bench(
      ["--gate", "--max-time-to-enabled", "0.000001"], folder: folder)
    #expect(status == 2)
    #expect(stderr.contains("gate failed: time to enabled"))
  }
}
