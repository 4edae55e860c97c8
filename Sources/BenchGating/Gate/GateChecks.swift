import BenchMeasuring
import BenchReporting
import CallDirectoryCore
import ProcessMetrics

/// Every check a gate applies, from the constants the gates read: the one list `calldir bench
/// checks` prints and the harness catalog shows (a test keeps the two the same), so neither can drift
/// from what the code does.
public enum GateChecks {
  /// One check.
  public struct Check: Sendable, Equatable {
    /// The command whose `--gate` applies it.
    public var gate: String
    /// What it reads.
    public var reads: String
    /// What fails it, with the default and its flag.
    public var fails: String
    /// Why this bar, and whether it is a time on this machine's clock.
    public var why: String
  }

  /// The checks, gate by gate.
  public static var all: [Check] {
    let startup = BenchConfiguration.defaultMaximumStartupSeconds * 1000
    return [
      Check(
        gate: "bench", reads: "each run's status",
        fails: "a calldir strategy's run that did not complete",
        why: "a crash or a kill is never noise"),
      Check(
        gate: "bench", reads: "footprint peak (RssAnon + RssShmem), every run",
        fails:
          "over `--memory-limit` (\(ByteCount.format(SystemLimits.defaultMemoryLimitBytes)))",
        why: "what iOS kills an extension past; not a time"),
      Check(
        gate: "bench", reads: "peak RSS over the idle run, every run",
        fails:
          "over `--rss-budget` (\(ByteCount.format(BenchConfiguration.defaultRSSBudgetBytes)))",
        why: "a reader that maps or reads more than it should; not a time"),
      Check(
        gate: "bench", reads: "median entries/s",
        fails:
          "under `--min-entries-per-s` (\(Int(BenchConfiguration.defaultMinimumEntriesPerSecond)))",
        why:
          "2GIS's 2 M numbers in 10 s, the field's need; an absolute bar, kept with a wide margin: ci-smoke measured 6.2–6.7 M/s with six busy loops on two cores (22–32 M/s quiet), 31× the floor"
      ),
      Check(
        gate: "bench", reads: "median entries/s of every baseline, same run",
        fails: "slower than any of them",
        why: "a same-run ratio: load slows both sides alike"),
      Check(
        gate: "bench", reads: "median CPU time from exec to the load's start",
        fails: "over `--max-startup` (\(String(format: "%.0f", startup)) ms)",
        why:
          "CPU time, not the wall clock: a wait for a core is not in it (4.1–4.7 ms with six busy loops on two cores, where the wall clock read 12–24 ms)"
      ),
      Check(
        gate: "bench --baseline", reads: "instructions per entry (valgrind), against the file",
        fails:
          "a rise over `--max-count-regression` (\(String(format: "%.1f", BenchBaseline.defaultMaximumCountRegression * 100))%)",
        why: "a count: the same run to run (within 0.004%)"),
      Check(
        gate: "bench --baseline", reads: "allocations per entry, heap peak, footprint",
        fails:
          "allocations rising at all; heap peak or footprint over +\(ByteCount.format(BenchBaseline.memoryTolerance))",
        why: "counts and sizes, not times; across toolchains or allocators it refuses to compare"),
      Check(
        gate: "bench ab", reads: "load time B/A, 95% bootstrap interval, same run, ABBA order",
        fails:
          "the whole interval above 1 + `--max-regression` (\(String(format: "%.0f", ABComparison.defaultMaximumRegression * 100))%)",
        why: "a same-run ratio with its interval: noise widens the interval, it does not move it"),
      Check(
        gate: "bench ab", reads: "instructions and allocations per entry, A and B",
        fails: "as `--baseline` does",
        why: "counts"),
      Check(
        gate: "bench two-phase", reads: "each phase's status and footprint peak",
        fails: "a phase that failed; a footprint over the memory limit",
        why: "not a time"),
      Check(
        gate: "bench two-phase",
        reads:
          "incremental footprint from the fewest regions to the most, the lowest of the repeats",
        fails:
          "growth over \(ByteCount.format(TwoPhaseReport.defaultMaximumFootprintGrowth))",
        why:
          "memory flat in the container's size; not a time, but load moves it: quiet runs grow 168–172 KiB, six busy loops and three other benches on two cores up to 292 KiB (the median failed a 256 KiB bar in 2 A/A runs of 50, the lowest repeat in 1), while the regressions it is for grew 828–896 KiB"
      ),
      Check(
        gate: "bench two-phase", reads: "median time to enabled, projected on `--device`",
        fails:
          "over `--max-time-to-enabled` (\(String(format: "%.1f", TwoPhaseReport.defaultMaximumTimeToEnabled)) s)",
        why:
          "projected from counts, so load does not move it; this machine's wall-clock time is gated only when `--max-time-to-enabled` is given (six busy loops on two cores took ci-smoke's from 0.12 s to 0.71 s)"
      ),
      Check(
        gate: "bench sweep", reads: "fitted exponents of footprint, heap peak and load time in N",
        fails:
          "memory over N^\(SweepAnalysis.flatMemoryExponent), load time over N^\(SweepAnalysis.linearTimeExponent) (each size's fastest run)",
        why: "exponents, not times: a slower machine shifts the line, not its slope"),
      Check(
        gate: "bench compile", reads: "compile ÷ `sort -u` CPU time, medians of the same run",
        fails:
          "over \(String(format: "%.1f", CompileBench.maximumCompileToSortRatio))×",
        why:
          "CPU time, which waiting for a core does not add to: with six busy loops on two cores the wall-clock ratio read 3.06× on ci-smoke, past the bar; the wall times are still reported"
      ),
      Check(
        gate: "bench compile", reads: "normalize's numbers per CPU second",
        fails: "under \(Int(CompileBench.minimumNormalizeRate))",
        why:
          "an absolute rate, kept on CPU time: the floor a dump of millions needs (six busy loops on two cores took the wall-clock rate to 620,678 a second, under the floor)"
      ),
      Check(
        gate: "bench compile --entries A,B,…",
        reads: "fitted exponents of the compile's peak RSS and CPU time in N",
        fails:
          "peak RSS over N^\(CompileScale.flatMemoryExponent), CPU time over N^\(CompileScale.linearTimeExponent) (peak RSS: medians at each size; CPU time: each size's fastest run)",
        why:
          "exponents, not times: memory flat because the sort holds half of `--memory` at any size, time linear with the merge's log₂(runs) inside it"
      ),
      Check(
        gate: "history changes",
        reads: "a regression at the newest commit (counts: a step; noisy figures: a segment)",
        fails:
          "a count stepping over \(String(format: "%.1f", ChangePointDetector.countStepTolerance * 100))%, a noisy figure's segment over \(String(format: "%.0f", ChangePointDetector.minimumNoisyChange * 100))%",
        why:
          "where the environment changed there (toolchain, allocator, CPU, host) it is reported, not gated"
      ),
    ]
  }

