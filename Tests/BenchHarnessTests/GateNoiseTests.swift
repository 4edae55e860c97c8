import Foundation
import TestSupport
import Testing

@testable import BenchGating
@testable import BenchMeasuring
@testable import BenchReporting

/// Gates that do not flake and do not let a regression through (issue 29, items 4–6): a sweep's
/// load-time exponent fitted on each size's fastest run, a projected device time over the
/// target failing the two-phase gate, the 0.5% default on instruction counts, and the pull
/// request's Markdown summary.
@Suite("Gates as tight as their noise")
struct GateNoiseTests {
  /// Three repeats at `size`: linear work, with one run slowed `slowdown` times (a busy minute).
  func records(size: Int, slowdown: Double, slowRepeats: Set<Int>) -> [RunRecord] {
    (1...3).map { index in
      var record = RunRecord()
      record.strategy = "mmap"
      record.repeatIndex = index
      record.entries = size
      record.loadSeconds = 1e-8 * Double(size) * (slowRepeats.contains(index) ? slowdown : 1)
      record.entriesPerSecond = Double(size) / record.loadSeconds
      record.footprintPeakBytes = 1_000_000
      return record
    }
  }

  @Test func aBusyMinuteAtTheLargestSizeDoesNotBendTheLoadTimeExponent() throws {
    // Two of three runs at 4M slowed 3x: the medians fit N^1.3 and would fail the N^1.1 gate.
    let runs = [100_000, 500_000, 1_000_000, 4_000_000].map { size in
      (size, records(size: size, slowdown: 3, slowRepeats: size == 4_000_000 ? [1, 2] : []))
    }
    let row = try #require(SweepAnalysis(runs).rows.first)
    #expect(abs(try #require(row.loadTime) - 1) < 1e-9)
    #expect(SweepAnalysis(runs).evaluate().passed)
    // A real superlinear cost still fails: every run at 4M is slower.
    let superlinear = [100_000, 500_000, 1_000_000, 4_000_000].map { size in
      (size, records(size: size, slowdown: 3, slowRepeats: size == 4_000_000 ? [1, 2, 3] : []))
    }
    #expect(
      SweepAnalysis(superlinear).evaluate().failures.contains { $0.contains("load time grows") })
  }

  @Test func aProjectedTimeToEnabledOverTheTargetFailsTheTwoPhaseGate() {
    var record = RunRecord()
    record.phase = "seed"
    record.status = .ok
    record.memoryLimitBytes = 5 << 20
    record.timeToEnabledSeconds = 0.3
    record.device = "iphone-se-2"
    record.deviceTimeToEnabledSeconds = 2.5
    let failures = TwoPhaseReport.evaluate([record], maximumTimeToEnabled: 1).failures
    #expect(
      failures == ["time to enabled projected on iphone-se-2: median 2.500 s is over 1.000 s"])
    record.deviceTimeToEnabledSeconds = 0.8
    #expect(TwoPhaseReport.evaluate([record], maximumTimeToEnabled: 1).passed)
  }

  /// This machine's wall-clock time to enabled is gated only when asked for: a busy runner took
  /// ci-smoke's from 0.12 s to 0.71 s (issue 41), and a projection from counts does not move.
  @Test func theWallClockTimeToEnabledIsGatedOnlyWhenAskedFor() {
    var record = RunRecord()
    record.phase = "seed"
    record.status = .ok
    record.memoryLimitBytes = 5 << 20
    record.timeToEnabledSeconds = 1.4
    #expect(
      TwoPhaseReport.evaluate([record], maximumTimeToEnabled: 1, gatesWallClock: false).passed)
    #expect(
      TwoPhaseReport.evaluate([record], maximumTimeToEnabled: 1, gatesWallClock: true).failures
        == ["time to enabled: median 1.400 s is over 1.000 s"])
  }

  /// The startup check reads the CPU time used by load start, not the wall clock: a run that
  /// waited 25 ms for a core on a busy runner (issue 41: "median startup 25.4 ms … over 10.0 ms"
  /// failed an A/A run) passes, and a start that burns 12 ms of CPU fails.
  @Test func aSlowStartFailsTheGateAndAWaitForACoreDoesNot() {
    func records(startup: Double, waiting: Double = 0) -> [RunRecord] {
      (1...3).map { index in
        var record = RunRecord()
        record.strategy = "mmap"
        record.binary = "calldir-extension"
        record.repeatIndex = index
        record.entries = 1000
        record.loadSeconds = 0.001
        record.entriesPerSecond = 1_000_000
        record.memoryLimitBytes = 5 << 20
        record.startupCPUSeconds = startup + Double(index) * 0.0001
        record.startupSeconds = startup + waiting + Double(index) * 0.0001
        return record
      }
    }
    let gate = BenchGate(
      rssBudgetBytes: 1 << 20, minimumEntriesPerSecond: 1,
      maximumStartupSeconds: BenchConfiguration.defaultMaximumStartupSeconds)
    #expect(gate.evaluate(StrategySummary.all(records(startup: 0.004))).passed)
    #expect(gate.evaluate(StrategySummary.all(records(startup: 0.002, waiting: 0.025))).passed)
    let slow = gate.evaluate(StrategySummary.all(records(startup: 0.012))).failures
    #expect(slow == ["mmap: median startup 12.2 ms of CPU (exec to load start) is over 10.0 ms"])
    // The columns round-trip through the CSV.
    let parsed = try? RunRecord.records(fromCSV: RunRecord.csv(records(startup: 0.004)))
    #expect(parsed?.map(\.startupCPUSeconds) == [0.0041, 0.0042, 0.0043])
    #expect(parsed?.map(\.startupSeconds) == [0.0041, 0.0042, 0.0043])
  }

  @Test func theCountGateDefaultsToHalfAPercent() throws {
    #expect(BenchBaseline.defaultMaximumCountRegression == 0.005)
    var record = RunRecord()
    record.strategy = "mmap"
    record.binary = "calldir-extension"
    record.entries = 1000
    record.instructionsPerEntry = 380
    record.allocator = "jemalloc"
    var baseline = BenchBaseline(toolchain: "t", allocator: "jemalloc")
    baseline.record([record], profile: "p")
    // +0.4% passes, +0.6% fails.
    for (rise, fails) in [(1.004, false), (1.006, true)] {
      var now = record
      now.instructionsPerEntry = 380 * rise
      let failures = baseline.evaluate(
        [now], profile: "p", toolchain: "t", allocator: "jemalloc",
        maximumRegression: BenchBaseline.defaultMaximumCountRegression
      ).failures
      #expect(failures.isEmpty == !fails, "\(rise): \(failures)")
    }
  }

  @Test func theSummaryGivesTheVerdictTheFiguresAndTheFailures() {
    var record = RunRecord()
    record.strategy = "mmap"
    record.binary = "calldir-extension"
    record.entries = 200_000
    record.loadSeconds = 0.0062
    record.entriesPerSecond = 200_000 / 0.0062
    record.footprintPeakBytes = 1_100_000
    record.instructionsPerEntry = 380.1
    let summaries = StrategySummary.all([record])
    let failed = BenchSummary.markdown(
      title: "ci-smoke", summaries: summaries, failures: ["mmap: instructions per entry +4.00%"],
      gated: true, baselineNotes: [], comparison: nil, chartLink: "https://example.com/a/latest.svg"
    )
    #expect(failed.hasPrefix("## calldir bench — ❌ 1 failure\n"))
    #expect(failed.contains("| mmap | 0.0062 |"))
    #expect(failed.contains("380.1"))
    #expect(failed.contains("- mmap: instructions per entry +4.00%"))
    #expect(failed.contains("[latest.svg](https://example.com/a/latest.svg)"))
    let passed = BenchSummary.markdown(
      title: "ci-smoke", summaries: summaries, failures: [], gated: true,
      baselineNotes: ["no regression"], comparison: nil, chartLink: nil)
    #expect(passed.hasPrefix("## calldir bench — ✅ passed\n"))
    #expect(!passed.contains("Failures"))
  }
}
