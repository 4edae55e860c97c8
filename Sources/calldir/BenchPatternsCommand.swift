import ArgumentParser
import BenchMeasuring
import BenchReporting
import Foundation
import ProcessSpawning
import SystemCalls

/// `calldir bench patterns`: France's telemarketing plan installed by calldir's rule bases and
/// by the anchor's method (saracroche), side by side.
struct BenchPatternsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "patterns",
    abstract:
      "Install France's telemarketing plan by calldir's rule bases and by the anchor's method.",
    discussion: """
      Writes the plan (ARCEP's twelve prefixes, each followed by --wildcards '#'), then per \
      repeat, alternating which goes first, installs it through a fresh simulated system two \
      ways. calldir: compile --block-patterns into a rule base, host enable, then app sync \
      (--chunk-entries 1999999) until nothing is pending. saracroche (cbouvat/saracroche-ios, \
      modelled faithfully in calldir-baselines): the app expands each pattern into strings and \
      hands the extension 5,000 numbers a request through the App Group's shared defaults, \
      1,000,000 numbers per background run. Reports the requests, the time, the app process's \
      peak RSS (the simulated system's store included, for both) and the extension's footprint \
      peak beside its idle footprint (the enabling request's), medians over --repeat. The \
      anchor's extension is Foundation, whose idle footprint on Linux is several times \
      Darwin's, so its memory limit is lifted to measure it; one CSV row per method and repeat, and a chart beside it.

      With --scales, measures instead the first two requests of plans of 12 M, 120 M and 1.2 B \
      numbers (the full set's complete request and the first incremental chunk, 1,999,999 \
      entries each): the extension's CPU time and the request's time, per plan and repeat, \
      into --out (default .calldir/bench/pattern-scales.csv). A request's cost must not grow \
      with the plan.

      Exit statuses: 0 done; 1 usage or input error, a tool failed, or a store does not hold \
      the whole plan.
      """)

  @Option(
    name: .customLong("repeat"), parsing: .unconditional,
    help: "Runs of each method (medians are over these).",
    transform: wholeNumber(in: OptionBounds.repeats))
  var repeats: Int = 3
  @Option(
    name: .long, parsing: .unconditional,
    help: "'#' after each prefix: 6 is the plan (12 M numbers); 4 makes a quick run (120,000).",
    transform: wholeNumber(in: 1...6))
  var wildcards: Int = 6
  @Option(name: .long, help: "The CSV to write.", completion: .file())
  var out: String = ".calldir/bench/patterns.csv"
  @Option(name: .long, help: "The folder the runs work in.", completion: .directory)
  var work: String = ".calldir/bench/patterns"
  @Flag(
    name: .long,
    help: "Measure the first two requests of 12 M, 120 M and 1.2 B number plans instead.")
  var scales = false

  func validate() throws {
    _ = try nonEmptyPath(out)
    _ = try nonEmptyPath(work)
  }

  func run() async throws {
    if scales { return try await runScales() }
    // Checked before the runs, not after them.
    do {
      try ResultFiles.checkWritable(out)
    } catch {
      throw ValidationError("\(error)")
    }
    var bench = PatternBench(binaryDirectory: SiblingExecutables.directory(), work: work)
    bench.repeats = repeats
    bench.wildcards = wildcards
    let rows: [PatternBench.Row]
    do {
      rows = try bench.run { StandardError.write("bench patterns: \($0)\n") }
      let expected = PatternBench.frenchPrefixes.count * Int(pow(10, Double(wildcards)))
      for row in rows where row.storeEntries < expected {
        throw BenchError(
          "\(row.method) run \(row.repeatIndex): the store holds \(row.storeEntries) of the plan's \(expected) numbers"
        )
      }
      try ResultFiles.writeAtomically(PatternBench.csv(rows).encoded(), to: out)
      // No chart beside what is not a regular file: `--out /dev/null` would make
      // `/dev/null.svg` as root (issue 65, item 15).
      if let chart = ResultFiles.sidecarPath(of: out, with: "svg") {
        try ResultFiles.writeAtomically(
          PatternChart.svg(
            rows: rows,
            title: "calldir bench patterns — France's telemarketing plan, \(expected) numbers"),
          to: chart)
      }
    } catch {
      throw ValidationError("\(error)")
    }
    print(
      "method      requests  store entries   time s  app peak  extension peak (idle)  background runs"
    )
    for method in PatternBench.methods {
      let mine = rows.filter { $0.method == method }
      func median(_ value: (PatternBench.Row) -> Double) -> Double {
        Statistics.median(mine.map(value)) ?? 0
      }
      print(
        method.padding(toLength: 12, withPad: " ", startingAt: 0)
          + String(
            format: "%8.0f  %13.0f  %7.1f  %5.1f MiB  %5.2f MiB (%5.2f MiB)  %15.0f",
            median { Double($0.requests) }, median { Double($0.storeEntries) },
            median(\.seconds), median { Double($0.appPeakBytes) / 1_048_576 },
            median { Double($0.extensionPeakBytes) / 1_048_576 },
            median { Double($0.extensionIdleBytes) / 1_048_576 },
            median { Double($0.backgroundRuns) }))
    }
    print(ResultFiles.wroteLine(csv: out))
  }

  /// `--scales`: the first requests of growing plans, side by side (issue 65, item 4).
  private func runScales() async throws {
    var bench = PatternScaleBench(binaryDirectory: SiblingExecutables.directory(), work: work)
    bench.repeats = repeats
    let path = out == ".calldir/bench/patterns.csv" ? ".calldir/bench/pattern-scales.csv" : out
    let rows: [PatternScaleBench.Row]
    do {
      try ResultFiles.checkWritable(path)
      rows = try await bench.run { StandardError.write("bench patterns: \($0)\n") }
      try ResultFiles.writeAtomically(PatternScaleBench.csv(rows).encoded(), to: path)
    } catch {
      throw ValidationError("\(error)")
    }
    print("plan   numbers        request      entries  extension CPU s  request s  (medians)")
    for plan in bench.plans {
      for request in ["complete", "incremental"] {
        let mine = rows.filter { $0.plan == plan.name && $0.request == request }
        guard !mine.isEmpty else { continue }
        let failed = mine.filter { $0.status != "ok" }
        let cpu = Statistics.median(mine.map(\.extensionCPUSeconds)) ?? 0
        let wall = Statistics.median(mine.map(\.wallSeconds)) ?? 0
        print(
          plan.name.padding(toLength: 7, withPad: " ", startingAt: 0)
            + String(format: "%13d  ", plan.numbers)
            + request.padding(toLength: 11, withPad: " ", startingAt: 0)
            + String(format: "  %8d  %15.2f  %9.2f", mine.first?.entries ?? 0, cpu, wall)
            + (failed.isEmpty ? "" : "  \(failed.count) failed: \(failed[0].status)"))
      }
    }
    print("wrote \(path)")
  }
}
