import Foundation
import TestSupport
import Testing

@testable import BenchGating
@testable import BenchMeasuring
@testable import BenchReporting

@Suite("The gate and the command line")
struct GateAndCommandTests {
  func run(
    _ strategy: String, rate: Double, footprint: Int = 1 << 20, overIdle: Int = 0,
    status: RunRecord.Status = .ok
  ) -> RunRecord {
    var record = RunRecord()
    record.strategy = strategy
    record.entriesPerSecond = rate
    record.footprintPeakBytes = footprint
    record.idleRSSBytes = 10 << 20
    record.peakRSSBytes = (10 << 20) + overIdle
    record.memoryLimitBytes = 5 << 20
    record.status = status
    return record
  }

  let gate = BenchGate(rssBudgetBytes: 1 << 20, minimumEntriesPerSecond: 200_000)

  /// A run of 0 entries has a rate of 0: the chart used to loop forever on log10(0).
  @Test(arguments: [0.0, Double.infinity, Double.nan])
  func aChartOfUnplottableRatesStillDraws(rate: Double) {
    let svg = BenchChart.svg(
      records: [run("mmap", rate: rate), run("buffered", rate: 1e6)], title: "t")
    #expect(svg.hasPrefix("<svg") || svg.contains("<svg"))
    #expect(svg.contains("</svg>"))
  }

  @Test func aHealthyRunPasses() {
    let records = [
      run("mmap", rate: 2e7), run("mmap", rate: 1.5e7), run("baseline-2gis", rate: 1e6),
    ]
    #expect(gate.evaluate(StrategySummary.all(records)).passed)
  }

  @Test func eachRegressionFailsWithItsOwnLine() {
    let records = [
      run("mmap", rate: 1e5), run("mmap", rate: 1e5),
      run("buffered", rate: 1e7, footprint: 6 << 20, overIdle: 2 << 20),
      run("buffered", rate: 1e7, status: .killedMemory),
      run("baseline-2gis", rate: 5e5),
    ]
    let failures = gate.evaluate(StrategySummary.all(records)).failures
    #expect(failures.contains { $0.hasPrefix("mmap: median") && $0.contains("under the floor") })
    #expect(failures.contains { $0.hasPrefix("mmap:") && $0.contains("slower than baseline-2gis") })
    #expect(failures.contains { $0.hasPrefix("buffered: 1 of 2 runs completed") })
    #expect(failures.contains { $0.hasPrefix("buffered: footprint peak") })
    #expect(failures.contains { $0.hasPrefix("buffered: RSS over idle") })
    #expect(failures.count == 5)
  }

  @Test func runsOnDifferentAllocatorsAreNotComparedForMemory() {
    var idle = run("mmap", rate: 0, overIdle: 0)
    idle.run = .idle
    idle.allocator = "system"
    var load = run("mmap", rate: 2e7, overIdle: 2 << 20)
    load.allocator = "jemalloc"
    let failures = gate.evaluate(StrategySummary.all([idle, load])).failures
    #expect(failures.count == 1)
    #expect(failures.first?.contains("different allocators (jemalloc, system)") == true)
    #expect(failures.first?.contains("RSS over idle") == true)
  }

  @Test func theReportShowsRatiosToEachBaseline() {
    let records = [
      run("mmap", rate: 2e7), run("baseline-2gis", rate: 1e6), run("baseline-text", rate: 2e5),
    ]
    let text = BenchReport.render(StrategySummary.all(records), title: "t")
    #expect(text.contains("20.0×"))
    #expect(text.contains("100.0×"))
  }

