import ArgumentParser
import BenchHarness
import CallDirectoryCore
import Foundation
import ProcessMetrics
import ProcessSpawning

/// `calldir bench`: the loaders' benchmark (the default) and the two-phase one.
struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Measure how fast and in how little memory each strategy feeds the extension.",
    discussion: """
      `calldir bench` alone runs `calldir bench strategies`: the regional-2m profile, every \
      strategy, Results/latest.csv and Results/latest.svg. `calldir bench sweep` runs it at \
      several sizes and fits how cost grows; `calldir bench ab` compares this build with \
      another; `calldir bench two-phase` measures two-phase loading through the simulated \
      system; `calldir bench checks` lists every gate's checks.
      """,
    subcommands: [
      BenchStrategiesCommand.self, BenchSweepCommand.self, BenchABCommand.self,
      BenchTwoPhaseCommand.self, BenchCompileCommand.self, BenchUpdateCommand.self,
      BenchChecksCommand.self,
    ],
    defaultSubcommand: BenchStrategiesCommand.self)
}

/// The options every bench shares: the dataset, the limits the system enforces, the runs and
/// where they go.
struct BenchRunOptions: ParsableArguments {
  @OptionGroup var dataset: DatasetOptions

  @Option(name: .customLong("repeat"), help: "Runs per strategy (medians are over these).")
  var repeats: Int = 5

  @Option(name: .long, help: "Kill a child whose footprint passes this size (like the system).")
  var memoryLimit = ByteSize(bytes: SystemLimits.defaultMemoryLimitBytes)

  @Option(name: .long, help: "Kill a child that runs longer than this many seconds.")
  var timeout: Double = 120

  @Option(
    name: .long,
    help: "The system's maximumAllowedEntries; raise it to read a base over the 1,999,999 cap.")
  var maxEntries: Int = SystemLimits.maximumAllowedEntries

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

  /// The configuration these options describe.
  /// - Throws: a usage error naming the bad option or profile.
  func configuration(defaultProfile: String, sweeping: Bool = false) throws -> (
    name: String, BenchConfiguration
  ) {
    let (name, parameters) = try dataset.resolve(
      defaultProfile: defaultProfile, sweeping: sweeping)
    var configuration = BenchConfiguration(profileName: name, parameters: parameters)
    configuration.repeats = repeats
    configuration.memoryLimitBytes = memoryLimit.bytes
    guard timeout > 0 else { throw ValidationError("--timeout must be above 0 seconds") }
    configuration.timeoutSeconds = timeout
    configuration.maximumAllowedEntries = maxEntries
    configuration.cacheRoot = dataset.cache
    configuration.allocator = try MeasuredAllocator.resolve(allocator)
    return (name, configuration)
  }

  /// One notice line when `auto` fell back to the system's allocator; call it once the
  /// configuration is valid, so a usage error stays one line.
  func noticeAllocator(_ configuration: BenchConfiguration) {
    if allocator == .auto, configuration.allocator.kind == .system {
      FileHandle.standardError.write(Data((MeasuredAllocator.installHint + "\n").utf8))
    }
  }

  /// Writes progress lines to stderr unless `--quiet`.
  var log: (String) -> Void {
    let quiet = self.quiet
    return { line in
      if !quiet { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }
  }

  /// With `--gate`: prints each failure on its own line and exits 2, or prints `passed`.
  func finishGate(_ verdict: GateVerdict, passed: String) throws {
    try Self.finish(verdict, gated: gate, passed: passed)
  }

  /// When `gated`: prints each of `verdict`'s failures on its own line and exits 2 (documented
  /// in every bench command's help), or prints `passed`.
  static func finish(_ verdict: GateVerdict, gated: Bool, passed: String) throws {
    guard gated else { return }
    guard verdict.passed else {
      for failure in verdict.failures {
        FileHandle.standardError.write(Data("gate failed: \(failure)\n".utf8))
      }
      throw ExitStatus.gateFailed.exitCode
    }
    print(passed)
  }
}
