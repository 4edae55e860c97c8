import ArgumentParser
import BenchMeasuring
import BenchReporting
import Foundation
import SystemCalls

/// `calldir history`: bench results across commits, the changes in them, and a report.
struct HistoryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history",
    abstract: "Keep bench results across commits; find the commit that changed a figure.",
    discussion: """
      A history is an SQLite file of per-commit summaries (median, range, repeats of each \
      metric and strategy, and the environment's fingerprint), not raw rows: it grows by a few \
      dozen rows a commit, and prune bounds it. Exit statuses: 0 done; 1 usage, input or output \
      error; 2 `changes --gate` found a regression at the newest commit.
      """,
    subcommands: [
      HistoryAddCommand.self, HistoryChangesCommand.self, HistoryReportCommand.self,
      HistoryPruneCommand.self,
    ])
}

/// The history file option every subcommand takes.
struct HistoryDatabaseOption: ParsableArguments {
  @Option(
    name: .long, help: "The history's SQLite file (created by add).", completion: .file(),
    transform: nonEmptyPath)
  var db: String

  func open(mustExist: Bool = true) throws -> BenchHistory {
    guard !mustExist || FileManager.default.fileExists(atPath: db) else {
      throw ValidationError("--db \(db): no such history (add a commit first)")
    }
    // SQLite makes its journal beside the file (`/dev/full-journal` as root), and a device or
    // a FIFO is no database (issue 65, item 15).
    if FolderCalls.exists(db, followingLinks: true), FolderCalls.regularFileByteCount(db) == nil {
      throw ValidationError(
        "--db \(db): not a regular file (a history is a SQLite file, with its journal beside it)")
    }
    do { return try BenchHistory(path: db) } catch { throw ValidationError("\(error)") }
  }
}

struct HistoryAddCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Record a bench run's CSV as one commit's figures.",
    discussion: """
      Reads the per-run CSV `calldir bench` wrote and keeps, per strategy and metric (load_s, \
      footprint_bytes, heap_peak_bytes, instructions_per_entry, allocations_per_entry), the \
      median, range and repeats. A commit already recorded keeps its place; its figures are \
      replaced.
      Exit statuses: 0 done; 1 usage, input or output error (the history is left as it was).
      """)

  @Argument(help: "The bench run's CSV.", completion: .file(extensions: ["csv"]))
  var results: String
  @Option(name: .long, help: "The commit measured (its SHA).")
  var commit: String
  @Option(name: .long, help: "Its parent commit.")
  var parent: String = ""
  @Option(name: .long, help: "Its branch.")
  var branch: String = ""
  @Option(name: .long, help: "Its subject line, shown in the report.")
  var subject: String = ""
  @OptionGroup var database: HistoryDatabaseOption

  func validate() throws {
    _ = try nonEmptyPath(results)
    // A SHA-1 commit ID is 40 hex digits, a SHA-256 one 64; an abbreviation at least 4.
    guard (4...64).contains(commit.utf8.count), commit.allSatisfy({ $0.isASCII && $0.isHexDigit })
    else {
      throw ValidationError(
        "--commit takes a commit's SHA (4 to 64 hex digits), got '\(commit.prefix(80))'")
    }
    for (name, value) in [("--parent", parent), ("--branch", branch), ("--subject", subject)]
    where value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      throw ValidationError("\(name) holds a control character")
    }
  }

  func run() throws {
    let text: String
    do { text = try String(contentsOfFile: results, encoding: .utf8) } catch {
      throw ValidationError("cannot read \(results): \(error.localizedDescription)")
    }
    let records: [RunRecord]
    do { records = try RunRecord.records(fromCSV: text) } catch {
      throw ValidationError("\(results): \(error)")
    }
    let figures = HistoryFigure.summarise(records)
    guard !figures.isEmpty else {
      throw ValidationError("\(results): no completed load run to record")
    }
    let history = try database.open(mustExist: false)
    do {
      try history.add(
        sha: commit, parent: parent, branch: branch, subject: subject,
        environment: EnvironmentFingerprint.current(records: records), figures: figures)
    } catch { throw ValidationError("\(error)") }
    print("recorded \(commit.prefix(12)): \(figures.count) figures in \(database.db)")
  }
}

