import ArgumentParser
import BenchGating
import BenchMeasuring
import BenchReporting
import Foundation

/// `calldir bench sweep`: the strategies bench at each of several sizes, and how cost grows.
struct BenchSweepCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sweep",
    abstract: "Run the strategies bench at several sizes and fit how each cost grows with N.",
    discussion: """
      --entries takes the sizes (100k,500k,1M,2M,4M; k and M allowed). Each size is read in one \
      load (--max-entries is raised past the largest); each size's table is printed, then per \
      strategy the exponent k of cost ∝ N^k for load time (on each size's fastest run), \
      footprint, heap peak and instructions per entry. With --gate, a calldir strategy whose \
      memory grows faster than N^0.02 or whose load time grows faster than N^1.1 fails; a \
      gated sweep takes --repeat 3 or more.

      Exit statuses: 0 done (and, with --gate, every check passed); 1 usage or input error; \
      2 a --gate check failed (one line per failure on stderr).
      """)

  @OptionGroup var bench: StrategyBenchOptions

  func validate() throws {
    guard let sizes = bench.run.dataset.entries?.values, sizes.count > 1 else {
      throw ValidationError("a sweep takes --entries with two sizes or more (100k,1M,4M)")
    }
    guard !bench.run.gate || bench.run.repeats >= SweepAnalysis.minimumGatedRepeats else {
      throw ValidationError(
        "a gated sweep takes --repeat \(SweepAnalysis.minimumGatedRepeats) or more (its load-time exponent is fitted on each size's fastest run), got \(bench.run.repeats)"
      )
    }
  }

  func run() throws {
    let (name, configuration) = try bench.configure()
    bench.run.noticeAllocator(configuration)
    try sweep(bench.run.dataset.entries?.values ?? [], name: name, configuration: configuration)
  }

  /// Runs the bench at each size in turn, then fits how each strategy's cost grows with N.
  func sweep(_ sizes: [Int], name: String, configuration: BenchConfiguration) throws {
    var runs: [(size: Int, records: [RunRecord])] = []
    var verdict = GateVerdict()
    for size in sizes.sorted() {
      var sized = configuration
      sized.parameters.entries = size
      // A scaling run reads each size in one load: the cap is the contract's, not the sweep's.
      sized.maximumAllowedEntries = max(configuration.maximumAllowedEntries, size + 1)
      bench.run.log("sweep: \(size) entries")
      let display = bench.run.display(command: "bench sweep \(size)")
      let records = try display.finishing { try bench.run.runner(sized, display: display).run() }
      let summaries = StrategySummary.all(records)
      print(
        BenchReport.render(
          summaries, title: "\(name): \(size) entries, \(configuration.repeats) repeats"),
        terminator: "\n")
      verdict =
        verdict
        + BenchGate(
          rssBudgetBytes: configuration.rssBudgetBytes,
          minimumEntriesPerSecond: configuration.minimumEntriesPerSecond
        ).evaluate(summaries).prefixed("\(size) entries: ")
      runs.append((size, records))
    }
    let out = bench.out ?? "Results/sweep.csv"
    try ResultFiles.writeAtomically(RunRecord.csv(runs.flatMap(\.records)), to: out)
    let chartPath = bench.chart ?? ResultFiles.sidecarPath(of: out, with: "svg")
    if let chartPath {
      try ResultFiles.writeAtomically(
        SweepChart.svg(runs: runs, title: "calldir bench: \(name), how cost grows with N"),
        to: chartPath)
    }
    let analysis = SweepAnalysis(runs)
    print(analysis.render(), terminator: "")
    print("\nwrote \(out)" + (chartPath.map { " and \($0)" } ?? " (no chart beside it)"))
    try bench.run.finishGate(
      verdict + analysis.evaluate(),
      passed:
        "gate passed: at every size every calldir strategy completed and beat every baseline; memory flat in N, time at most linear"
    )
  }
}