  /// The whole command, end to end: a forced gate failure exits 2 with one line per failure,
  /// and still writes the CSV and the chart.
  @Test func aForcedGateFailureExits2() throws {
    let folder = try TemporaryFolder()
    let csv = folder.path("run.csv")
    let result = try runProcess(
      try builtExecutable("calldir"),
      [
        "bench", "--profile", "ci-smoke", "--entries", "3000", "--strategies", "mmap,buffered",
        "--repeat", "2", "--min-entries-per-s", "1e12", "--cache", folder.path("cache"), "--out",
        csv, "--gate", "--quiet",
        // Only the floor is forced: a debug build on a busy machine may start slower than the
        // release build's 10 ms ceiling (CI gates the release build's startup).
        "--max-startup", "10",
      ])
    #expect(result.status == 2, "\(result.stderr)")
    // Without jemalloc, stderr also holds the one-line note on how to get heap figures.
    let failures = result.stderr.split(separator: "\n").filter { !$0.contains("libjemalloc2") }
    #expect(failures.count == 2)
    #expect(failures.allSatisfy { $0.hasPrefix("gate failed: ") && $0.contains("under the floor") })
    let records = try RunRecord.records(fromCSV: String(contentsOfFile: csv, encoding: .utf8))
    #expect(records.filter { $0.run == .load }.count == 4)
    #expect(records.filter { $0.run == .idle }.count == 6)
    #expect(records.allSatisfy { $0.status == .ok })
    let svg = try String(contentsOfFile: folder.path("run.svg"), encoding: .utf8)
    #expect(
      svg.hasPrefix("<svg") && svg.contains("2GIS: 2M in 10 s") && svg.contains("memory limit"))
  }

  /// `calldir bench --progress json`: the idle runs, then the loads, each phase's runs done of
  /// its total, the run under way named; on a pipe by default, no progress at all (issue 44).
  @Test func benchShowsItsPhasesAsJSONLinesAndNothingOnAPipe() throws {
    let folder = try TemporaryFolder()
    let arguments = [
      "bench", "--profile", "ci-smoke", "--entries", "2000", "--strategies", "mmap,buffered",
      "--repeat", "2", "--instructions", "off", "--cache", folder.path("cache"), "--out",
      folder.path("run.csv"),
    ]
    let json = try runProcess(try builtExecutable("calldir"), arguments + ["--progress", "json"])
    #expect(json.status == 0, "\(json.stderr)")
    // The allocator's one-line note (without jemalloc) is not progress.
    let objects = try ProgressLines.objects(
      json.stderr.split(separator: "\n").filter { $0.hasPrefix("{") }.joined(separator: "\n"))
    #expect(ProgressLines.phaseOrder(objects) == ["idle", "loading"], "\(objects)")
    let loading = objects.filter { $0["phase"] as? String == "loading" }
    #expect(loading.allSatisfy { $0["total"] as? Int == 4 && $0["unit"] as? String == "runs" })
    #expect(
      loading.last?["done"] as? Int == 4 && loading.first?["step"] as? String == "mmap, run 1 of 2")
    let piped = try runProcess(try builtExecutable("calldir"), arguments)
    #expect(piped.status == 0)
    #expect(!piped.stderr.contains("{") && !piped.stderr.contains("run 1/2"), "\(piped.stderr)")
  }

  @Test func aTinyMemoryLimitRecordsKilledMemoryAndFailsTheGate() throws {
    let folder = try TemporaryFolder()
    let csv = folder.path("run.csv")
    let result = try runProcess(
      try builtExecutable("calldir"),
      [
        "bench", "--profile", "ci-smoke", "--entries", "2000", "--strategies", "mmap",
        "--repeat", "1", "--memory-limit", "64KiB", "--cache", folder.path("cache"), "--out", csv,
        "--gate", "--quiet",
      ])
    #expect(result.status == 2)
    let records = try RunRecord.records(fromCSV: String(contentsOfFile: csv, encoding: .utf8))
    #expect(records.filter { $0.run == .load }.map(\.status) == [.killedMemory])
    #expect(result.stderr.contains("0 of 1 runs completed (killed-memory ×1)"))
  }

  @Test(arguments: [
    ["bench", "--memory-limit", "5XB"],
    ["bench", "--profile", "no-such-profile"],
    ["bench", "--strategies", "mmap,warp"],
    ["bench", "--repeat", "0"],
    ["bench", "--no-such-flag"],
    ["chart", "/nonexistent.csv"],
    ["generate", "--format", "xml", "--out", "/tmp/x"],
  ])
  func usageAndInputErrorsExit1WithOneLine(arguments: [String]) throws {
    let result = try runProcess(try builtExecutable("calldir"), arguments)
    #expect(result.status == 1, "\(arguments): \(result.stderr)")
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(arguments): \(result.stderr)")
    #expect(lines.first?.hasPrefix("calldir: ") == true)
  }

  @Test func chartRedrawsFromACSV() throws {
    let folder = try TemporaryFolder()
    let records = [run("mmap", rate: 2e7), run("baseline-jsonl", rate: 3e4)]
    let csv = folder.path("x.csv")
    try RunRecord.csv(records).write(toFile: csv, atomically: true, encoding: .utf8)
    let result = try runProcess(try builtExecutable("calldir"), ["chart", csv])
    #expect(result.status == 0, "\(result.stderr)")
    let svg = try String(contentsOfFile: folder.path("x.svg"), encoding: .utf8)
    #expect(svg.contains(">mmap<") && svg.contains(">baseline-jsonl<"))
    #expect(svg.contains("Chinese article: 1M in 30 s"))
  }
}
