import ArgumentParser
import BenchMeasuring
import BenchReporting
import Foundation
import ProcessSpawning
import ReleaseFormat

/// `calldir bench update`: the download and apply cost of a week's update, by method.
struct BenchUpdateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "update",
    abstract:
      "Measure an update's download and apply: calldir's patches, full bases, zstd, bsdiff.",
    discussion: """
      Compiles the profile's raw dump (version 1), churns it per --churn (half relabelled, a \
      quarter removed, a quarter added, uniformly over the rows, so each region changes in \
      proportion to its size), compiles and publishes both, then for the bases that changed \
      records the bytes to download by each method: calldir's patches (the index's cheapest \
      chain), the full bases, `zstd -19 --long=27 --patch-from=OLD NEW` and `bsdiff` of the \
      same files; the time and footprint of applying them (calldir-patch, zstd -d, bspatch, \
      each in a process of its own, medians over --repeat); the whole new container as one \
      zstd -19 stream; a lower bound from the changes (README, "Patch updates"); and the \
      incremental request after the update (a copy of version 1 enabled and synced in a \
      simulated system, updated, synced again: that sync's wall time). One CSV row per churn \
      and method, and a chart beside it. Needs zstd and bsdiff (Debian packages). Progress \
      on stderr per --progress: the step under way, redrawn in place on a terminal.

      Exit statuses: 0 done; 1 usage or input error, or a tool failed.
      """)

  @OptionGroup var dataset: DatasetOptions
  @Option(name: .long, help: "Shares of the dump changed, comma-separated: 1%,5%,20%.")
  var churn: String = "5%"
  @Option(
    name: .customLong("repeat"), parsing: .unconditional,
    help: "Runs of each apply (medians are over these).",
    transform: wholeNumber(in: OptionBounds.repeats))
  var repeats: Int = 3
  @Option(
    name: .long, parsing: .unconditional,
    help: "Bases applied at once: calldir-patch's threads, the tools' processes (default: cores).",
    transform: wholeNumber(in: OptionBounds.threads))
  var applyThreads: Int = PatchApplier.defaultThreadCount
  @Option(name: .long, help: "The CSV to write.", completion: .file())
  var out: String = ".calldir/bench/update.csv"
  @OptionGroup var progressOptions: ProgressOptions

  func validate() throws {
    _ = try nonEmptyPath(out)
    _ = try churns()
    guard repeats >= 1 else { throw ValidationError("--repeat must be 1 or more") }
    guard (1...256).contains(applyThreads) else {
      throw ValidationError("--apply-threads must be from 1 to 256")
    }
  }

  func churns() throws -> [Double] {
    // Every item must be a share: an empty --churn (or an empty item) measured nothing and
    // exited 0.
    let items = churn.split(separator: ",", omittingEmptySubsequences: false)
    guard !churn.isEmpty else {
      throw ValidationError("--churn: give at least one share, such as 5%")
    }
    return try items.map { text in
      let trimmed = text.hasSuffix("%") ? text.dropLast() : text[...]
      guard let value = Double(trimmed), value > 0, value <= 100 else {
        throw ValidationError("--churn: '\(text)' is not a share from 0% to 100%")
      }
      return text.hasSuffix("%") ? value / 100 : (value <= 1 ? value : value / 100)
    }
  }

  func run() throws {
    // Checked before the runs, not after them.
    try ResultFiles.checkWritable(out)
    let missing = UpdateBench.missingTools()
    guard missing.isEmpty else {
      throw ValidationError(
        "bench update needs \(missing.joined(separator: ", ")) in PATH (Debian: apt-get install zstd bsdiff)"
      )
    }
    let (name, parameters) = try dataset.resolve(defaultProfile: "directory-4m")
    let directory = SiblingExecutables.directory()
    var configuration = UpdateBench.Configuration(
      profile: name, parameters: parameters, churns: try churns(),
      calldir: directory + "/calldir", patcher: directory + "/calldir-patch",
      work: ".calldir/bench/update")
    configuration.repeats = repeats
    configuration.applyThreads = applyThreads
    let rows: [UpdateBench.Row]
    do {
      let display = progressOptions.display(command: "bench update")
      let steps = Self.steps(churns: configuration.churns.count)
      let report = Self.progress(display, steps: steps)
      rows = try display.finishing {
        let rows = try UpdateBench(configuration: configuration).run(progress: report)
        display.update(phase: "measuring", done: steps, total: steps, unit: "steps")
        return rows
      }
      try ResultFiles.writeAtomically(
        UpdateBench.csv(rows, configuration: configuration).encoded(), to: out)
      // No chart beside what is not a regular file (`--out /dev/null`).
      if let chart = ResultFiles.sidecarPath(of: out, with: "svg") {
        try ResultFiles.writeAtomically(
          UpdateChart.svg(
            rows: rows, title: "calldir bench update — \(name), \(parameters.entries) entries"),
          to: chart)
      }
    } catch {
      throw ValidationError("\(error)")
    }
    print("churn  method   bases      download  vs full  vs zstd  vs bound  apply s  footprint")
    for row in rows {
      func ratio(_ method: String) -> Double {
        let other = rows.first { $0.churn == row.churn && $0.method == method }?.downloadBytes
        return Double(row.downloadBytes) / Double(max(other ?? 1, 1))
      }
      let churn = String(format: "%g%%", row.churn * 100)
      let columns = String(
        format: "%5d  %12d  %7.3f  %7.3f  %8.2f  %7.3f  %5.1f MiB", row.changedBases,
        row.downloadBytes, ratio("full"), ratio("zstd"),
        Double(row.downloadBytes) / Double(max(row.lowerBoundBytes, 1)), row.applySeconds,
        Double(row.applyFootprintBytes) / 1_048_576)
      print(
        churn.padding(toLength: 7, withPad: " ", startingAt: 0)
          + row.method.padding(toLength: 9, withPad: " ", startingAt: 0) + columns)
    }
    for row in rows where row.method == "calldir" {
      print(
        String(
          format:
            "churn %g%%: %d entries changed; the incremental request after the update took %.2f s",
          row.churn * 100, row.entriesChanged, row.incrementalSeconds))
    }
    if let first = rows.first {
      print("the new container as one zstd -19 stream: \(first.containerCompressedBytes) bytes")
    }
    print(ResultFiles.wroteLine(csv: out))
  }

  /// The bench's steps: version 1 compiled, then three per churn.
  static func steps(churns: Int) -> Int { 1 + 3 * churns }

  /// The bench's progress on `display`, in steps: version 1 compiled, then per churn version 2
  /// written and compiled, its downloads applied, and the synced update. Each message from the
  /// bench starts a step ("writing …" is the dataset, before the first).
  static func progress(_ display: ProgressDisplay, steps total: Int) -> (String) -> Void {
    var started = 0
    return { step in
      if !step.hasPrefix("writing ") { started += 1 }
      display.update(
        phase: "measuring", done: max(0, started - 1), total: total, unit: "steps", detail: step)
    }
  }
}
