import ArgumentParser
import BenchGating
import BenchMeasuring
import BenchReporting
import Foundation
import ProcessSpawning

/// `calldir bench compile`: the compiler beside `sort -u` of the same dump, and `normalize`.
struct BenchCompileCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compile",
    abstract: "Measure calldir compile beside sort -u of the same dump, and calldir normalize.",
    discussion: """
      Writes the profile's raw dump (TSV, as `calldir generate --format tsv`) and its number \
      column under .calldir/bench/compile, then per repeat runs, in turn: `calldir compile` of \
      the dump, `LC_ALL=C sort -u -t TAB -k1,1` of the same file at the same memory budget \
      (--memory is compile's --memory and sort's -S), and `calldir normalize --country RU` of \
      the numbers. One CSV row per run (wall and CPU seconds, peak RSS, rows per second); \
      medians and the ratio compile / sort -u are printed.

      With a list of sizes (--entries 4M,40M,400M) it measures the scale instead: compile and \
      sort -u only, at each size (a dump past 50M entries is written in 40M-entry slices, each \
      shuffled), then fits the exponents k of time and peak RSS ∝ N^k across the sizes and \
      writes one CSV row per run (with the compile's sort runs, merge passes and temporary \
      bytes) and a chart beside it (--chart). A 400M-row dump takes 22 GB and its sort runs \
      about as much again.

      Exit statuses: 0 done (and, with --gate, compile within 2.5× the CPU time of sort -u and \
      normalize at 2,000,000 numbers per CPU second or more: CPU time, which a busy machine \
      does not stretch; over a list of sizes, the compile's peak RSS within N^0.02 and its CPU \
      time, each size's fastest run, within N^1.1); 1 usage or input error; 2 a --gate check failed.
      """)

  @OptionGroup var dataset: DatasetOptions
  @Option(
    name: .customLong("repeat"), parsing: .unconditional,
    help: "Runs per tool (medians are over these).",
    transform: wholeNumber(in: OptionBounds.repeats))
  var repeats: Int = 3
  @Option(name: .long, help: "The memory budget of compile (--memory) and sort (-S).")
  var memory = ByteSize(bytes: 256 << 20)
  @Option(
    name: .long,
    help:
      "The CSV to write (default .calldir/bench/compile.csv; over a list of sizes .calldir/bench/compile-scale.csv).",
    completion: .file())
  var out: String?
  @Option(
    name: .long,
    help: "Over a list of sizes, the chart to write (default: the CSV's path with .svg).",
    completion: .file())
  var chart: String?
  @Flag(name: .long, help: "Exit 2, with one line per failure, if a bar is missed.")
  var gate = false
  @OptionGroup var progressOptions: ProgressOptions

  /// The largest size a scale takes: the dump is written in slices, so only the disk bounds it.
  static let maximumScaleEntries = 2_000_000_000

  func validate() throws {
    if let out { _ = try nonEmptyPath(out) }
    if let chart { _ = try nonEmptyPath(chart) }
  }

  func run() throws {
    guard repeats >= 1 else { throw ValidationError("--repeat must be 1 or more") }
    let sizes = dataset.entries?.values ?? []
    if sizes.count > 1 {
      try runScale(sizes: sizes)
      return
    }
    let out = self.out ?? ".calldir/bench/compile.csv"
    let (name, parameters) = try dataset.resolve(
      defaultProfile: "directory-4m", maximumEntries: Self.maximumScaleEntries)
    do {
      try ResultFiles.checkWritable(out)
    } catch {
      throw ValidationError("\(error)")
    }
    var configuration = CompileBench.Configuration(
      profile: name, parameters: parameters,
      calldir: SiblingExecutables.directory() + "/calldir",
      work: ".calldir/bench/compile")
    configuration.repeats = repeats
    configuration.memoryBytes = memory.bytes
    let bench = CompileBench(configuration: configuration)
    let runs: [CompileBench.Run]
    do {
      let display = progressOptions.display(command: "bench compile")
      let report = progress(
        display, total: repeats * configuration.tools.count * parameters.entries)
      runs = try display.finishing {
        try bench.run { report($0, parameters.entries) }
      }
      try ResultFiles.writeAtomically(
        CompileBench.csv(runs, configuration: configuration).encoded(), to: out)
    } catch {
      throw ValidationError("\(error)")
    }
    print(CompileBench.summary(runs), terminator: "")
    print("wrote \(out)")
    try BenchRunOptions.finish(
      CompileBench.evaluate(runs), gated: gate,
      passed: "gate passed: compile within the bar against sort -u, normalize over its floor")
  }

  /// `--entries A,B,C`: compile and sort -u at each size, the exponents, the CSV and the chart.
  private func runScale(sizes: [Int]) throws {
    let out = self.out ?? ".calldir/bench/compile-scale.csv"
    let chartPath = chart ?? ResultFiles.sidecarPath(of: out, with: "svg")
    let (name, parameters) = try dataset.resolve(
      defaultProfile: "directory-4m", sweeping: true, maximumEntries: Self.maximumScaleEntries)
    do {
      try ResultFiles.checkWritable(out)
      if let chartPath { try ResultFiles.checkWritable(chartPath) }
    } catch {
      throw ValidationError("\(error)")
    }
    let display = progressOptions.display(command: "bench compile")
    let report = progress(display, total: sizes.reduce(0, +) * repeats * CompileScale.tools.count)
    var points: [CompileScale.Point] = []
    defer { display.finish() }
    do {
      for size in sizes.sorted() {
        var sized = parameters
        sized.entries = size
        var configuration = CompileBench.Configuration(
          profile: name, parameters: sized, calldir: SiblingExecutables.directory() + "/calldir",
          work: ".calldir/bench/compile")
        configuration.repeats = repeats
        configuration.memoryBytes = memory.bytes
        configuration.tools = CompileScale.tools
        let runs = try CompileBench(configuration: configuration).run {
          report("\(CountText.decimal(Double(size))): \($0)", size)
        }
        points.append(CompileScale.Point(entries: size, runs: runs))
      }
    } catch {
      throw ValidationError("\(error)")
    }
    // The progress line cleared before the table (the defer covers a throw).
    display.finish()
    let scale = CompileScale(points: points)
    do {
      let table = scale.csv(profile: name, memoryBytes: memory.bytes)
      try ResultFiles.writeAtomically(table.encoded(), to: out)
      // Drawn from the CSV's figures (times to the millisecond), as `calldir chart` draws it
      // again later: the same chart either way.
      let written = CompileScale(points: try CompileScale.points(from: table))
      if let chartPath {
        try ResultFiles.writeAtomically(
          CompileScaleChart.svg(
            written, budgetBytes: memory.bytes,
            title: "calldir compile beside sort -u, by size (\(name))"), to: chartPath)
      }
    } catch {
      throw ValidationError("\(error)")
    }
    print(scale.summary(), terminator: "")
    print("wrote \(out)" + (chartPath.map { " and \($0)" } ?? " (no chart beside it)"))
    let verdict = scale.evaluate()
    for note in verdict.notes { print("note: \(note)") }
    try BenchRunOptions.finish(
      verdict, gated: gate,
      passed: "gate passed: the compile's peak RSS flat and its CPU time linear in N")
  }

  /// The bench's progress on `display`, in entries: each message from the bench is a step
  /// ("writing …", or "compile, run 1 of 3", a run of `entries` starting), shown with the
  /// entries of the runs done of `total`, so the rate and the time left weigh a 400M-row run
  /// as a hundred 4M-row ones.
  private func progress(_ display: ProgressDisplay, total: Int) -> (String, Int) -> Void {
    var done = 0
    var running = 0
    return { step, entries in
      guard !step.contains("writing ") else {
        display.update(phase: "measuring", done: done, total: total, unit: "entries", detail: step)
        return
      }
      done += running
      running = entries
      display.update(phase: "measuring", done: done, total: total, unit: "entries", detail: step)
    }
  }
}
