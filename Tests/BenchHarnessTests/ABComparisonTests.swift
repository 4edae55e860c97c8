import Foundation
import Testing

@testable import BenchGating
@testable import BenchMeasuring
@testable import BenchReporting

/// Two builds compared in one run: the statistics and the gate.
@Suite("A/B of two builds")
struct ABComparisonTests {
  @Test func mannWhitneyIsExactForSmallSamplesAndNormalForTies() throws {
    // Three against three, wholly apart: 2 of the 20 arrangements are as extreme, p = 0.1.
    let apart = try #require(TwoSampleStatistics.mannWhitneyP([1, 2, 3], [4, 5, 6]))
    #expect(abs(apart - 0.1) < 1e-12)
    #expect(TwoSampleStatistics.arrangementsByU(3, 3) == [1, 1, 2, 3, 3, 3, 3, 2, 1, 1])
    // Interleaved: no evidence.
    #expect(try #require(TwoSampleStatistics.mannWhitneyP([1, 3, 5], [2, 4, 6])) > 0.6)
    // Ten against ten, apart: 2 / C(20, 10).
    let ten = try #require(
      TwoSampleStatistics.mannWhitneyP((1...10).map(Double.init), (11...20).map(Double.init)))
    #expect(abs(ten - 2 / 184_756) < 1e-12)
    // Ties take the normal approximation, and identical samples give p = 1.
    #expect(TwoSampleStatistics.mannWhitneyP([1, 1, 1], [1, 1, 1]) == 1)
  }

  @Test func theMedianRatiosIntervalHoldsItAndNarrowsWithAGap() throws {
    let a = [1.00, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97, 1.00]
    let same = try #require(TwoSampleStatistics.medianRatio(a, a))
    #expect(same.ratio == 1)
    #expect(same.low <= 1 && same.high >= 1)
    let slower = try #require(TwoSampleStatistics.medianRatio(a, a.map { $0 * 1.10 }))
    #expect(abs(slower.ratio - 1.10) < 1e-9)
    #expect(slower.low > 1.02, "a 10% slowdown with 3% noise lies wholly past 2%: \(slower)")
    // Seeded: the same samples give the same interval.
    #expect(TwoSampleStatistics.medianRatio(a, a)! == same)
  }

  /// Load rows of one strategy for build `build` with these load times.
  func rows(_ build: String, _ seconds: [Double], instructions: Double = 600) -> [RunRecord] {
    seconds.enumerated().map { index, time in
      var record = RunRecord()
      record.strategy = "mmap"
      record.build = build
      record.repeatIndex = index + 1
      record.entries = 200_000
      record.loadSeconds = time
      record.instructionsPerEntry = instructions
      record.allocations = 167_555
      return record
    }
  }

  @Test func theGateFailsOnlyAWholeIntervalPastTheThresholdOrACountThatRose() {
    let a = [0.020, 0.021, 0.019, 0.020, 0.022, 0.018]
    let noise = ABComparison(rows("A", a) + rows("B", a.reversed()))
    #expect(noise.evaluate(maximumRegression: 0.02).passed)
    let slower = ABComparison(rows("A", a) + rows("B", a.map { $0 * 1.5 }))
    let timeFailures = slower.evaluate(maximumRegression: 0.02).failures
    #expect(timeFailures.count == 1 && timeFailures[0].contains("wholly above 1.020"))
    let heavier = ABComparison(rows("A", a) + rows("B", a, instructions: 630))
    #expect(heavier.evaluate(maximumRegression: 0.02).failures.first?.contains("+5.00%") == true)
    #expect(heavier.render(against: "base").contains("600.0 → 630.0"))
  }

  @Test func buildsAlternateWhichRunsFirst() {
    let measured = [
      BenchRunner.Measured(strategy: .mmap, build: "A", binary: "a/x"),
      BenchRunner.Measured(strategy: .mmap, build: "B", binary: "b/x"),
      BenchRunner.Measured(strategy: .baseline2GIS, build: "", binary: "c/y"),
      BenchRunner.Measured(strategy: .buffered, build: "A", binary: "a/x"),
      BenchRunner.Measured(strategy: .buffered, build: "B", binary: "b/x"),
    ]
    #expect(
      BenchRunner.swappingBuilds(measured).map(\.name) == [
        "mmap (B)", "mmap (A)", "baseline-2gis", "buffered (B)", "buffered (A)",
      ])
  }

  /// The A/B chart says which build is A and which is B, each ratio's interval, and the verdict:
  /// a failed gate cannot look like a pass (issue 41).
  @Test func theABChartStatesBothBuildsTheIntervalAndTheVerdict() {
    let a = [0.020, 0.021, 0.019, 0.020, 0.022, 0.018]
    let records = (rows("A", a) + rows("B", a.map { $0 * 1.5 })).map { record in
      var loaded = record
      loaded.run = .load
      loaded.status = .ok
      return loaded
    }
    let comparison = ABComparison(records)
    let failures = comparison.evaluate(maximumRegression: 0.02).failures
    let failed = BenchChart.svg(
      records: records, title: "A/B",
      ab: .init(against: "/tmp/base-build", comparison: comparison, gated: true, failures: failures)
    )
    #expect(failed.contains("A: the build in /tmp/base-build · B: this build"))
    #expect(failed.contains("mmap B/A 1.500 (95% "))
    #expect(failed.contains("gate FAILED: mmap"))
    let passed = BenchChart.svg(
      records: records, title: "A/B",
      ab: .init(against: "/tmp/base-build", comparison: comparison, gated: true, failures: []))
    #expect(passed.contains(">gate passed<") && !passed.contains("FAILED"))
    let plain = BenchChart.svg(records: records, title: "bench")
    #expect(!plain.contains("B: this build") && !plain.contains("gate "))
  }
}
