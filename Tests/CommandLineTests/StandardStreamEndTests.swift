import Foundation
import TestSupport
import Testing

/// What a command does when its standard streams end early (issue 65, item 10): `normalize`
/// and `inspect --dump` trapped (SIGILL, 132) on a broken pipe or a full stdout, a closed
/// stdout lost the output with status 0, and a closed stdin read as empty.
@Suite("calldir on a broken pipe, a full stdout and closed streams")
struct StandardStreamEndTests {
  let calldir = builtExecutablePath("calldir")

  /// Runs `script` in bash with `$0` the tool and `$1` `argument`; the script's own echo of
  /// `PIPESTATUS` tells the first command's status.
  func bash(_ script: String, _ argument: String = "") throws -> ProcessRun {
    try runProcess("/bin/bash", ["-c", script, calldir, argument])
  }

  @Test func aReaderThatGoesAwayEndsNormalizeQuietlyWith141() throws {
    let folder = try TemporaryFolder()
    let numbers = folder.path("numbers.txt")
    try String(repeating: "8 495 123 45 67\n", count: 200_000)
      .write(toFile: numbers, atomically: true, encoding: .utf8)
    let run = try bash(
      "\"$0\" normalize --country RU < \"$1\" | head -1; echo \"status ${PIPESTATUS[0]}\"",
      numbers)
    #expect(run.stdout == "74951234567\nstatus 141\n", "\(run.stdout)")
    #expect(run.stderr.isEmpty, "\(run.stderr)")
  }

  @Test func aReaderThatGoesAwayEndsInspectDumpQuietlyWith141() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("dump.tsv")
    let generated = try runProcess(
      calldir,
      [
        "generate", "--profile", "ci-smoke", "--entries", "200000", "--format", "tsv", "--out",
        dump,
      ])
    #expect(generated.status == 0, "\(generated.stderr)")
    #expect(try runProcess(calldir, ["compile", dump, "--out", folder.path("box")]).status == 0)
    let base = try #require(
      try FileManager.default.contentsOfDirectory(atPath: folder.path("box/bases"))
        .filter { $0.hasSuffix(".cdb") }.sorted().last)
    let run = try bash(
      "\"$0\" inspect --dump \"$1\" | head -1 >/dev/null; echo \"status ${PIPESTATUS[0]}\"",
      folder.path("box/bases/" + base))
    #expect(run.stdout == "status 141\n", "\(run.stdout)")
    #expect(run.stderr.isEmpty, "\(run.stderr)")
  }

  @Test func aFullOrClosedStdoutIsAnErrorNotASuccess() throws {
    for redirect in [">/dev/full", "1>&-"] {
      let run = try bash("echo '8 495 123 45 67' | \"$0\" normalize --country RU \(redirect)")
      #expect(run.status == 1, "\(redirect): \(run.status)")
      #expect(run.stderr.hasPrefix("calldir: cannot write to stdout: "), "\(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }
  }

  @Test func aClosedStdinIsRefusedNotReadAsEmpty() throws {
    let run = try bash("\"$0\" normalize --country RU <&-")
    #expect(run.status == 1)
    #expect(run.stderr.contains("standard input is closed"), "\(run.stderr)")
  }
}
