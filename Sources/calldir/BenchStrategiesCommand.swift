import ArgumentParser
import BaseFormat
import BenchGating
import BenchMeasuring
import BenchReporting
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

  @OptionGroup var bench: StrategyBenchOptions
  @OptionGroup var recording: BenchRecordingOptions

  func validate() throws {
    if let sizes = bench.run.dataset.entries?.values, sizes.count > 1 {
      throw ValidationError(
        "--entries takes one size here; calldir bench sweep measures a list (\(sizes.count) sizes)")
    }
  }

  func run() throws {
    try Self.measure(bench: bench, recording: recording, against: nil)
  }

  /// One run of every strategy: the CSV, chart and table, then every check (the gate's floors,
  /// the baseline, the A/B comparison when `against` names another build), the baseline saved,
  /// the summary appended, and the gate's verdict.
  static func measure(
    bench: StrategyBenchOptions, recording: BenchRecordingOptions,
    against: (folder: String, maxRegression: Double)?
  ) throws {
    let (name, configuration) = try bench.configure(against: against?.folder)
    // Every output checked before the runs: a --out in a folder that does not exist (or the
    // default Results/ run from another folder) fails at once, not after minutes of runs.
    for path in [
      bench.csvPath, bench.chart, recording.json, recording.summary, recording.saveBaseline,
    ] {
      if let path { try ResultFiles.checkWritable(path) }
    }
    // Read before the runs: a baseline that cannot be read fails at once, not after minutes.
    let baselineFile = try recording.baseline.map { path throws(BenchError) in
      try BenchBaseline.read(path)
    }
    bench.run.noticeAllocator(configuration)
    let display = bench.run.display(command: "bench")
    let records = try display.finishing {
      try bench.run.runner(configuration, display: display).run()
    }
    let written = try bench.writeResults(
      records, name: name, configuration: configuration, json: recording.json,
      drawingChart: against == nil)
    let verdict = try recording.evaluate(
      records, summaries: written.summaries, name: name, configuration: configuration,
      baselineFile: baselineFile, against: against)
    // An A/B chart states its verdict: drawn once the gate has spoken.
    if let against, let chartPath = written.chartPath {
      let svg =
        verdict.comparison.map { comparison in
          BenchChart.svg(
            records: records, title: "calldir bench: \(name) (A/B)",
            ab: BenchChart.ABVerdict(
              against: against.folder, comparison: comparison, gated: bench.run.gate,
              failures: verdict.gate.failures))
        } ?? BenchChart.svg(records: records, title: "calldir bench: \(name)")
      try ResultFiles.writeAtomically(svg, to: chartPath)
    }
    if let saveBaseline = recording.saveBaseline {
      try recording.save(records, name: name, configuration: configuration, to: saveBaseline)
    }
    if let summary = recording.summary {
      let markdown = BenchSummary.markdown(
        title: written.title, summaries: written.summaries,
        failures: bench.run.gate ? verdict.gate.failures : [], gated: bench.run.gate,
        baselineNotes: verdict.baselineNotes, comparison: verdict.comparison,
        chartLink: recording.chartLink ?? written.chartPath ?? "")
      try BenchSummary.append(markdown, to: summary)
      print("appended the summary to \(summary)")
    }
    try bench.run.finishGate(
      verdict.gate,
      passed:
        "gate passed: every calldir strategy completed, stayed in memory and beat every baseline")
  }
}
