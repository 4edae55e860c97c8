import ArgumentParser
import BenchGating
import BenchMeasuring
import BenchReporting
import Foundation

/// What a strategies run records beyond its CSV, and what it is compared with: the committed
/// baseline, the dashboard's JSON, the step summary (`bench strategies` and `bench ab`).
struct BenchRecordingOptions: ParsableArguments {
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
    name: .long, parsing: .unconditional,
    help:
      "The rise the baseline and A/B gates tolerate in instructions per entry, in percent (they repeat to 0.002%: 0.5 catches an assertions-on build's +1.9%).",
    transform: finiteNumber(in: OptionBounds.percent))
  var maxCountRegression: Double = BenchBaseline.defaultMaximumCountRegression * 100

  @Option(
    name: .long,
    help:
      "Also write github-action-benchmark's JSON: FILE (customSmallerIsBetter: time, memory, instructions, allocations) and FILE-throughput.json (customBiggerIsBetter), and Bencher's BMF JSON, FILE-bmf.json (bench.json gives bench-throughput.json and bench-bmf.json).",
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
    guard maxCountRegression > 0, maxCountRegression < 100 else {
      throw ValidationError(
        "--max-count-regression must be between 0 and 100 percent, got \(maxCountRegression)")
    }
  }

  /// Every check of a run: the gate's floors and budgets, the committed baseline's counts (with
  /// `--baseline`), and the A/B comparison (with `--against`), each printed as it is made.
  func evaluate(
    _ records: [RunRecord], summaries: [StrategySummary], name: String,
    configuration: BenchConfiguration, baselineFile: BenchBaseline?,
    against: (folder: String, maxRegression: Double)?
  ) throws -> (gate: GateVerdict, baselineNotes: [String], comparison: ABComparison?) {
    var verdict = BenchGate(
      rssBudgetBytes: configuration.rssBudgetBytes,
      minimumEntriesPerSecond: configuration.minimumEntriesPerSecond,
      maximumStartupSeconds: configuration.maximumStartupSeconds
    ).evaluate(summaries)
    var baselineNotes: [String] = []
    var comparisonForSummary: ABComparison?
    if let baseline, let baselineFile {
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
      print(comparison.render(against: against.folder), terminator: "")
      verdict =
        verdict
        + comparison.evaluate(
          maximumRegression: against.maxRegression / 100,
          maximumCountRegression: maxCountRegression / 100)
      comparisonForSummary = comparison
    }
    return (verdict, baselineNotes, comparisonForSummary)
  }

  /// Records this run's deterministic figures in the baseline file at `path`, keeping its other
  /// profiles when the toolchain and allocator are the same.
  func save(
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
}
