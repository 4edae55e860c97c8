import BenchGating
import BenchMeasuring
import Testing

/// The gate's verdicts add up, and the compile gate decides from the same run's medians.
@Suite("Gate verdicts")
struct GateVerdictTests {
  @Test func verdictsAddUpInOrderAndTakeAPrefix() {
    let first = GateVerdict(failures: ["a"], notes: ["n"])
    let second = GateVerdict(failures: ["b"])
    let both = first + second
    #expect(both.failures == ["a", "b"] && both.notes == ["n"] && !both.passed)
    #expect((GateVerdict() + GateVerdict(notes: ["only a note"])).passed)
    #expect(first.prefixed("1000 entries: ").failures == ["1000 entries: a"])
  }

  func runs(compile: Double, sort: Double, normalize: Double?) -> [CompileBench.Run] {
    var runs: [CompileBench.Run] = []
    for index in 1...3 {
      // The medians are the middle repeat's: the others straddle it.
      let spread = Double(index - 2) * 0.1
      // CPU time as given; the wall clock a busy machine stretched three times over, for
      // compile more than for sort (the gate must not read it).
      runs.append(
        .init(
          tool: "compile", repeatIndex: index, wallSeconds: 3 * (compile + spread) + 5,
          cpuSeconds: compile + spread))
      runs.append(
        .init(
          tool: "sort -u", repeatIndex: index, wallSeconds: 3 * (sort + spread),
          cpuSeconds: sort + spread))
      if let normalize {
        runs.append(
          .init(
            tool: "normalize", repeatIndex: index, wallSeconds: 3 * normalize,
            cpuSeconds: normalize))
      }
    }
    return runs
  }

  /// On CPU time: the wall clock of each tool is three times its CPU time and more here, as on
  /// a loaded machine, and the verdicts follow the CPU figures alone.
  @Test func compileIsGatedAgainstSortOfTheSameRunOnCPUTime() {
    let bar = CompileBench.maximumCompileToSortRatio
    #expect(CompileBench.evaluate(runs(compile: 2 * bar - 0.1, sort: 2, normalize: 1)).passed)
    let slow = CompileBench.evaluate(runs(compile: 2 * bar + 0.1, sort: 2, normalize: 1))
    #expect(slow.failures.count == 1 && slow.failures[0].hasPrefix("compile takes"))
    // 1,000,000 rows a second is under the normalize floor; a missing tool fails too.
    let slowNormalize = CompileBench.evaluate(runs(compile: 2, sort: 2, normalize: 4))
    #expect(slowNormalize.failures.count == 1 && slowNormalize.failures[0].hasPrefix("normalize"))
    #expect(!CompileBench.evaluate(runs(compile: 2, sort: 2, normalize: nil)).passed)
  }

  /// Incremental rows of a region sweep: three repeats per region count around `footprints`.
  func incrementalRuns(_ footprints: [Int: Int]) -> [RunRecord] {
    var records: [RunRecord] = []
    for (regions, footprint) in footprints.sorted(by: { $0.key < $1.key }) {
      for offset in [-4096, 0, 4096] {
        var record = RunRecord()
        record.strategy = "two-phase-r\(regions)"
        record.phase = "incremental"
        record.footprintPeakBytes = footprint + offset
        record.memoryLimitBytes = 5 << 20
        records.append(record)
      }
    }
    return records
  }

  /// The incremental footprint is gated flat across a region sweep: the lowest repeat at the
  /// fewest and the most regions, and no check without a sweep.
  @Test func theIncrementalFootprintIsGatedFlatAcrossRegions() {
    let bound = TwoPhaseReport.defaultMaximumFootprintGrowth
    let flat = incrementalRuns([3: 1_400_000, 27: 1_900_000, 300: 1_400_000 + bound])
    #expect(TwoPhaseReport.evaluate(flat, maximumTimeToEnabled: 1).passed)
    let growth = TwoPhaseReport.incrementalFootprintGrowth(flat)
    #expect(growth?.regions == 3...300 && growth?.bytes == bound)
    let grown = TwoPhaseReport.evaluate(
      incrementalRuns([3: 1_400_000, 300: 1_400_000 + bound + 1]), maximumTimeToEnabled: 1)
    #expect(grown.failures.count == 1 && grown.failures[0].hasPrefix("incremental footprint"))
    #expect(TwoPhaseReport.incrementalFootprintGrowth(incrementalRuns([3: 9_000_000])) == nil)
    #expect(
      !TwoPhaseReport.evaluate(
        incrementalRuns([3: 1_000_000, 300: 1_200_000]), maximumTimeToEnabled: 1,
        maximumFootprintGrowth: 100_000
      ).passed)
  }

  /// Two repeats of three whose peaks a loaded scheduler raised (the false-alarm script's two
  /// alarms in 50) do not fail the gate; a growth every repeat shows does.
  @Test func aPeakTheSchedulerRaisedInSomeRepeatsIsNoGrowth() {
    let bound = TwoPhaseReport.defaultMaximumFootprintGrowth
    var records = incrementalRuns([3: 1_400_000, 300: 1_572_864])
    for index in records.indices where records[index].strategy == "two-phase-r300" {
      if records[index].footprintPeakBytes != 1_572_864 - 4096 {
        records[index].footprintPeakBytes += 120 * 1024
      }
    }
    // Against the old 256 KiB bar: the median (292 KiB of growth) would fail, the lowest passes.
    let oldBar = 256 * 1024
    #expect(
      TwoPhaseReport.evaluate(records, maximumTimeToEnabled: 1, maximumFootprintGrowth: oldBar)
        .passed)
    // The loaded machine's worst lowest-repeat growth (288 KiB) passes the default bar; a
    // growth past it in every repeat fails.
    #expect(
      TwoPhaseReport.evaluate(
        incrementalRuns([3: 1_400_000, 300: 1_400_000 + 288 * 1024]), maximumTimeToEnabled: 1
      ).passed)
    let everyRepeat = incrementalRuns([3: 1_400_000, 300: 1_400_000 + bound + 8192])
    #expect(!TwoPhaseReport.evaluate(everyRepeat, maximumTimeToEnabled: 1).passed)
  }
}
