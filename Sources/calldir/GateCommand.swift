import ArgumentParser
import BenchGating
import BenchMeasuring
import BenchReporting
import Foundation
import SystemCalls

/// `calldir gate`: the gate a team runs in its own repository. calldir's change judged A/B on
/// the same data, the data judged against the device's budgets; one report with both verdicts.
struct GateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "gate",
    abstract: "Gate a team's data on the device's budgets, and a calldir change A/B on that data.",
    discussion: """
      Two verdicts, one report. calldir: the base revision's calldir-extension (--base-calldir) \
      and this build's, interleaved on the head's largest base, load time with its 95% interval \
      and instructions and allocations per entry; skipped, and said so, when calldir did not \
      change. data: the container (--data, its manifest names the bases) through the simulated \
      system: the extension's footprint, the seed set's time to enabled projected on the device, \
      entries per request, requests past the cap, the update's download from the base revision \
      (--against-rev) and label bytes, each against its budget; with --lcidl-log, the Live \
      Caller ID Lookup datasets' server time and reply per query, as Apple's processor logged \
      them. Counts that depend on the data \
      (instructions per entry, label bytes) are reported beside the base revision's, not gated.

      Budgets and thresholds: the defaults (calldir bench checks lists them), then \
      .calldir-gate.yml (--settings), then --set KEY=VALUE; --report-only KEY (or the file's \
      report-only list) shows a budget without failing on it. --write-settings FILE writes \
      a settings file from this run's figures, each measured budget the figure plus 25%, \
      with a comment saying where each value came from.

      Every budget shows the room left under its limit. With --history FILE (a calldir history \
      SQLite file, kept on a branch or in an artifact), each also shows its time to the limit: \
      a least-squares line through its figure at the last --history-window commits, by commit \
      time, extended to the limit; --record-history adds this run as HEAD's commit (a main \
      branch's run; a pull request only reads).

      Writes gate.md, gate.svg and gate.csv in --out, appends the report to --summary. Exit \
      statuses: 0 passed; 1 usage or input error (one line); 2 a budget or a threshold was \
      missed (one line per failure on stderr).
      """)

  @Option(
    name: .long, help: "The container to gate (calldir compile --out DIR), as the head holds it.",
    completion: .directory, transform: nonEmptyPath)
  var data: String

  @Option(
    name: .long,
    help:
      "Compare with DATA as the merge base of HEAD and REV holds it (a pull request's target, origin/main): the update's download and the counts' change.",
    transform: nonEmptyPath)
  var againstRev: String?

  @Option(
    name: .long,
    help: "The base revision's container, given as a folder instead of read from git.",
    completion: .directory, transform: nonEmptyPath)
  var baseData: String?

  @Option(
    name: .long,
    help:
      "A folder with the base revision's calldir-extension (its .build/release): calldir's A/B runs against it. Leave out when calldir did not change.",
    completion: .directory, transform: nonEmptyPath)
  var baseCalldir: String?

  @Option(
    name: .long,
    help:
      "The settings file (default: .calldir-gate.yml here, when there is one; a named file must exist).",
    completion: .file(extensions: ["yml", "yaml"]), transform: nonEmptyPath)
  var settings: String?

  @Option(
    name: .customLong("set"),
    help: ArgumentHelp(
      "One setting over the file's, as KEY=VALUE (budgets.requests=12; calldir bench checks lists the keys).",
      valueName: "key=value"))
  var overrides: [String] = []

  @Option(
    name: .long, help: "The folder for gate.md, gate.svg and gate.csv.", transform: nonEmptyPath)
  var out: String = ".calldir/gate"

  @Option(
    name: .long, help: "Append the report to this Markdown file ($GITHUB_STEP_SUMMARY).",
    transform: nonEmptyPath)
  var summary: String?

  @Option(
    name: .long,
    help:
      "Where the summary links the chart (an uploaded artifact's address); default gate.svg's path.",
    transform: nonEmptyPath)
  var chartLink: String?

  @Option(
    name: .customLong("lcidl-log"),
    help: ArgumentHelp(
      "Apple's PIRProcessDatabase log of a Live Caller ID Lookup dataset (its configuration with trialsPerShard over 0; repeatable, one per dataset, or one per input of a --pre-sharded dataset, which are then reported as one): the server time and the reply per query against their budgets.",
      valueName: "file"), completion: .file(), transform: nonEmptyPath)
  var lcidlLogs: [String] = []

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Write a settings file from this run's figures (each measured budget is the figure plus 25%) and judge the data by it; FILE must not exist.",
      valueName: "file"), completion: .file(extensions: ["yml"]), transform: nonEmptyPath)
  var writeSettings: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Report this budget without failing the gate on it (repeatable; as the settings file's report-only list).",
      valueName: "budget"))
  var reportOnly: [String] = []

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The gate's history (a calldir history SQLite file): each budget's time to the limit, from a line fitted to its figure at the last commits.",
      valueName: "file"), completion: .file(), transform: nonEmptyPath)
  var history: String?

  @Flag(
    name: .long,
    help:
      "Add this run's figures to --history as HEAD's commit (on the main branch; a pull request only reads the history)."
  )
  var recordHistory = false

  @Option(
    name: .long,
    help: "How many of the history's latest commits the line is fitted to (at least 3).",
    transform: wholeNumber(in: 3...10_000))
  var historyWindow: Int = BudgetTrend.defaultWindow

  @Flag(name: .long, help: "Print only the verdict, not the steps.")
  var quiet = false

  func validate() throws {
    if againstRev != nil, baseData != nil {
      throw ValidationError(
        "--against-rev and --base-data each name the base revision's data; give one")
    }
    if recordHistory, history == nil {
      throw ValidationError("--record-history adds to a history: name it with --history FILE")
    }
    for override in overrides where !override.contains("=") {
      throw ValidationError("--set takes KEY=VALUE, got '\(override)'")
    }
  }

  /// The settings: defaults, the file, the overrides.
  func resolvedSettings() throws -> GateSettings {
    var resolved = GateSettings()
    if let settings {
      try resolved.read(file: settings)
    } else if FileManager.default.fileExists(atPath: GateSettings.defaultFileName) {
      try resolved.read(file: GateSettings.defaultFileName)
    }
    for override in overrides {
      // `split` drops empty pieces: "=" and "==" have no key (they trapped here, issue 65,
      // item 12), and "key=" an empty value.
      guard let equals = override.firstIndex(of: "="), equals != override.startIndex else {
        throw ValidationError(
          "--set takes KEY=VALUE (a setting's name before '='), got '\(override)'")
      }
      try resolved.set(
        String(override[..<equals]), to: String(override[override.index(after: equals)...]),
        place: "--set \(override)")
    }
    for budget in reportOnly {
      try resolved.markReportOnly(budget, place: "--report-only")
    }
    return resolved
  }

  func run() async throws {
    let scratch = NSTemporaryDirectory() + "calldir-gate-\(getpid())"
    Interruption.watch([scratch])
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let settings = try resolvedSettings()
    if let writeSettings, FolderCalls.exists(writeSettings, followingLinks: true) {
      throw ValidationError(
        "--write-settings \(writeSettings): the file exists; move it away or name another (nothing was measured)"
      )
    }
    // Before the measurements: a log that is not the processor's is named in a second.
    // A pre-sharded dataset's logs, one per shard, are one dataset in the report.
    let processorLogs = ProcessorLog.joiningPreShardedLogs(
      try lcidlLogs.map { path throws(BenchError) in try ProcessorLog.read(path: path) })
    guard FolderCalls.isFolder(data) else {
      throw BenchError("--data: '\(data)' is not a folder (a container calldir compile wrote)")
    }
    let log: (String) -> Void = { line in
      if !quiet { StandardError.write(line + "\n") }
    }
    var baseFolder = baseData
    var title = "`\(data)`"
    if let againstRev {
      let (copy, mergeBase) = try GitRevision.extract(
        folder: data, against: againstRev, into: scratch + "/base-revision")
      baseFolder = copy
      if copy == nil {
        title += " (new: its merge base with `\(againstRev)`, \(mergeBase), has no such folder)"
        log(
          "note: \(data) is not in the merge base \(mergeBase) with \(againstRev): this pull request adds it, so it is gated on budgets alone"
        )
      } else {
        title += " against its merge base with `\(againstRev)` (\(mergeBase))"
      }
    } else if let baseData {
      title += " against `\(baseData)`"
    }
    var gate = TeamGate(
      data: data, baseData: baseFolder, baseCalldir: baseCalldir, settings: settings,
      log: { line in if line.hasPrefix("note:") { log(line) } })
    gate.progress = { step in log("gate: " + step) }
    var result = try await gate.run()
    result.processorLogs = processorLogs
    if let writeSettings {
      let day = ISO8601DateFormatter.string(
        from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
      try ResultFiles.writeAtomically(
        GateSettingsWriter.yaml(from: result, data: data, date: day), to: writeSettings)
      result.settings = GateSettingsWriter.settings(from: result, over: settings)
      log(
        "wrote \(writeSettings): the budgets from this run's figures; the report below is judged by them"
      )
    }
    if let history {
      try applyHistory(history, to: &result, log: log)
    }
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let chartPath = out + "/gate.svg"
    try ResultFiles.writeAtomically(
      TeamGateChart.svg(result, title: "calldir gate: \(data)"), to: chartPath)
    try ResultFiles.writeAtomically(
      RunRecord.csv((result.load?.records ?? []) + result.abRecords), to: out + "/gate.csv")
    let report = TeamGateReport.markdown(result, title: title, chartLink: chartLink ?? chartPath)
    try ResultFiles.writeAtomically(report, to: out + "/gate.md")
    if let summary {
      try BenchSummary.append(report, to: summary)
    }
    if !quiet { print(report) }
    print("wrote \(out)/gate.md, gate.svg and gate.csv")
    try BenchRunOptions.finish(
      result.verdict, gated: true,
      passed: "gate passed: "
        + (result.comparison == nil ? "calldir A/B skipped" : "calldir within its thresholds")
        + ", data within every budget")
  }

  /// Reads the history's trends into `result`, and records this run as HEAD's with
  /// `--record-history`. A history that does not exist yet is empty (and created when
  /// recording).
  private func applyHistory(
    _ path: String, to result: inout TeamGateResult, log: (String) -> Void
  ) throws {
    let head = try GitRevision.head(of: data)
    guard recordHistory || FileManager.default.fileExists(atPath: path) else {
      result.historyNote =
        "Time to the limit: the history `\(path)` does not exist yet (a main branch's run with --record-history starts it)."
      return
    }
    if FolderCalls.exists(path, followingLinks: true), FolderCalls.regularFileByteCount(path) == nil
    {
      throw ValidationError(
        "--history \(path): not a regular file (a history is a SQLite file, with its journal beside it)"
      )
    }
    let store = try BenchHistory(path: path)
    // By its place in the repository: `--data directory` and `--data /abs/repo/directory` are
    // one container's history.
    let name = try GitRevision.repositoryPath(of: data)
    try GateHistory.apply(store, data: name, head: head, window: historyWindow, to: &result)
    if recordHistory {
      try GateHistory.record(result, data: name, head: head, in: store)
      log("recorded this run's figures in \(path) as \(head.sha.prefix(12))")
    }
  }
}
