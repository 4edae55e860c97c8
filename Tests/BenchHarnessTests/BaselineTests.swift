import Foundation
import TestSupport
import Testing

@testable import BenchGating
@testable import BenchMeasuring

/// The committed baseline's gate: deterministic figures compared with a threshold.
@Suite("The baseline gate")
struct BaselineTests {
  /// Three completed load rows of `strategy` with these figures.
  func records(
    _ strategy: String = "mmap", instructions: Double? = 600, allocations: Int? = 1_000,
    heap: Int? = 1_024, footprint: Int = 1_150_000
  ) -> [RunRecord] {
    (1...3).map { index in
      var record = RunRecord()
      record.profile = "ci-smoke"
      record.strategy = strategy
      record.binary = "calldir-extension"
      record.repeatIndex = index
      record.entries = 200_000
      record.entriesPerSecond = Double(10_000_000 + index)
      record.instructionsPerEntry = instructions
      record.allocations = allocations
      record.heapPeakBytes = heap
      record.footprintPeakBytes = footprint
      record.baseVersion = 3
      return record
    }
  }

  func baseline(_ records: [RunRecord]) throws -> BenchBaseline {
    var baseline = BenchBaseline(toolchain: "Swift 6.3.1", allocator: "jemalloc")
    baseline.record(records, profile: "ci-smoke")
    // What is compared is what was written and read back.
    let folder = try TemporaryFolder()
    try baseline.encoded().write(toFile: folder.path("b.json"), atomically: true, encoding: .utf8)
    return try BenchBaseline.read(folder.path("b.json"))
  }

  func compare(_ baseline: BenchBaseline, _ records: [RunRecord], toolchain: String = "Swift 6.3.1")
    -> (failures: [String], notes: [String])
  {
    let verdict = baseline.evaluate(
      records, profile: "ci-smoke", toolchain: toolchain, allocator: "jemalloc",
      maximumRegression: 0.02)
    return (verdict.failures, verdict.notes)
  }

  @Test func theSameFiguresPassAndRoundTrip() throws {
    let base = try baseline(records())
    let figures = try #require(base.profiles["ci-smoke"]?["mmap"])
    #expect(figures.instructionsPerEntry == 600)
    #expect(figures.allocationsPerEntry == 0.005)
    #expect(figures.baseVersion == 3)
    let (failures, notes) = compare(base, records())
    #expect(failures.isEmpty && notes.isEmpty, "\(failures) \(notes)")
  }

  @Test func eachRegressionIsOneLineAndSmallNoiseIsNot() throws {
    let base = try baseline(records())
    #expect(compare(base, records(instructions: 611)).failures.isEmpty, "+1.8% is under 2%")
    let heavier = compare(base, records(instructions: 613)).failures
    #expect(heavier.count == 1 && heavier[0].contains("instructions per entry 613.0"))
    #expect(compare(base, records(allocations: 1_400)).failures.count == 1)
    #expect(compare(base, records(heap: 1_024 + 65_537)).failures.count == 1)
    #expect(compare(base, records(footprint: 1_150_000 + 60_000)).failures.isEmpty)
    #expect(compare(base, records(footprint: 1_150_000 + 70_000)).failures.count == 1)
  }

  @Test func anImprovementSaysRefreshAndAMissingCountSaysSkipped() throws {
    let base = try baseline(records())
    let (failures, notes) = compare(base, records(instructions: 500))
    #expect(failures.isEmpty)
    #expect(notes.count == 1 && notes[0].contains("improved by 16.67%"))
    #expect(notes.first?.hasSuffix("refresh the baseline") == true)
    let skipped = compare(base, records(instructions: nil, allocations: nil))
    #expect(skipped.failures.isEmpty)
    #expect(skipped.notes.count == 2 && skipped.notes.allSatisfy { $0.contains("skipped") })
  }

  @Test func anotherToolchainOrAnotherInputIsRefused() throws {
    let base = try baseline(records())
    let other = compare(base, records(), toolchain: "Swift 6.4")
    #expect(other.failures.count == 1 && other.failures[0].contains("do not compare"))
    var fixedWidth = records()
    for index in fixedWidth.indices { fixedWidth[index].baseVersion = 1 }
    #expect(compare(base, fixedWidth).failures.first?.contains("not comparable") == true)
  }
}
