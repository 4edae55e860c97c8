import ArgumentParser
import BenchHarness
import CallDirectoryHost
import Foundation
import ProcessMetrics
import ProcessSpawning

struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Measure how fast and in how little memory each strategy feeds the extension.",
    discussion: """
      Spawns the extension once per strategy and repeat, as the system would, samples its \
      footprint (RssAnon + RssShmem) from /proc at over 1 kHz, kills it past --memory-limit, and \
      writes one CSV row per run. With no arguments: the regional-2m profile, every strategy, \
      Results/latest.csv and Results/latest.svg.

      Exit statuses: 0 done (and, with --gate, every check passed); 1 usage or input error; \
      2 a --gate check failed (one line per failure on stderr).
      """)

  @OptionGroup var dataset: DatasetOptions

  @Option(
    name: .long,
    help:
      "Comma-separated strategies: mmap, buffered, baseline-2gis, baseline-jsonl, baseline-text.")
  var strategies: String = BenchStrategy.allCases.map(\.rawValue).joined(separator: ",")

  @Option(name: .customLong("repeat"), help: "Runs per strategy (medians are over these).")
  var repeats: Int = 5

  @Option(name: .long, help: "Kill a child whose footprint passes this size (like the system).")
  var memoryLimit: String = "5MiB"

  @Option(name: .long, help: "The gate's limit on peak RSS over the binary's idle peak.")
  var rssBudget: String = "1MiB"

  @Option(name: .long, help: "Kill a child that runs longer than this many seconds.")
  var timeout: Double = 120

  @Option(
    name: .long,
    help: "The system's maximumAllowedEntries; raise it to read a base over the 1,999,999 cap.")
  var maxEntries: Int = 2_000_000

  @Option(name: .long, help: "The gate's median throughput floor, in entries per second.")
  var minEntriesPerS: Double = 200_000

  @Option(
    name: .long, help: "The CSV to write (replaced atomically).",
    completion: .file(extensions: ["csv"]))
  var out: String = "Results/latest.csv"

  @Option(name: .long, help: "The SVG chart to write (default: the CSV's path with .svg).")
  var chart: String?

  @Option(
    name: .long,
    help: """
      The measured processes' allocator: auto (jemalloc when its shared library is installed, \
      else the system's), jemalloc, or system. Heap peaks need jemalloc.
      """)
  var allocator: MeasuredAllocator.Choice = .auto

  @Flag(name: .long, help: "Exit 2, with one line per failure, if a gate check fails.")
  var gate = false

  @Flag(name: .long, help: "Print only the table, not progress lines.")
  var quiet = false

  @Flag(
    name: .long,
    help: "Measure two-phase loading through the simulated system: seed set, full set, incremental."
  )
  var twoPhase = false

  @Option(
    name: .long,
    help: """
      Two-phase: regions the profile's numbers are split into; a comma-separated list (3,27,108) \
      sweeps them, one container each, to show footprint against the number of bases.
      """)
  var regions: String = "3"

  @Flag(
    name: .long,
    help: "Two-phase: compile fixed-width bases instead of the compiler's default compact ones.")
  var fixedWidth = false

  @Option(name: .long, help: "Two-phase: entries in the seed set.")
  var seedEntries: Int = 100_000

  @Option(name: .long, help: "Two-phase: entries in the blocking list.")
  var blockingEntries: Int = 100_000

  @Option(
    name: .long, help: "Two-phase gate: the most the median time to enabled may take, in seconds.")
  var maxTimeToEnabled: Double = 1.0

  func run() throws {
    let (name, parameters) = try dataset.resolve(defaultProfile: "regional-2m")
    var configuration = BenchConfiguration(profileName: name, parameters: parameters)
    configuration.strategies = try BenchStrategy.parseList(strategies)
    configuration.repeats = repeats
    configuration.memoryLimitBytes = try ByteCount.parse(memoryLimit)
    configuration.rssBudgetBytes = try ByteCount.parse(rssBudget)
    configuration.timeoutSeconds = timeout
    configuration.maximumAllowedEntries = maxEntries
    configuration.minimumEntriesPerSecond = minEntriesPerS
    configuration.cacheRoot = dataset.cache
    configuration.allocator = try MeasuredAllocator.resolve(allocator)
    try configuration.validate()
    if allocator == .auto, configuration.allocator.kind == .system {
      FileHandle.standardError.write(Data((MeasuredAllocator.installHint + "\n").utf8))
    }

    let quiet = self.quiet
    if twoPhase {
      try runTwoPhase(configuration, name: name, quiet: quiet)
      return
    }
    let runner = BenchRunner(configuration: configuration) { line in
      if !quiet { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }
    let records = try runner.run()
    try ResultFiles.writeAtomically(RunRecord.csv(records), to: out)
    let chartPath = chart ?? ResultFiles.replacingExtension(of: out, with: "svg")
    let summaries = StrategySummary.all(records)
    try ResultFiles.writeAtomically(
      BenchChart.svg(records: records, title: "calldir bench: \(name)"), to: chartPath)
    let title =
      "\(name): \(parameters.entries) entries, \(configuration.repeats) repeats, memory limit \(ByteCount.format(configuration.memoryLimitBytes))"
    print(BenchReport.render(summaries, title: title), terminator: "")
    print("\nwrote \(out) and \(chartPath)")
    if gate {
      let failures = BenchGate(
        rssBudgetBytes: configuration.rssBudgetBytes,
        minimumEntriesPerSecond: configuration.minimumEntriesPerSecond
      ).failures(summaries)
      if !failures.isEmpty {
        for failure in failures {
          FileHandle.standardError.write(Data("gate failed: \(failure)\n".utf8))
        }
        throw ExitCode(BenchGate.failedExitStatus)
      }
      print(
        "gate passed: every calldir strategy completed, stayed in memory and beat every baseline")
    }
  }

  func runTwoPhase(_ configuration: BenchConfiguration, name: String, quiet: Bool) throws {
    let sweep = regions.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
    guard !sweep.isEmpty, sweep.allSatisfy({ ($0 ?? 0) >= 1 }), seedEntries >= 1,
      blockingEntries >= 0
    else {
      throw ValidationError(
        "--regions takes whole numbers of at least 1 (3 or 3,27,108), --seed-entries at least 1, --blocking-entries 0 or more; got --regions '\(regions)'"
      )
    }
    var records: [RunRecord] = []
    for regionCount in sweep.compactMap({ $0 }) {
      let bench = TwoPhaseBench(
        configuration: configuration, regions: regionCount, seedEntries: seedEntries,
        blockingEntries: blockingEntries, compact: !fixedWidth
      ) { line in
        if !quiet { FileHandle.standardError.write(Data((line + "\n").utf8)) }
      }
      records += try bench.run()
    }
    try ResultFiles.writeAtomically(RunRecord.csv(records), to: out)
    let title =
      "\(name) two-phase: \(configuration.parameters.entries) region entries in \(regions) regions, seed \(seedEntries), blocking \(blockingEntries), \(configuration.repeats) repeats"
    print(TwoPhaseReport.render(records, title: title), terminator: "")
    print("\nwrote \(out)")
    if gate {
      let failures = TwoPhaseReport.gateFailures(records, maximumTimeToEnabled: maxTimeToEnabled)
      if !failures.isEmpty {
        for failure in failures {
          FileHandle.standardError.write(Data("gate failed: \(failure)\n".utf8))
        }
        throw ExitCode(BenchGate.failedExitStatus)
      }
      print("gate passed: every phase completed within the memory limit, enabled in time")
    }
  }
}
