import ArgumentParser
import BenchHarness
import ProcessMetrics

/// `calldir bench strategies` (and plain `calldir bench`): each loader strategy and the articles'
/// readers, spawned as the system would.
struct BenchStrategiesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "strategies",
    abstract: "Measure each strategy and the articles' readers (the default bench).",
    discussion: """
      Spawns the extension once per strategy and repeat, as the system would, samples its \
      footprint (RssAnon + RssShmem) from /proc at over 1 kHz, kills it past --memory-limit, and \
      writes one CSV row per run. With no arguments: the regional-2m profile, every strategy, \
      Results/latest.csv and Results/latest.svg.

      Exit statuses: 0 done (and, with --gate, every check passed); 1 usage or input error; \
      2 a --gate check failed (one line per failure on stderr).
      """)

  @OptionGroup var options: BenchRunOptions

  @Option(
    name: .long,
    help:
      "Comma-separated strategies: mmap, buffered, baseline-2gis, baseline-jsonl, baseline-text.")
  var strategies: String = BenchStrategy.allCases.map(\.rawValue).joined(separator: ",")

  @Option(name: .long, help: "The gate's limit on peak RSS over the binary's idle peak.")
  var rssBudget = ByteSize(bytes: 1 << 20)

  @Option(name: .long, help: "The gate's median throughput floor, in entries per second.")
  var minEntriesPerS: Double = 200_000

  @Option(
    name: .long, help: "The CSV to write (replaced atomically).",
    completion: .file(extensions: ["csv"]))
  var out: String = "Results/latest.csv"

  @Option(name: .long, help: "The SVG chart to write (default: the CSV's path with .svg).")
  var chart: String?

  func run() throws {
    var (name, configuration) = try options.configuration(defaultProfile: "regional-2m")
    configuration.strategies = try BenchStrategy.parseList(strategies)
    configuration.rssBudgetBytes = rssBudget.bytes
    configuration.minimumEntriesPerSecond = minEntriesPerS
    try configuration.validate()
    options.noticeAllocator(configuration)

    let records = try BenchRunner(configuration: configuration, log: options.log).run()
    try ResultFiles.writeAtomically(RunRecord.csv(records), to: out)
    let chartPath = chart ?? ResultFiles.replacingExtension(of: out, with: "svg")
    let summaries = StrategySummary.all(records)
    try ResultFiles.writeAtomically(
      BenchChart.svg(records: records, title: "calldir bench: \(name)"), to: chartPath)
    let title =
      "\(name): \(configuration.parameters.entries) entries, \(configuration.repeats) repeats, memory limit \(ByteCount.format(configuration.memoryLimitBytes))"
    print(BenchReport.render(summaries, title: title), terminator: "")
    print("\nwrote \(out) and \(chartPath)")
    try options.finishGate(
      failures: BenchGate(
        rssBudgetBytes: configuration.rssBudgetBytes,
        minimumEntriesPerSecond: configuration.minimumEntriesPerSecond
      ).failures(summaries),
      passed:
        "gate passed: every calldir strategy completed, stayed in memory and beat every baseline")
  }
}
