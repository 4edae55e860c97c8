import Foundation
import TestSupport
import Testing

/// The fuzz targets' seed corpus (and any crash kept there) replays through the normal build:
/// every input keeps its target's property.
@Suite("The fuzz corpus replays clean")
struct FuzzCorpusTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("FuzzCorpus").path

  @Test(arguments: ["base", "manifest", "frame", "rows", "normalize", "index", "patterns", "rules"])
  func everyInputKeepsTheProperty(target: String) throws {
    let folder = Self.corpus + "/" + target
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    #expect(!files.isEmpty, "a seed corpus for \(target)")
    let run = try runProcess(
      builtExecutablePath("calldir-fuzz"), [target] + files.map { folder + "/" + $0 })
    #expect(run.status == 0, "\(run.stderr)")
  }

  @Test func anUnknownTargetIsAUsageError() throws {
    let run = try runProcess(builtExecutablePath("calldir-fuzz"), ["nothing"])
    #expect(run.status == 1)
    #expect(run.stderr.hasPrefix("usage: calldir-fuzz"), "\(run.stderr)")
  }
}
