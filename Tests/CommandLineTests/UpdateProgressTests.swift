import Foundation
import TestSupport
import Testing

/// `calldir app update --progress json`: the downloading, patching and staging phases as one
/// JSON object per update on stderr, the events still a log on stdout, and nothing on a pipe
/// (issue 44, item 4).
extension ReleaseUpdateTests {
  @Test func anUpdateShowsItsPhasesAsJSONLinesAndNothingOnAPipe() throws {
    let folder = try TemporaryFolder()
    try twoVersions(folder)
    try FileManager.default.copyItem(atPath: folder.path("app"), toPath: folder.path("piped"))
    let json = try runProcess(
      calldir,
      [
        "app", "update", "--from", folder.path("R"), "--container", folder.path("app"),
        "--progress", "json",
      ])
    #expect(json.status == 0, "\(json.stderr)")
    let objects = try ProgressLines.objects(json.stderr)
    #expect(
      ProgressLines.phaseOrder(objects) == ["downloading", "patching", "staging"], "\(objects)")
    #expect(objects.allSatisfy { $0["command"] as? String == "app update" })
    let downloading = objects.filter { $0["phase"] as? String == "downloading" }
    let last = try #require(downloading.last)
    // Every byte of the patches the index declares, counted once each.
    #expect((last["total"] as? Int ?? 0) > 0 && last["done"] as? Int == last["total"] as? Int)
    #expect(downloading.allSatisfy { $0["unit"] as? String == "bytes" })
    #expect(objects.last?["phase"] as? String == "staging")
    #expect(objects.last?["done"] as? Int == objects.last?["total"] as? Int)
    // The log and the summary stay on stdout.
    #expect(json.stdout.contains("patched (1 patch)"), "\(json.stdout)")
    #expect(json.stdout.contains("version 2: 2 patched"), "\(json.stdout)")
    let piped = try update(folder.path("R"), folder.path("piped"))
    #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr.debugDescription)")
    #expect(!piped.stdout.contains("downloading:"), "\(piped.stdout)")
  }
}
