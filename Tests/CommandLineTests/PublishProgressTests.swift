import Foundation
import TestSupport
import Testing

/// `calldir publish --progress json`: one object per update on stderr, the copying phase then
/// the patching phase, and nothing on a pipe (issue 44, item 4).
@Suite("calldir publish shows its progress")
struct PublishProgressTests {
  let calldir = builtExecutablePath("calldir")

  @Test func progressIsJSONLinesOnAskingAndNothingOnAPipe() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("dump.tsv")
    #expect(
      try runProcess(
        calldir,
        [
          "generate", "--profile", "ci-smoke", "--entries", "3000", "--format", "tsv", "--out",
          dump,
        ]
      ).status == 0)
    let box = folder.path("box")
    #expect(try runProcess(calldir, ["compile", dump, "--out", box]).status == 0)
    let json = try runProcess(
      calldir, ["publish", box, "--out", folder.path("R"), "--progress", "json"])
    #expect(json.status == 0, "\(json.stderr)")
    let objects = try ProgressLines.objects(json.stderr)
    let phases = objects.compactMap { $0["phase"] as? String }
    let order = ProgressLines.phaseOrder(objects)
    #expect(order == ["copying", "patching"], "\(phases)")
    #expect(
      objects.allSatisfy {
        $0["command"] as? String == "publish" && $0["unit"] as? String == "bases"
          && ($0["total"] as? Int ?? 0) > 0
      })
    let last = try #require(objects.last)
    #expect(last["done"] as? Int == last["total"] as? Int)
    #expect(json.stdout.contains("version 1:"), "\(json.stdout)")
    // The next version, piped (or --quiet): only the summary.
    #expect(
      try runProcess(calldir, ["compile", dump, "--out", box, "--base-version", "2"]).status == 0)
    for (index, arguments) in [[], ["--quiet"]].enumerated() {
      let piped = try runProcess(
        calldir, ["publish", box, "--out", folder.path("R\(index)")] + arguments)
      #expect(piped.status == 0)
      #expect(piped.stderr.isEmpty, "\(arguments): \(piped.stderr.debugDescription)")
    }
  }
}
