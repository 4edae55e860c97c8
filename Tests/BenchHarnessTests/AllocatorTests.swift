import CallDirectoryHost
import ExtensionReport
import Foundation
import ProcessSpawning
import TestSupport
import Testing

@testable import BenchMeasuring
@testable import BenchReporting

/// jemalloc is found at run time: the same build measures heap peaks where its shared library is
/// installed and leaves them empty elsewhere.
@Suite("The measured processes' allocator")
struct AllocatorTests {
  /// Whether this machine has jemalloc's shared library (CI installs it).
  static let jemallocInstalled = MeasuredAllocator.installedJemalloc() != nil

  /// The extension loading a small base on `allocator`, as the bench runs it.
  func spawn(with allocator: MeasuredAllocator) throws -> ChildProcess.Outcome {
    let folder = try TemporaryFolder()
    let dataset = try smallDataset(folder, formats: [.base])
    let outcome = try ChildProcess.run(
      executable: try builtExecutable("calldir-extension"),
      arguments: ["--base", dataset.path(.base)],
      limits: .init(memoryLimitBytes: nil, timeoutSeconds: 60),
      environment: allocator.childEnvironment())
    #expect(outcome.exitCode == 0, "\(outcome.standardError)")
    return outcome
  }

  func load(with allocator: MeasuredAllocator) throws -> LoadReport {
    try #require(try spawn(with: allocator).report.flatMap(LoadReport.init(parsing:)))
  }

  @Test(.enabled(if: jemallocInstalled, "needs jemalloc's shared library (libjemalloc2)"))
  func withJemallocInstalledTheHeapPeakIsFilled() throws {
    let allocator = try MeasuredAllocator.resolve(.auto)
    #expect(allocator.kind == .jemalloc)
    let report = try load(with: allocator)
    #expect(report.allocator == "jemalloc")
    let heap = try #require(report.heapPeakBytes, "jemalloc's thread.peak")
    #expect(heap > 0)
    #expect(heap < 1 << 20, "the loader's heap peak is a few KiB, not the data")
  }

  @Test(.enabled(if: jemallocInstalled, "needs jemalloc's shared library (libjemalloc2)"))
  func allocationsAreCountedAndRepeatExactly() throws {
    let allocator = try MeasuredAllocator.resolve(.auto)
    let first = try load(with: allocator)
    let second = try load(with: allocator)
    let count = try #require(first.allocations, "jemalloc's nrequests")
    #expect(count > 0)
    #expect(second.allocations == count, "a count, not a time: the same on every run")
  }

  @Test func onTheSystemAllocatorTheHeapPeakIsEmpty() throws {
    let report = try load(with: .system)
    #expect(report.allocator == "system")
    #expect(report.heapPeakBytes == nil)
    #expect(report.allocations == nil)
    #expect(report.entries == 5_000)
  }

  /// The child reports the CPU time it used by its load's start (what the startup gate reads):
  /// some, and no more than the wall clock from spawn to that start, since one thread ran then.
  @Test func theStartupCPUTimeIsReportedAndWithinTheWallClockStartup() throws {
    var record = RunRecord()
    BenchRunner.fill(&record, from: try spawn(with: .system))
    let cpu = try #require(record.startupCPUSeconds, "start_cpu_ns in the report")
    let wall = try #require(record.startupSeconds)
    #expect(cpu > 0)
    #expect(cpu <= wall, "CPU \(cpu) s, wall \(wall) s")
  }

  @Test func autoFallsBackToTheSystemAllocatorWithoutTheLibrary() {
    let missing = [MeasuredAllocator.jemallocPathVariable: "/nonexistent/libjemalloc.so.2"]
    #expect(MeasuredAllocator.installedJemalloc(environment: missing) == nil)
    if !Self.jemallocInstalled {
      #expect(MeasuredAllocator.automatic() == .system)
      #expect(throws: AllocatorUnavailable.self) { try MeasuredAllocator.resolve(.jemalloc) }
    }
  }

  @Test func theEnvironmentPreloadsJemallocFirstAndKeepsOtherPreloads() {
    let inherited = ["PATH": "/bin", "LD_PRELOAD": "/lib/other.so:/usr/lib/libjemalloc.so.2"]
    let jemalloc = MeasuredAllocator.jemalloc(libraryPath: "/opt/libjemalloc.so.2")
    #expect(
      jemalloc.childEnvironment(from: inherited) == [
        "LD_PRELOAD=/opt/libjemalloc.so.2:/lib/other.so", "PATH=/bin",
      ])
    #expect(
      MeasuredAllocator.system.childEnvironment(from: inherited) == [
        "LD_PRELOAD=/lib/other.so", "PATH=/bin",
      ])
    #expect(
      MeasuredAllocator.system.childEnvironment(from: ["LD_PRELOAD": "libjemalloc.so.2"]) == [])
  }

  @Test func anUnknownAllocatorNameIsAUsageErrorOnOneLine() throws {
    let result = try runProcess(
      try builtExecutable("calldir"), ["bench", "--allocator", "tcmalloc", "--quiet"])
    #expect(result.status == 1)
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stderr.contains("tcmalloc"), "\(result.stderr)")
  }

  @Test func everyBenchRowNamesItsAllocator() throws {
    let folder = try TemporaryFolder()
    let output = folder.path("run.csv")
    let result = try runProcess(
      try builtExecutable("calldir"),
      [
        "bench", "--entries", "2000", "--strategies", "mmap", "--repeat", "1", "--quiet",
        "--cache", folder.path("cache"), "--out", output,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let records = try RunRecord.records(fromCSV: String(contentsOfFile: output, encoding: .utf8))
    #expect(!records.isEmpty)
    let expected = Self.jemallocInstalled ? "jemalloc" : "system"
    #expect(records.allSatisfy { $0.allocator == expected })
    #expect(records.allSatisfy { ($0.heapPeakBytes != nil) == Self.jemallocInstalled })
    let notices = result.stderr.components(separatedBy: "libjemalloc2").count - 1
    #expect(notices == (Self.jemallocInstalled ? 0 : 1), "\(result.stderr)")
  }
}
