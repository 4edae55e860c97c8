import Datasets
import ExtensionReport
import Foundation
import ProcessSpawning
import TestSupport
import Testing

@testable import BenchMeasuring

/// Instructions per entry come from valgrind, on a stripped copy of the measured binary.
@Suite("Instructions counted under valgrind")
struct InstructionCounterTests {
  /// Whether this machine has valgrind (CI installs it).
  static let valgrindInstalled = InstructionCounter.executableInPath("valgrind") != nil

  @Test(.enabled(if: valgrindInstalled, "needs valgrind"))
  func aLoadsCountRepeatsExactlyAndGrowsWithTheEntries() throws {
    let folder = try TemporaryFolder()
    let counter = try InstructionCounter.find(scratch: folder.path("scratch")).get()
    let extensionBinary = try builtExecutable("calldir-extension")
    func count(_ entries: Int) throws -> (Int, Int) {
      let dataset = try smallDataset(folder, entries: entries, formats: [.compactBase])
      let (instructions, outcome) = try counter.count(
        binary: extensionBinary, arguments: ["--base", dataset.path(.compactBase)],
        environment: nil, timeoutSeconds: 300)
      #expect(outcome.exitCode == 0, "\(outcome.standardError)")
      let report = try #require(outcome.report.flatMap(LoadReport.init(parsing:)))
      return (instructions, report.entries)
    }
    let (small, smallEntries) = try count(2_000)
    let (again, _) = try count(2_000)
    let (large, largeEntries) = try count(8_000)
    #expect(small > 0)
    // The same binary and input: the same count to within 1e-4 (a few hundred instructions of
    // the process's start move with its environment), where wall time moves by 20%.
    #expect(abs(again - small) <= small / 10_000, "\(small) then \(again)")
    #expect(largeEntries > smallEntries)
    let perEntry = Double(large - small) / Double(largeEntries - smallEntries)
    #expect(perEntry > 50 && perEntry < 5_000, "a load costs hundreds per entry: \(perEntry)")
  }

  /// The planted regression `Scripts/false-alarms.sh` shows the gates catch: CALLDIR_PLANTED_WORK
  /// adds work per entry, measurably (past the baseline gate's 0.5%), and changes nothing else.
  @Test(.enabled(if: valgrindInstalled, "needs valgrind"))
  func plantedWorkCostsMorePerEntryAndHandsOnTheSameEntries() throws {
    let folder = try TemporaryFolder()
    let counter = try InstructionCounter.find(scratch: folder.path("scratch")).get()
    let dataset = try smallDataset(folder, entries: 4_000, formats: [.compactBase])
    func count(_ environment: [String]?) throws -> (Int, Int) {
      let (instructions, outcome) = try counter.count(
        binary: try builtExecutable("calldir-extension"),
        arguments: ["--base", dataset.path(.compactBase)], environment: environment,
        timeoutSeconds: 300)
      #expect(outcome.exitCode == 0, "\(outcome.standardError)")
      return (instructions, try #require(outcome.report.flatMap(LoadReport.init(parsing:))).entries)
    }
    let inherited = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
    let (plain, plainEntries) = try count(inherited)
    let (planted, plantedEntries) = try count(inherited + ["CALLDIR_PLANTED_WORK=2"])
    #expect(plantedEntries == plainEntries)
    let perEntry = Double(planted - plain) / Double(plainEntries)
    #expect(perEntry >= 4, "2 steps per entry cost \(perEntry) instructions")
  }

  @Test(.enabled(if: valgrindInstalled, "needs valgrind"))
  func twoBuildsOfOneNameGetTheirOwnStrippedCopies() throws {
    let folder = try TemporaryFolder()
    let counter = try InstructionCounter.find(scratch: folder.path("scratch")).get()
    let built = try builtExecutable("calldir-extension")
    for build in ["a", "b"] {
      try FileManager.default.createDirectory(
        atPath: folder.path(build), withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        atPath: built, toPath: folder.path(build + "/calldir-extension"))
    }
    // An A/B run counts both: the second must not reuse the first's copy.
    let a = try counter.strippedCopy(of: folder.path("a/calldir-extension"))
    let b = try counter.strippedCopy(of: folder.path("b/calldir-extension"))
    #expect(a != b)
    #expect(FileManager.default.isExecutableFile(atPath: a))
    #expect(FileManager.default.isExecutableFile(atPath: b))
  }

  @Test func theSummaryLineOfCachegrindsOutputIsTheCount() {
    let text = "desc: I1 cache: none\ncmd: ./x\nevents: Ir\nsummary: 126670001\n"
    #expect(InstructionCounter.summary(ofCachegrindOutput: text) == 126_670_001)
    #expect(InstructionCounter.summary(ofCachegrindOutput: "events: Ir\n") == nil)
  }
}
