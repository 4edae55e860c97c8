import Foundation
import TestSupport
import Testing

/// Every bench checks where it will write before it runs (issue 65, item 15): an output in a
/// folder that does not exist, or the default `Results/` run from another folder, fails at
/// once with one line, and nothing is generated, compiled or measured first.
@Suite("A bench's outputs are checked before its runs")
struct BenchOutputsFirstTests {
  let calldir = builtExecutablePath("calldir")

  @Test(arguments: [
    ["bench", "--profile", "ci-smoke", "--entries", "1000", "--repeat", "1"],
    [
      "bench", "--profile", "ci-smoke", "--entries", "1000", "--repeat", "1", "--out",
      "/nope/x.csv",
    ],
    [
      "bench", "--profile", "ci-smoke", "--entries", "1000", "--repeat", "1", "--out", "x.csv",
      "--json", "/nope/j.json",
    ],
    ["bench", "two-phase", "--profile", "ci-smoke", "--entries", "1000", "--repeat", "1"],
    ["bench", "patterns", "--wildcards", "1", "--repeat", "1", "--out", "/nope/p.csv"],
    [
      "bench", "update", "--profile", "ci-smoke", "--entries", "1000", "--repeat", "1", "--out",
      "/nope/u.csv",
    ],
    [
      "bench", "user-edits", "--entries", "1000", "--wildcards", "1", "--repeat", "1", "--out",
      "/nope/e.csv",
    ],
  ])
  func aMissingOutputFolderFailsBeforeAnyRun(arguments: [String]) throws {
    let folder = try TemporaryFolder()
    let run = try runProcess(calldir, arguments, directory: folder.url)
    #expect(run.status == 1, "\(run.stdout)")
    #expect(run.stderr.contains("does not exist"), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    // Nothing ran: no dataset was generated, no base compiled.
    let made = (try? FileManager.default.subpathsOfDirectory(atPath: folder.url.path)) ?? []
    #expect(!made.contains { $0.hasSuffix(".tsv") || $0.hasSuffix(".cdb") }, "\(made)")
  }
}
