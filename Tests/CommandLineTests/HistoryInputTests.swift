import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// History and charts take only what they can show right (issue 39, item 13): a bad row is
/// refused with its line, a commit ID is a commit ID, prune on a database it cannot write is an
/// error, and every chart is well-formed XML.
@Suite("History and charts refuse bad rows; charts parse as XML")
struct HistoryInputTests {
  let calldir = builtExecutablePath("calldir")
  let results = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Results")

  /// A bench CSV whose second row's `column` holds `value`.
  func csv(_ column: String, _ value: String) -> String {
    var lines = HistoryCommandTests().benchCSV(instructions: 380, load: 0.006)
      .components(separatedBy: "\r\n")
    let header = lines[0].components(separatedBy: ",")
    var row = lines[2].components(separatedBy: ",")
    row[header.firstIndex(of: column)!] = value
    lines[2] = row.joined(separator: ",")
    return lines.joined(separator: "\r\n")
  }

  @Test(arguments: [
    ("strategy", "mm\u{0}ap", "control character"),
    ("strategy", "mmap\u{1B}[2J", "control character"),
    ("load_s", "-5", "0 or more"), ("load_s", "nan", "finite"), ("load_s", "inf", "finite"),
    ("instructions_per_entry", "1e309", "finite"), ("footprint_peak_bytes", "-1", "0 or more"),
  ])
  func aBadRowIsRefusedWithItsLineByHistoryAndByChart(
    column: String, value: String, problem: String
  )
    throws
  {
    let folder = try TemporaryFolder()
    let path = folder.path("run.csv")
    try csv(column, value).write(toFile: path, atomically: true, encoding: .utf8)
    let added = try runProcess(
      calldir,
      ["history", "add", path, "--commit", "abcdef12", "--db", folder.path("h.sqlite")])
    #expect(added.status == 1, "\(column)=\(value): \(added.stdout)")
    #expect(added.stderr.contains("line 3") && added.stderr.contains(problem), "\(added.stderr)")
    #expect(added.stderr.split(separator: "\n").count == 1)
    let chart = try runProcess(calldir, ["chart", path, "--out", folder.path("c.svg")])
    #expect(chart.status == 1 && chart.stderr.contains("line 3"), "\(chart.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("c.svg")))
  }

  @Test(arguments: [String(repeating: "a", count: 10_000), "abc", "g123456", "12345678-"])
  func aCommitIDIsFourToSixtyFourHexDigits(commit: String) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("run.csv")
    try HistoryCommandTests().benchCSV(instructions: 380, load: 0.006).write(
      toFile: path, atomically: true, encoding: .utf8)
    let run = try runProcess(
      calldir, ["history", "add", path, "--commit", commit, "--db", folder.path("h.sqlite")])
    #expect(run.status == 1 && run.stderr.contains("4 to 64 hex digits"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("h.sqlite")))
  }

  @Test(.enabled(if: UpdateDiskTests.canMount, "needs root to mount a read-only volume"))
  func pruneOnADatabaseItCannotWriteFails() throws {
    let folder = try TemporaryFolder()
    let volume = folder.path("volume")
    let unmount = try UpdateDiskTests().mountVolume(volume, kibibytes: 4096)
    defer { unmount() }
    let path = folder.path("run.csv")
    try HistoryCommandTests().benchCSV(instructions: 380, load: 0.006).write(
      toFile: path, atomically: true, encoding: .utf8)
    let db = volume + "/h.sqlite"
    #expect(
      try runProcess(calldir, ["history", "add", path, "--commit", "abcdef12", "--db", db]).status
        == 0)
    let readOnly = try runProcess("/bin/mount", ["-o", "remount,ro", volume])
    #expect(readOnly.status == 0, "\(readOnly.stderr)")
    let pruned = try runProcess(calldir, ["history", "prune", "--db", db, "--keep", "10"])
    #expect(pruned.status == 1, "\(pruned.stdout)")
    #expect(pruned.stderr.contains("cannot prune"), "\(pruned.stderr)")
  }

  /// Every chart the committed results draw, and one whose names hold markup characters,
  /// parses as XML (control characters are refused with their row, and escaped as U+FFFD should
  /// one come another way).
  @Test func everyChartParsesAsXML() throws {
    let folder = try TemporaryFolder()
    var sources = try FileManager.default.contentsOfDirectory(atPath: results.path)
      .filter { $0.hasSuffix(".csv") }.map { results.appendingPathComponent($0).path }
    let hostile = folder.path("hostile.csv")
    try csv("host", "\"<b>&'\"\"x\"").replacingOccurrences(of: "ci-smoke", with: "<ci&'smoke>")
      .write(toFile: hostile, atomically: true, encoding: .utf8)
    sources.append(hostile)
    var drawn = 0
    for (index, source) in sources.enumerated() {
      let out = folder.path("chart-\(index).svg")
      let run = try runProcess(calldir, ["chart", source, "--out", out])
      // Some committed CSVs (compile and update tables) are not bench runs: chart names the
      // command that draws them.
      guard run.status == 0 else {
        #expect(run.stderr.contains("is drawn by "), "\(source): \(run.stderr)")
        continue
      }
      drawn += 1
      let data = try Data(contentsOf: URL(fileURLWithPath: out))
      let parser = XMLParser(data: data)
      #expect(parser.parse(), "\(source): \(parser.parserError.map { "\($0)" } ?? "")")
      #expect(!String(decoding: data, as: UTF8.self).contains("nan"))
    }
    #expect(drawn >= 8)
  }
}
