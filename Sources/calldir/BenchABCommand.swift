import ArgumentParser
import BenchMeasuring

/// `calldir bench ab`: this build against another, on the same data in the same run.
struct BenchABCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ab",
    abstract: "Compare this build's extension with another build's, run interleaved (A/B).",
    discussion: """
      Runs another build's calldir-extension (A, say the merge base's .build/release) and this \
      build's (B) on the same data in the same run, interleaved ABBA, and prints per calldir \
      strategy the median load time B/A with a 95% bootstrap interval and the Mann–Whitney p, \
      and both builds' instructions and allocations per entry. Scripts/ab-gate.sh BASE builds \
      the merge base and runs it.

      Exit statuses: 0 done (and, with --gate, no regression past the bars); 1 usage or input \
      error; 2 a --gate check failed (one line per failure on stderr).
      """)

  @OptionGroup var bench: StrategyBenchOptions
  @OptionGroup var recording: BenchRecordingOptions

  @Option(
    name: .long,
    help:
      "A folder with the other build's calldir-extension (A): say the merge base's .build/release.",
    completion: .directory, transform: nonEmptyPath)
  var against: String

  @Option(
    name: .long, parsing: .unconditional,
    help:
      "The rise the A/B gate tolerates, in percent: the load time's whole 95% interval past it fails.",
    transform: finiteNumber(in: OptionBounds.percent))
  var maxRegression: Double = ABComparison.defaultMaximumRegression * 100

  func validate() throws {
    guard maxRegression > 0, maxRegression < 100 else {
      throw ValidationError(
        "--max-regression must be between 0 and 100 percent, got \(maxRegression)")
    }
    if let sizes = bench.run.dataset.entries?.values, sizes.count > 1 {
      throw ValidationError("--entries takes one size in an A/B run, got \(sizes.count)")
    }
  }

  func run() throws {
    try BenchStrategiesCommand.measure(
      bench: bench, recording: recording, against: (against, maxRegression))
  }
}
