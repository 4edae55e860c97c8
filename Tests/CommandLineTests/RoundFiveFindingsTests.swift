import Foundation
import TestSupport
import Testing

/// Issue 65, items 6 and 15: the smaller findings, a line of test each.
@Suite("Round five's smaller findings")
struct RoundFiveFindingsTests {
  let calldir = builtExecutablePath("calldir")

  @Test func thePatternBudgetsErrorNamesTheLineAndThePlansSize() throws {
    let folder = try TemporaryFolder()
    let patterns = folder.path("fr.tsv")
    try "pattern\tcategory\n+33162######\tspam\n+33163######\tspam\n"
      .write(toFile: patterns, atomically: true, encoding: .utf8)
    let empty = folder.path("empty.tsv")
    try "number\tlabel\n".write(toFile: empty, atomically: true, encoding: .utf8)
    let run = try runProcess(
      calldir,
      [
        "compile", empty, "--block-patterns", patterns, "--out", folder.path("box"),
        "--max-pattern-entries", "1500000",
      ])
    #expect(run.status == 1)
    #expect(run.stderr.contains("fr.tsv:3: +33163###### takes the patterns past"), "\(run.stderr)")
    #expect(run.stderr.contains("together they hold up to 2000000"), "\(run.stderr)")
  }

  @Test func theFirstSwitchOnIsNotReportedAsTheSystemsOwnRequest() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("d.tsv")
    try "number\tlabel\n+79161234567\tA\n".write(toFile: dump, atomically: true, encoding: .utf8)
    let flags = ["--container", folder.path("b"), "--host-dir", folder.path("h")]
    #expect(try runProcess(calldir, ["compile", dump, "--out", folder.path("b")]).status == 0)
    #expect(try runProcess(calldir, ["host", "enable", "x.z"] + flags).status == 0)
    let sync = try runProcess(calldir, ["app", "sync", "x.z"] + flags)
    #expect(sync.status == 0, "\(sync.stderr)")
    #expect(!sync.stdout.contains("on its own"), "\(sync.stdout)")
  }

  @Test func aKazakhNumbersLengthErrorNamesKazakhstan() throws {
    let run = try runProcess(calldir, ["normalize", "--country", "KZ"], stdin: "8 701 12\n")
    #expect(
      run.stdout == "error: wrong length for KZ: 6 digits, expected 10 or 14\n", "\(run.stdout)")
  }

  /// A pattern file and an allow list with CRLF line ends read as their LF twins (item 15).
  @Test func crlfPatternFilesAndAllowListsAreRead() throws {
    let folder = try TemporaryFolder()
    let patterns = folder.path("fr.tsv")
    try "pattern\tcategory\r\n+33162######\tspam\r\n"
      .write(toFile: patterns, atomically: true, encoding: .utf8)
    let allow = folder.path("allow.txt")
    try "+33162000012\r\n+33162000013\r\n".write(toFile: allow, atomically: true, encoding: .utf8)
    let empty = folder.path("empty.tsv")
    try "number\tlabel\n".write(toFile: empty, atomically: true, encoding: .utf8)
    let run = try runProcess(
      calldir,
      [
        "compile", empty, "--block-patterns", patterns, "--allow", allow, "--out",
        folder.path("box"),
      ])
    #expect(run.status == 0, "\(run.stderr)")
    let manifest = try String(contentsOfFile: folder.path("box/manifest.cdm"), encoding: .utf8)
    #expect(manifest.contains("\t999998\t"), "\(manifest)")
  }

  /// `--entries -1` names the value it refuses, not "Missing value" (item 15).
  @Test func aNegativeEntryCountIsNamed() throws {
    let run = try runProcess(
      calldir, ["generate", "--entries", "-1", "--format", "tsv", "--out", "/dev/null"])
    #expect(run.status == 1)
    #expect(!run.stderr.contains("Missing value"), "\(run.stderr)")
    #expect(run.stderr.contains("-1"), "\(run.stderr)")
  }
}
