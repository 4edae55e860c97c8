import ArgumentParser
import BaseFormat
import BenchHarness
import Foundation
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
      "Comma-separated strategies: mmap, buffered, baseline-2gis, baseline-jsonl, baseline-text (default: all; calldir's two with --base).",
    transform: StrategyList.init(parsing:))
  var strategies = StrategyList.all

  @Option(name: .long, help: "The gate's limit on peak RSS over the binary's idle peak.")
  var rssBudget = ByteSize(bytes: BenchConfiguration.defaultRSSBudgetBytes)

  @Option(name: .long, help: "The gate's median throughput floor, in entries per second.")
  var minEntriesPerS: Double = 200_000

  @Option(
    name: .long,
    help:
      "The gate's ceiling on a calldir strategy's median startup (spawn to load start), seconds."
  )
  var maxStartup: Double = BenchGate.defaultMaximumStartupSeconds

  @Option(
    name: .long, help: "The CSV to write (replaced atomically).",
    completion: .file(extensions: ["csv"]))
  var out: String = "Results/latest.csv"

  @Option(
    name: .long, help: "The SVG chart to write (default: the CSV's path with .svg).",
    transform: nonEmptyPath)
  var chart: String?

  @Option(
    name: .long,
    help:
      "The base calldir's strategies read: 3 compact (what compile writes, the default) or 1 fixed width."
  )
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

  @Option(
    name: .long,
    help: "Record this run's deterministic figures in FILE (per profile; other profiles kept).",
    completion: .file(extensions: ["json"]), transform: nonEmptyPath)
  var saveBaseline: String?

  @Option(
    name: .long,
    help:
      "Compare with the figures in FILE: instructions and allocations per entry, heap peak, footprint (with --gate, a regression exits 2).",
    completion: .file(extensions: ["json"]), transform: nonEmptyPath)
  var baseline: String?

  @Option(
    name: .long,
    help:
      "The rise the A/B gate tolerates, in percent: with --against, the load time's whole 95% interval."
  )
  var maxRegression: Double = 2

  @Option(
    name: .long,
    help:
      "The rise the baseline and A/B gates tolerate in instructions per entry, in percent (they repeat to 0.002%: 0.5 catches an assertions-on build's +1.9%)."
  )
  var maxCountRegression: Double = BenchBaseline.defaultMaximumCountRegression * 100

  @Option(
    name: .long,
    help:
      "A/B: a folder with another build's calldir-extension (say the merge base's .build/release): both builds run on the same data, interleaved ABBA, and are compared.",
    completion: .directory, transform: nonEmptyPath)
  var against: String?

  @Option(
    name: .long,
    help:
      "Also write github-action-benchmark's JSON: FILE (customSmallerIsBetter: time, memory, instructions, allocations) and FILE-throughput.json (customBiggerIsBetter).",
    completion: .file(extensions: ["json"]), transform: nonEmptyPath)
  var json: String?

  @Option(
    name: .long,
    help:
      "Append a Markdown summary to FILE (say $GITHUB_STEP_SUMMARY): the verdict, each strategy's figures, changes with intervals, failures, the chart's link.",
    completion: .file(extensions: ["md"]), transform: nonEmptyPath)
  var summary: String?

  @Option(
    name: .long,
    help: "Where the summary links the chart (an artifact URL); default: the chart's path.")
  var chartLink: String?

  func validate() throws {
    _ = try nonEmptyPath(out)
    guard maxStartup > 0 else { throw ValidationError("--max-startup must be positive") }
    guard maxRegression > 0, maxRegression < 100 else {
      throw ValidationError(
        "--max-regression must be between 0 and 100 percent, got \(maxRegression)")
    }
    guard maxCountRegression > 0, maxCountRegression < 100 else {
      throw ValidationError(
        "--max-count-regression must be between 0 and 100 percent, got \(maxCountRegression)")
    }
  }

  func run() throws {
    let (name, configuration) = try configure()
    let baselineFile = try baseline.map { path throws(BenchError) in try BenchBaseline.read(path) }
    let sizes = options.dataset.entries?.values ?? [configuration.parameters.entries]
    if sizes.count > 1 {
      guard baseline == nil, saveBaseline == nil, against == nil else {
        throw ValidationError(
          "a sweep (--entries with a list) takes no --baseline, --save-baseline or --against")
      }
      guard !options.gate || configuration.repeats >= SweepAnalysis.minimumGatedRepeats else {
        throw ValidationError(
          "a gated sweep takes --repeat \(SweepAnalysis.minimumGatedRepeats) or more (its load-time exponent is fitted on each size's fastest run), got \(configuration.repeats)"
        )
      }
      options.noticeAllocator(configuration)
      return try sweep(sizes, name: name, configuration: configuration)
    }
    options.noticeAllocator(configuration)

    let records = try BenchRunner(configuration: configuration, log: options.log).run()
    let written = try writeResults(records, name: name, configuration: configuration)
    let verdict = try evaluate(
      records, summaries: written.summaries, name: name, configuration: configuration,
      baselineFile: baselineFile)
    if let saveBaseline {
      try save(records, name: name, configuration: configuration, to: saveBaseline)
    }
    if let summary {
      let markdown = BenchSummary.markdown(
        title: written.title, summaries: written.summaries,
        failures: options.gate ? verdict.gate.failures : [], gated: options.gate,
        baselineNotes: verdict.baselineNotes, comparison: verdict.comparison,
        chartLink: chartLink ?? written.chartPath)
      try BenchSummary.append(markdown, to: summary)
      print("appended the summary to \(summary)")
    }
    try options.finishGate(
      verdict.gate,
      passed:
        "gate passed: every calldir strategy completed, stayed in memory and beat every baseline")
  }

  /// The run's name (the profile's, or the base's) and configuration, from the options.
  private func configure() throws -> (String, BenchConfiguration) {
    var (name, configuration) = try options.configuration(
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
      name = (base as NSString).lastPathComponent
      // The rows describe the base, not the default profile nobody generated.
      configuration.profileName = "base:" + name
    }
    try configuration.validate()
    return (name, configuration)
  }

  /// Writes the CSV, the chart and (with `--json`) the dashboard files, and prints the table.
  private func writeResults(_ records: [RunRecord], name: String, configuration: BenchConfiguration)
    throws -> (summaries: [StrategySummary], title: String, chartPath: String)
  {
    try ResultFiles.writeAtomically(RunRecord.csv(records), to: out)
    let chartPath = chart ?? ResultFiles.replacingExtension(of: out, with: "svg")
    let summaries = StrategySummary.all(records)
    // A blocking base holds numbers only, while the articles' readers parse labels: their
    // ratios compare unlike work, and the chart and table say so.
    let unlike =
      configuration.parameters.kind == "blocking" && summaries.contains(where: \.isBaseline)
      ? " — blocking: numbers only; the articles' readers parse labels (unlike work)"
      : ""
    try ResultFiles.writeAtomically(
      BenchChart.svg(records: records, title: "calldir bench: \(name)\(unlike)"), to: chartPath)
    let entries =
      configuration.baseFile == nil
      ? configuration.parameters.entries : summaries.map(\.entries).max() ?? 0
    let title =
      "\(name): \(entries) entries, \(configuration.repeats) repeats, memory limit \(ByteCount.format(configuration.memoryLimitBytes))"
    print(BenchReport.render(summaries, title: title + unlike), terminator: "")
    print("\nwrote \(out) and \(chartPath)")
    if let json {
      let (bigger, smaller) = try BenchmarkJSON.files(records, profile: name)
      let throughput = BenchmarkJSON.throughputPath(beside: json)
      try ResultFiles.writeAtomically(smaller, to: json)
      try ResultFiles.writeAtomically(bigger, to: throughput)
      print("wrote \(json) and \(throughput)")
    }
    return (summaries, title + unlike, chartPath)
  }

  /// Every check of a run: the gate's floors and budgets, the committed baseline's counts (with
  /// `--baseline`), and the A/B comparison (with `--against`), each printed as it is made.
  private func evaluate(
    _ records: [RunRecord], summaries: [StrategySummary], name: String,
    configuration: BenchConfiguration, baselineFile: BenchBaseline?
  ) throws -> (gate: GateVerdict, baselineNotes: [String], comparison: ABComparison?) {
    var verdict = BenchGate(
      rssBudgetBytes: configuration.rssBudgetBytes,
      minimumEntriesPerSecond: configuration.minimumEntriesPerSecond,
      maximumStartupSeconds: configuration.maximumStartupSeconds
    ).evaluate(summaries)
    var baselineNotes: [String] = []
    var comparisonForSummary: ABComparison?
    if let baselineFile, let baseline {
      let againstBaseline = baselineFile.evaluate(
        records, profile: name, toolchain: BenchBaseline.currentToolchain(),
        allocator: configuration.allocator.description,
        maximumRegression: maxCountRegression / 100)
      print("\nagainst the baseline \(baseline):")
      for line in againstBaseline.failures { print("  regression: \(line)") }
      for line in againstBaseline.notes { print("  \(line)") }
      if againstBaseline.failures.isEmpty { print("  no regression") }
      baselineNotes =
        againstBaseline.notes.isEmpty && againstBaseline.passed
        ? ["no regression"] : againstBaseline.notes
      verdict = verdict + GateVerdict(failures: againstBaseline.failures)
    }
    if let against {
      let comparison = ABComparison(records)
      print("")
      print(comparison.render(against: against), terminator: "")
      verdict =
        verdict
        + comparison.evaluate(
          maximumRegression: maxRegression / 100, maximumCountRegression: maxCountRegression / 100)
      comparisonForSummary = comparison
    }
    return (verdict, baselineNotes, comparisonForSummary)
  }

  /// Records this run's deterministic figures in the baseline file at `path`, keeping its other
  /// profiles when the toolchain and allocator are the same.
  private func save(
    _ records: [RunRecord], name: String, configuration: BenchConfiguration, to path: String
  ) throws {
    let toolchain = BenchBaseline.currentToolchain()
    let allocator = configuration.allocator.description
    var file = BenchBaseline(toolchain: toolchain, allocator: allocator)
    if let existing = try? BenchBaseline.read(path), existing.toolchain == toolchain,
      existing.allocator == allocator
    {
      file = existing
    }
    file.record(records, profile: name)
    try ResultFiles.writeAtomically(try file.encoded(), to: path)
    print("wrote the baseline \(path)")
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
      options.log("sweep: \(size) entries")
      let records = try BenchRunner(configuration: sized, log: options.log).run()
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
    try ResultFiles.writeAtomically(RunRecord.csv(runs.flatMap(\.records)), to: out)
    let chartPath = chart ?? ResultFiles.replacingExtension(of: out, with: "svg")
    try ResultFiles.writeAtomically(
      SweepChart.svg(runs: runs, title: "calldir bench: \(name), how cost grows with N"),
      to: chartPath)
    let analysis = SweepAnalysis(runs)
    print(analysis.render(), terminator: "")
    print("\nwrote \(out) and \(chartPath)")
    try options.finishGate(
      verdict + analysis.evaluate(),
      passed:
        "gate passed: at every size every calldir strategy completed and beat every baseline; memory flat in N, time at most linear"
    )
  }
}
