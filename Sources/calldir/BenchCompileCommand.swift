import ArgumentParser
import BenchHarness
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

      Exit statuses: 0 done (and, with --gate, compile within 2.5× the CPU time of sort -u and \
      normalize at 2,000,000 numbers per CPU second or more: CPU time, which a busy machine \
      does not stretch); 1 usage or input error; 2 a --gate check failed.
      """)

  @OptionGroup var dataset: DatasetOptions
  @Option(name: .customLong("repeat"), help: "Runs per tool (medians are over these).")
  var repeats: Int = 3
  @Option(name: .long, help: "The memory budget of compile (--memory) and sort (-S).")
  var memory = ByteSize(bytes: 256 << 20)
  @Option(name: .long, help: "The CSV to write.", completion: .file())
  var out: String = ".calldir/bench/compile.csv"
  @Flag(name: .long, help: "Exit 2, with one line per failure, if a bar is missed.")
  var gate = false

  func validate() throws { _ = try nonEmptyPath(out) }

  func run() throws {
    guard repeats >= 1 else { throw ValidationError("--repeat must be 1 or more") }
    let (name, parameters) = try dataset.resolve(defaultProfile: "directory-4m")
    var configuration = CompileBench.Configuration(
      profile: name, parameters: parameters,
      calldir: SiblingExecutables.directory() + "/calldir",
      work: ".calldir/bench/compile")
    configuration.repeats = repeats
    configuration.memoryBytes = memory.bytes
    let bench = CompileBench(configuration: configuration)
    let runs: [CompileBench.Run]
    do {
      runs = try bench.run { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
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
}
