import ArgumentParser
import BaseFormat
import BenchMeasuring
import BenchReporting
import Foundation
import ProcessMetrics

/// What every strategies bench measures and where it writes: `bench strategies`, `bench sweep`
/// and `bench ab` share these (and ``BenchRunOptions``, the dataset and the system's limits).
struct StrategyBenchOptions: ParsableArguments {
  @OptionGroup var run: BenchRunOptions

  @Option(
    name: .long,
    help:
      "Comma-separated strategies: mmap, buffered, baseline-2gis, baseline-jsonl, baseline-text (default: all; calldir's two with --base).",
    transform: StrategyList.init(parsing:))
  var strategies = StrategyList.all

  @Option(name: .long, help: "The gate's limit on peak RSS over the binary's idle peak.")
  var rssBudget = ByteSize(bytes: BenchConfiguration.defaultRSSBudgetBytes)

  @Option(
    name: .long, parsing: .unconditional,
    help: "The gate's median throughput floor, in entries per second.",
    transform: finiteNumber(in: 0...1e12))
  var minEntriesPerS: Double = 200_000

  @Option(
    name: .long, parsing: .unconditional,
    help:
      "The gate's ceiling on a calldir strategy's median startup CPU time (exec to load start, not the wall clock, which grows on a busy machine), seconds.",
    transform: finiteNumber(in: OptionBounds.seconds))
  var maxStartup: Double = BenchConfiguration.defaultMaximumStartupSeconds

  @Option(
    name: .long,
    help:
      "The CSV to write, replaced atomically (default: Results/latest.csv; Results/sweep.csv for a sweep).",
    completion: .file(extensions: ["csv"]), transform: nonEmptyPath)
  var out: String?

  /// Where a single run writes its CSV.
  var csvPath: String { out ?? "Results/latest.csv" }

  @Option(
    name: .long, help: "The SVG chart to write (default: the CSV's path with .svg).",
    transform: nonEmptyPath)
  var chart: String?

  @Option(
    name: .long, parsing: .unconditional,
    help:
      "The base calldir's strategies read: 3 compact (what compile writes, the default) or 1 fixed width.",
    transform: wholeNumber(in: OptionBounds.count))
  var baseVersion: Int = Int(BaseHeader.compactVersion)

  @Option(
    name: .long,
    help:
      "Bench a base your team compiled (calldir compile, bases/NAME.….cdb) instead of a generated dataset: calldir's strategies only.",
    completion: .file(extensions: ["cdb"]), transform: nonEmptyPath)
  var base: String?

  @Option(
    name: .long,
    help:
      "Count instructions per entry under valgrind (one extra run per strategy): auto (calldir's strategies, when valgrind is installed), all (the articles' readers too; slow), off."
  )
  var instructions: InstructionCounting = .auto

  func validate() throws {
    guard maxStartup > 0 else { throw ValidationError("--max-startup must be positive") }
  }

  /// The run's name (the profile's, or the base's) and configuration, from the options.
  func configure(against: String? = nil) throws -> (String, BenchConfiguration) {
    var (name, configuration) = try run.configuration(
      defaultProfile: "regional-2m", sweeping: true)
    configuration.strategies = strategies.strategies
    configuration.rssBudgetBytes = rssBudget.bytes
    configuration.minimumEntriesPerSecond = minEntriesPerS
    configuration.maximumStartupSeconds = maxStartup
    configuration.baseVersion = baseVersion
    configuration.instructionCounting = instructions
    configuration.againstDirectory = against
    if let base {
      configuration.baseFile = base
      // The default list names the articles' readers, which cannot read a base.
      if strategies == .all {
        configuration.strategies = BenchStrategy.allCases.filter { !$0.isBaseline }
      }
      // Without its content hash: the same region's runs stay one series as its data changes.
      name = BaseSeriesName.of(fileName: (base as NSString).lastPathComponent)
      // The rows describe the base, not the default profile nobody generated.
      configuration.profileName = "base:" + name
    }
    try configuration.validate()
    return (name, configuration)
  }

  /// Writes the CSV, the chart and (with `--json`) the dashboard files, and prints the table.
  /// - Parameters:
  ///   - records: the runs' rows.
  ///   - name: the profile's name, for the titles.
  ///   - configuration: the bench's configuration.
  ///   - json: github-action-benchmark's JSON file to write too, if any.
  ///   - drawingChart: false when the caller draws the chart itself later (an A/B run draws it
  ///     once, with its verdict: a FIFO is read once).
  func writeResults(
    _ records: [RunRecord], name: String, configuration: BenchConfiguration, json: String? = nil,
    drawingChart: Bool = true
  )
    throws -> (summaries: [StrategySummary], title: String, chartPath: String?)
  {
    try ResultFiles.writeAtomically(RunRecord.csv(records), to: csvPath)
    let chartPath = chart ?? ResultFiles.sidecarPath(of: csvPath, with: "svg")
    let summaries = StrategySummary.all(records)
    // A blocking base holds numbers only, while the articles' readers parse labels: their
    // ratios compare unlike work, and the chart and table say so.
    let unlike =
      configuration.parameters.kind == "blocking" && summaries.contains(where: \.isBaseline)
      ? " — blocking: numbers only; the articles' readers parse labels (unlike work)"
      : ""
    if drawingChart, let chartPath {
      try ResultFiles.writeAtomically(
        BenchChart.svg(records: records, title: "calldir bench: \(name)\(unlike)"), to: chartPath)
    }
    let entries =
      configuration.baseFile == nil
      ? configuration.parameters.entries : summaries.map(\.entries).max() ?? 0
    let title =
      "\(name): \(entries) entries, \(configuration.repeats) repeats, memory limit \(ByteCount.format(configuration.memoryLimitBytes))"
    print(BenchReport.render(summaries, title: title + unlike), terminator: "")
    print("\nwrote \(csvPath)" + (chartPath.map { " and \($0)" } ?? " (no chart beside it)"))
    if let json {
      let (bigger, smaller) = try BenchmarkJSON.files(records, profile: name)
      let throughput = BenchmarkJSON.throughputPath(beside: json)
      let bencher = BencherMetricFormat.path(beside: json)
      try ResultFiles.writeAtomically(smaller, to: json)
      try ResultFiles.writeAtomically(bigger, to: throughput)
      try ResultFiles.writeAtomically(BencherMetricFormat.file(records), to: bencher)
      print("wrote \(json), \(throughput) and \(bencher) (Bencher's BMF)")
    }
    return (summaries, title + unlike, chartPath)
  }
}