  /// The checks as Markdown tables: what `calldir bench checks` prints and the harness catalog
  /// shows. First every bench gate's checks, then `calldir gate`'s budgets and thresholds: each
  /// with its default, its source, and how a team changes it (the settings file's key, the
  /// command line's `--set`, the Action's input where it has one).
  public static func markdown() -> String {
    var lines = ["| gate | reads | fails when | why |", "| --- | --- | --- | --- |"]
    for check in all {
      lines.append("| `\(check.gate)` | \(check.reads) | \(check.fails) | \(check.why) |")
    }
    lines += [
      "",
      "`calldir gate` (the Action): the data against these budgets, calldir A/B against these thresholds.",
      "",
      "| setting | default | what, and where the default comes from | change it |",
      "| --- | ---: | --- | --- |",
    ]
    let defaults = GateSettings()
    for key in GateSettings.keys {
      let input = actionInputs.contains(key.name) ? "; the Action's `\(key.name)`" : ""
      lines.append(
        "| `\(key.path)` | \(GateSettings.format(key.read(defaults))) | \(key.meaning) | `\(GateSettings.defaultFileName)` (`\(key.section):` `\(key.name):`), `--set \(key.path)=…`\(input) |"
      )
    }
    lines.append(
      "| `\(GateSettings.deviceKey)` | \(defaults.budgets.device) | the device profile the seed set's time is projected on (`Datasets/devices`): the slower phone measured | `\(GateSettings.defaultFileName)` (`budgets:` `device:`), `--set \(GateSettings.deviceKey)=…` |"
    )
    return lines.joined(separator: "\n") + "\n"
  }

  /// The settings `action.yml` has an input of the same name for (a test keeps the two the same).
  public static let actionInputs: Set<String> = [
    "footprint-margin-percent", "seed-seconds-to-enabled", "update-percent",
    "max-regression-percent",
  ]
}
