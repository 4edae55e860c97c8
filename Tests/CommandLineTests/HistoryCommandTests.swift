import Foundation
import TestSupport
import Testing

/// `calldir history` end to end through the built binary (issue 29): bench CSVs recorded per
/// commit, the planted step found at its commit (text, JSON and `--gate`), a report written,
/// prune bounding the file, and bad input refused in one line with status 1.
@Suite("calldir history: add, changes, report, prune")
struct HistoryCommandTests {
  let calldir = builtExecutablePath("calldir")

  /// A bench CSV of one strategy, three repeats, with `instructions` per entry: the columns
  /// `calldir bench` writes and reads back (the rest empty).
  func benchCSV(instructions: Double, load: Double) -> String {
    let columns: [(String, (Int) -> String)] = [
      ("timestamp", { _ in "2026-11-25T10:00:00Z" }), ("commit", { _ in "abc" }),
      ("host", { _ in "vm" }), ("profile", { _ in "ci-smoke" }), ("entries", { _ in "200000" }),
      ("file_bytes", { _ in "1500000" }), ("strategy", { _ in "mmap" }),
      ("binary", { _ in "calldir-extension" }), ("repeat", { "\($0)" }),
      ("wall_s", { _ in "0.01" }), ("load_s", { "\(load + Double($0) * 0.0001)" }),
      ("user_s", { _ in "0.005" }), ("sys_s", { _ in "0.001" }),
      ("entries_per_s", { _ in "32000000" }), ("peak_rss_bytes", { _ in "11000000" }),
      ("idle_rss_bytes", { _ in "10000000" }), ("footprint_peak_bytes", { _ in "1100000" }),
      ("heap_peak_bytes", { _ in "" }), ("memory_limit_bytes", { _ in "5242880" }),
      ("status", { _ in "ok" }), ("run", { _ in "load" }),
      ("instructions_per_entry", { _ in "\(instructions)" }), ("allocator", { _ in "jemalloc" }),
    ]
    let header = columns.map(\.0).joined(separator: ",")
    let rows = (1...3).map { index in columns.map { $0.1(index) }.joined(separator: ",") }
    return ([header] + rows).joined(separator: "\r\n") + "\r\n"
  }

  @Test func aPlantedInstructionStepIsReportedAtItsCommit() throws {
    let folder = try TemporaryFolder()
    let db = folder.path("history.sqlite")
    for number in 1...12 {
      let csv = folder.path("run-\(number).csv")
      try benchCSV(instructions: number >= 8 ? 384.0 : 380.0, load: 0.0062)
        .write(toFile: csv, atomically: true, encoding: .utf8)
      let sha = String(format: "%040x", number)
      let added = try runProcess(
        calldir,
        ["history", "add", csv, "--commit", sha, "--subject", "commit \(number)", "--db", db])
      #expect(added.status == 0, "\(added.stderr)")
    }
    let changes = try runProcess(calldir, ["history", "changes", "--db", db])
    #expect(changes.status == 0)
    let planted = String(format: "%040x", 8).prefix(12)
    #expect(changes.stdout.contains("instructions_per_entry mmap: +1.05% regression at \(planted)"))
    #expect(!changes.stdout.contains("load_s"), "\(changes.stdout)")
    let json = try runProcess(calldir, ["history", "changes", "--db", db, "--json"])
    let array = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(array.count == 1)
    #expect(array.first?["commit"] as? String == String(format: "%040x", 8))
    #expect(array.first?["direction"] as? String == "regression")
    #expect(array.first?["exact"] as? Bool == true)
    // The gate looks at the newest commit only: commit 12 changed nothing.
    #expect(try runProcess(calldir, ["history", "changes", "--db", db, "--gate"]).status == 0)
    let report = try runProcess(
      calldir, ["history", "report", "--db", db, "--out", folder.path("report.html")])
    #expect(report.status == 0, "\(report.stderr)")
    let html = try String(contentsOfFile: folder.path("report.html"), encoding: .utf8)
    #expect(html.contains("<svg") && html.contains(String(planted.prefix(7))))
    let pruned = try runProcess(calldir, ["history", "prune", "--db", db, "--keep", "5"])
    #expect(pruned.stdout.contains("removed 7 commits"))
  }

  @Test func aRegressionAtTheNewestCommitFailsTheGate() throws {
    let folder = try TemporaryFolder()
    let db = folder.path("history.sqlite")
    for number in 1...4 {
      let csv = folder.path("run-\(number).csv")
      try benchCSV(instructions: number == 4 ? 390.0 : 380.0, load: 0.0062)
        .write(toFile: csv, atomically: true, encoding: .utf8)
      _ = try runProcess(
        calldir, ["history", "add", csv, "--commit", String(format: "%040x", number), "--db", db])
    }
    let gate = try runProcess(calldir, ["history", "changes", "--db", db, "--gate"])
    #expect(gate.status == 2)
    #expect(gate.stderr.contains("gate: instructions_per_entry mmap: +2.63% regression"))
  }

  @Test func badInputIsOneLineAndStatusOne() throws {
    let folder = try TemporaryFolder()
    let notCSV = folder.path("x.csv")
    try "no,such\r\ncolumns,here\r\n".write(toFile: notCSV, atomically: true, encoding: .utf8)
    let cases: [([String], String)] = [
      (["history", "add", notCSV, "--commit", "abc1", "--db", folder.path("h")], "x.csv"),
      (["history", "add", notCSV, "--commit", "not-a-sha", "--db", folder.path("h")], "--commit"),
      (["history", "changes", "--db", folder.path("missing.sqlite")], "no such history"),
      (["history", "report", "--db", folder.path("missing.sqlite")], "no such history"),
      (["history", "prune", "--db", folder.path("h"), "--keep", "0"], "--keep"),
    ]
    for (arguments, expected) in cases {
      let result = try runProcess(calldir, arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
    let junk = folder.path("junk.sqlite")
    try "not a database at all, just text".write(toFile: junk, atomically: true, encoding: .utf8)
    let result = try runProcess(calldir, ["history", "changes", "--db", junk])
    #expect(result.status == 1)
    #expect(result.stderr.contains("not a bench history"), "\(result.stderr)")
  }
}