struct HistoryChangesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "changes",
    abstract: "List where each metric changed: metric, strategy, commit or range, size.",
    discussion: """
      Deterministic counts change in exact steps (over 0.1% between measured commits); noisy \
      figures are segmented by optimal partitioning on log values with a penalty calibrated on \
      this machine's A/A histories (the BenchReporting article "CI history"). A change the data cannot pin to one \
      commit is given as a range.
      Exit statuses: 0 done (and, with --gate, no regression at the newest commit); 1 usage or \
      input error; 2 --gate found a regression at the newest commit.
      """)

  @OptionGroup var database: HistoryDatabaseOption
  @Flag(name: .long, help: "Print JSON: an array of changes.")
  var json = false
  @Flag(
    name: .long,
    help:
      "Exit 2 when a regression is found at the newest commit (one where the environment changed is reported, not gated)."
  )
  var gate = false

  func run() throws {
    let history = try database.open()
    let commits: [BenchHistory.Commit]
    let series: [BenchHistory.Series]
    do {
      commits = try history.commits()
      series = try history.series()
    } catch { throw ValidationError("\(error)") }
    let changes = ChangePointDetector.changes(in: series, commits: commits)
    if json {
      print(HistoryJSON.changes(changes))
    } else if changes.isEmpty {
      print("no change in \(commits.count) commits")
    } else {
      for change in changes { print(change.line) }
    }
    let (failing, reported) = ChangePoint.gate(changes, newestCommit: commits.last?.sha)
    if gate {
      for change in reported {
        StandardError.write("gate: not gated, the environment changed there: \(change.line)\n")
      }
    }
    if gate, !failing.isEmpty {
      for change in failing { StandardError.write("gate: \(change.line)\n") }
      throw ExitStatus.gateFailed.exitCode
    }
  }
}

struct HistoryReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Write one self-contained HTML report: trends, change points, last commits.",
    discussion: "Exit statuses: 0 done; 1 usage, input or output error.")

  @OptionGroup var database: HistoryDatabaseOption
  @Option(
    name: .long, help: "The HTML file to write.", completion: .file(), transform: nonEmptyPath)
  var out: String = "history.html"
  @Option(
    name: .long, parsing: .unconditional, help: "Commits the table lists (the newest).",
    transform: wholeNumber(in: 1...OptionBounds.count.upperBound))
  var last: Int = 20

  func validate() throws {
    guard last >= 1 else { throw ValidationError("--last must be 1 or more") }
  }

  func run() throws {
    // By name first, before anything is opened: an --out that is the database, its journal or
    // a descriptor on either (`/dev/fd/7`, `/proc/self/fd/7`) is refused whatever else is open.
    for file in [database.db, database.db + "-journal", database.db + "-wal"]
    where OpenFiles.namesSameFile(out, file) {
      throw ValidationError(
        "--out \(out) is the history database's file \(file): not written over")
    }
    let history = try database.open()
    do {
      let commits = try history.commits()
      let series = try history.series()
      let changes = ChangePointDetector.changes(in: series, commits: commits)
      let html = HistoryReport.html(
        commits: commits, series: series, changes: changes, lastCommits: last)
      // The database stays open while the report is written, so an --out that names it (or a
      // descriptor on it) is refused as a file this command holds open, not written over.
      try withExtendedLifetime(history) { () throws(BenchError) in
        try ResultFiles.writeAtomically(html, to: out)
      }
      print(
        "wrote \(out): \(commits.count) commits, \(series.count) series, \(changes.count) changes, \(html.utf8.count) bytes"
      )
    } catch { throw ValidationError("\(error)") }
  }
}

struct HistoryPruneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "prune",
    abstract: "Keep only the newest commits' figures (what a report shows), and compact the file.",
    discussion:
      "Exit statuses: 0 done; 1 usage, input or output error (the history is left as it was).")

  @OptionGroup var database: HistoryDatabaseOption
  @Option(
    name: .long, parsing: .unconditional, help: "Commits to keep, the newest.",
    transform: wholeNumber(in: 1...OptionBounds.count.upperBound))
  var keep: Int = 500

  func validate() throws {
    guard keep >= 1 else { throw ValidationError("--keep must be 1 or more") }
  }

  func run() throws {
    let history = try database.open()
    do {
      let removed = try history.prune(keepingLast: keep)
      print("removed \(removed) commits; \(database.db) keeps at most \(keep)")
    } catch { throw ValidationError("\(error)") }
  }
}
