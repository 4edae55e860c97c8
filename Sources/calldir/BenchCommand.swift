import ArgumentParser
import BenchGating
import BenchMeasuring
import CallDirectoryCore
import Foundation
import ProcessMetrics
import ProcessSpawning
import SystemCalls

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
      Exit statuses: 0 done (and, with --gate, every check passed); 1 usage or input error; \
      2 a --gate check failed (one line per failure on stderr).
      """,
    subcommands: [
      BenchStrategiesCommand.self, BenchSweepCommand.self, BenchABCommand.self,
      BenchTwoPhaseCommand.self, BenchCompileCommand.self, BenchUpdateCommand.self,
      BenchPatternsCommand.self, BenchChecksCommand.self, BenchUserEditsCommand.self,
    ],
    defaultSubcommand: BenchStrategiesCommand.self)
}

/// The options every bench shares: the dataset, the limits the system enforces, the runs and
/// where they go.
struct BenchRunOptions: ParsableArguments {
  @OptionGroup var dataset: DatasetOptions

  @Option(
    name: .customLong("repeat"), parsing: .unconditional,
    help: "Runs per strategy (medians are over these).",
    transform: wholeNumber(in: OptionBounds.repeats))
  var repeats: Int = 5

  @Option(name: .long, help: "Kill a child whose footprint passes this size (like the system).")
  var memoryLimit = ByteSize(bytes: SystemLimits.defaultMemoryLimitBytes)

  @Option(
    name: .long, parsing: .unconditional,
    help: "Kill a child that runs longer than this many seconds.",
    transform: finiteNumber(in: OptionBounds.seconds))
  var timeout: Double = 120

  @Option(
    name: .long, parsing: .unconditional,
    help: "The system's maximumAllowedEntries; raise it to read a base over the 1,999,999 cap.",
    transform: wholeNumber(in: 2...OptionBounds.entries.upperBound))
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

  @Flag(name: .long, help: "Print only the table and the gate's lines (no progress, no notes).")
  var quiet = false

  @Option(
    name: .long,
    help:
      "Progress on stderr: auto (a line redrawn in place on a terminal, each run's figures above it; nothing on a pipe), json (one object per update, for CI logs) or none."
  )
  var progress: ProgressMode = .auto

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
      StandardError.write((MeasuredAllocator.installHint + "\n"))
    }
  }

  /// Writes progress lines to stderr: notes ("note: …") unless `--quiet`; the others on a
  /// terminal only (`--progress auto`), where the progress line is redrawn below them.
  var log: (String) -> Void {
    let quiet = self.quiet
    let terminal = progress == .auto && isatty(STDERR_FILENO) != 0
    return { line in
      guard !quiet, terminal || line.hasPrefix("note:") else { return }
      // On a terminal the progress line is cleared first, and redrawn below at the next update.
      StandardError.write(((terminal ? "\r\u{1B}[K" : "") + line + "\n"))
    }
  }

  /// A runner of `configuration` whose progress (runs done of each phase, the rate and the
  /// time left) shows on `display`, with ``log``'s lines above it.
  func runner(_ configuration: BenchConfiguration, display: ProgressDisplay) -> BenchRunner {
    var runner = BenchRunner(configuration: configuration, log: log)
    runner.progress = { step in
      display.update(
        phase: step.phase.rawValue, done: step.done, total: step.total, unit: "runs",
        detail: step.step)
    }
    return runner
  }

  /// The display of `command`'s progress these options ask for.
  func display(command: String) -> ProgressDisplay {
    ProgressDisplay(command: command, mode: progress, quiet: quiet)
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
        StandardError.write("gate failed: \(failure)\n")
      }
      throw ExitStatus.gateFailed.exitCode
    }
    print(passed)
  }
}
