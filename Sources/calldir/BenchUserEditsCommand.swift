import ArgumentParser
import BenchMeasuring
import BenchReporting
import Datasets
import Foundation
import ProcessSpawning
import SystemCalls

/// `calldir bench user-edits`: what one user edit costs on a full container, by calldir's
/// incremental edit, by a full reload and by saracroche's method, in one run.
struct BenchUserEditsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "user-edits",
    abstract: "What a user's edit costs: calldir's incremental edit, a full reload, saracroche's.",
    discussion: """
      Compiles a directory (--entries numbers of the directory-4m profile) and France's \
      telemarketing plan (12 M numbers with --wildcards 6) into one container, installs it \
      whole through the simulated system (the complete request, then chunks past the cap), \
      then per repeat: calldir's edits (block a number, unblock it, allow a number inside \
      the plan, label a directory number, pause, resume, clear), each followed by one sync; \
      the first edit again sent by a complete reload and every chunk after it; and the same \
      edits by saracroche's method (cbouvat/saracroche-ios, modelled in calldir-baselines: \
      the action and its number in shared defaults, one incremental request; its pause is \
      'reset'). Prints medians per method and edit: requests, entries added and removed, the \
      extension's CPU time, its footprint peak and the time projected on --device (the \
      extension's CPU here plus the device's ingest of the entries sent); one CSV row per \
      method, edit and repeat in --out. Before the edits, the user blocks --user-entries \
      numbers, then `calldir lookup --repeat --lookup-repeat` times a labelled directory number \
      and a number of the plan (--lookup-runs times each; median and p99 per lookup, memory \
      grown, allocations per lookup with jemalloc), and DirectoryLookup must agree with the \
      simulated store on every user entry and on 20,000 other numbers (the dump's, the plan's, \
      misses).
      Exit statuses: 0 done; 1 usage or input error, a tool or a request failed.
      """)

  @Option(
    name: .customLong("repeat"), parsing: .unconditional, help: "Runs of each edit.",
    transform: wholeNumber(in: OptionBounds.repeats))
  var repeats: Int = 3
  @Option(
    name: .long, parsing: .unconditional, help: "The directory's numbers.",
    transform: wholeNumber(in: 1_000...20_000_000))
  var entries: Int = 4_000_000
  @Option(
    name: .long, parsing: .unconditional,
    help: "'#' after each French prefix: 6 is the plan (12 M numbers); 3 makes a quick run.",
    transform: wholeNumber(in: 1...6))
  var wildcards: Int = 6
  @Option(
    name: .long, parsing: .unconditional,
    help: "Numbers the user blocks before anything is measured.",
    transform: wholeNumber(in: 0...100_000))
  var userEntries: Int = 1_000
  @Option(
    name: .customLong("lookup-repeat"), parsing: .unconditional,
    help: "calldir lookup --repeat's N for each timed number; 0 skips the lookups.",
    transform: wholeNumber(in: 0...10_000_000))
  var lookupRepeats: Int = 100_000
  @Option(
    name: .long, parsing: .unconditional, help: "Runs of calldir lookup for each timed number.",
    transform: wholeNumber(in: OptionBounds.repeats))
  var lookupRuns: Int = 3
  @Option(
    name: .long,
    help:
      "The device the time is projected on (\(DeviceProfile.availableNames().joined(separator: ", ")))."
  )
  var device = "iphone13"
  @Option(name: .long, help: "The CSV to write.", completion: .file())
  var out: String = ".calldir/bench/user-edits.csv"
  @Option(name: .long, help: "The folder the runs work in.", completion: .directory)
  var work: String = ".calldir/bench/user-edits"

  func validate() throws {
    _ = try nonEmptyPath(out)
    _ = try nonEmptyPath(work)
  }

  func run() async throws {
    let profile: DeviceProfile
    do {
      profile = try DeviceProfile.load(device)
    } catch {
      throw ValidationError("--device: \(error)")
    }
    var bench = UserEditBench(
      binaryDirectory: SiblingExecutables.directory(), work: work, device: profile)
    bench.repeats = repeats
    bench.directoryEntries = entries
    bench.wildcards = wildcards
    bench.userEntries = userEntries
    bench.lookupRepeats = lookupRepeats
    bench.lookupRuns = lookupRuns
    let rows: [UserEditBench.Row]
    let lookups: UserEditLookups
    do {
      try ResultFiles.checkWritable(out)
      (rows, lookups) = try await bench.run { StandardError.write("bench user-edits: \($0)\n") }
      try ResultFiles.writeAtomically(UserEditBench.csv(rows).encoded(), to: out)
    } catch {
      throw ValidationError("\(error)")
    }
    print(
      "method       edit                       requests   entries  removed  extension CPU s  footprint  projected s (\(device))"
    )
    var seen: [String] = []
    for row in rows where !seen.contains(row.method + "|" + row.edit) {
      seen.append(row.method + "|" + row.edit)
      let mine = rows.filter { $0.method == row.method && $0.edit == row.edit }
      func median(_ value: (UserEditBench.Row) -> Double) -> Double {
        Statistics.median(mine.map(value)) ?? 0
      }
      print(
        row.method.padding(toLength: 13, withPad: " ", startingAt: 0)
          + row.edit.padding(toLength: 27, withPad: " ", startingAt: 0)
          + String(
            format: "%8.0f  %8.0f  %7.0f  %15.4f  %5.2f MiB  %11.4f",
            median { Double($0.requests) }, median { Double($0.entries) },
            median { Double($0.removals) }, median(\.extensionCPUSeconds),
            median { Double($0.footprintPeakBytes) / 1_048_576 }, median(\.projectedSeconds)))
    }
    if !lookups.runs.isEmpty {
      print(
        "\nlookup (calldir lookup --repeat \(lookupRepeats))   median µs  p99 µs  around: median  p99   isBlocked median  grown      allocations"
      )
      for run in lookups.runs {
        print(
          "+\(run.number)".padding(toLength: 35, withPad: " ", startingAt: 0)
            + String(
              format: "%9.1f  %6.1f  %14.1f  %5.1f  %16.1f  ", run.medianMicroseconds,
              run.p99Microseconds, run.aroundMedianMicroseconds, run.aroundP99Microseconds,
              run.isBlockedMedianMicroseconds)
            + run.grown.padding(toLength: 11, withPad: " ", startingAt: 0)
            + run.allocationsPerLookup)
      }
      let medians = lookups.runs.map(\.medianMicroseconds)
      print(
        "median of the runs: \(String(format: "%.1f", Statistics.median(medians) ?? 0)) µs per lookup; DirectoryLookup agreed with the store on \(lookups.agreed) of \(lookups.tried) numbers"
      )
    }
    print("wrote \(out)")
  }
}
