import Foundation
import TestSupport
import Testing

/// Closed, full and broken standard descriptors (issue 52, item 8): a diagnostic that cannot be
/// written is dropped, never fatal; a closed descriptor is never handed to a file the command
/// opens; a broken pipe on stdout is an error, not a silent death.
@Suite("Closed, full and broken standard descriptors")
struct StandardDescriptorTests {
  let calldir = builtExecutablePath("calldir")

  /// Runs `script` under `/bin/sh` with `$0` the calldir executable.
  func shell(_ script: String, in folder: TemporaryFolder) throws -> ProcessRun {
    try runProcess("/bin/sh", ["-c", script, calldir], directory: folder.url)
  }

  func dump(in folder: TemporaryFolder) throws {
    let made = try shell(
      "\"$0\" generate --profile ci-smoke --entries 2000 --format tsv --out d.tsv", in: folder)
    #expect(made.status == 0, "\(made.stderr)")
  }

  @Test func aFullStderrDropsTheDiagnosticAndKeepsTheExitStatus() throws {
    let folder = try TemporaryFolder()
    try dump(in: folder)
    for command in [
      "inspect /nonexistent", "compile /nonexistent --out box",
      "compile d.tsv --out box2 --progress json",
    ] {
      let run = try shell("\"$0\" \(command) 2>/dev/full; echo \"status $?\"", in: folder)
      let expected = command.hasPrefix("compile d.tsv") ? "status 0" : "status 1"
      #expect(run.stdout.contains(expected), "\(command): \(run.stdout)")
    }
  }

  @Test func aClosedStderrIsNeverGivenToTheLockFile() throws {
    let folder = try TemporaryFolder()
    try dump(in: folder)
    let run = try shell(
      "\"$0\" compile d.tsv --out k1 --progress json 2>&-; echo \"status $?\"", in: folder)
    #expect(run.stdout.contains("status 0"), "\(run.stdout)")
    let lock = try Data(contentsOf: folder.url.appendingPathComponent("k1/.lock"))
    #expect(!String(decoding: lock, as: UTF8.self).contains("{"), "progress JSON in the lock file")
    let closedAll = try shell(
      "\"$0\" compile d.tsv --out k2 <&- 1>&- 2>&-; echo \"status $?\" > status.txt", in: folder)
    #expect(closedAll.status == 0)
    // The compile is committed, but its summary had nowhere to go: status 1, not a silent 0
    // (issue 65, item 10); its line says the work is done.
    let status = try String(contentsOfFile: folder.path("status.txt"), encoding: .utf8)
    #expect(status == "status 1\n", "\(status)")
    #expect(FileManager.default.fileExists(atPath: folder.path("k2/manifest.cdm")))
    let closedOut = try shell("\"$0\" compile d.tsv --out k3 1>&-", in: folder)
    #expect(closedOut.status == 1)
    #expect(
      closedOut.stderr.contains("cannot write to stdout") && closedOut.stderr.contains("done"),
      "\(closedOut.stderr)")
  }

  @Test func aBrokenPipeOnStdoutIsAnError() throws {
    let folder = try TemporaryFolder()
    // 200,000 rows, far more than a pipe holds: `head` closes it after the first line.
    let run = try shell(
      """
      "$0" generate --profile ci-smoke --entries 200000 --format tsv --out /dev/stdout \
        2>err.txt | head -c 10 >/dev/null; echo "status ${PIPESTATUS:-$?}"; cat err.txt
      """, in: folder)
    let stderr = try String(
      contentsOf: folder.url.appendingPathComponent("err.txt"), encoding: .utf8)
    #expect(stderr.contains("Broken pipe"), "\(run.stdout) \(stderr)")
    #expect(stderr.split(separator: "\n").count <= 2, "\(stderr)")
  }
}
