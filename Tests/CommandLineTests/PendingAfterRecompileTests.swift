import Foundation
import TestSupport
import Testing

/// Issue 65, items 1 and 2, as the issue reproduced them: a recompile into a synced container
/// is pending until the next sync, and a first launch's status exits 0.
@Suite("app status after a recompile, and on an empty container")
struct PendingAfterRecompileTests {
  let calldir = builtExecutablePath("calldir")

  @Test func aRecompileIsPendingAndAnEmptyContainersStatusSucceeds() throws {
    let folder = try TemporaryFolder()
    func run(_ arguments: [String]) throws -> ProcessRun {
      try runProcess(calldir, arguments, directory: folder.url)
    }
    try "number\tlabel\n+79161234567\tA\n+79161234568\tB\n"
      .write(toFile: folder.path("d1.tsv"), atomically: true, encoding: .utf8)
    try "number\tlabel\n+79161234567\tA2\n+79161234569\tC\n+79161234570\tD\n"
      .write(toFile: folder.path("d2.tsv"), atomically: true, encoding: .utf8)
    let host = ["--host-dir", "h"]
    #expect(try run(["compile", "d1.tsv", "--out", "b"]).status == 0)
    #expect(try run(["host", "enable", "x.z", "--container", "b"] + host).status == 0)
    #expect(try run(["app", "sync", "x.z", "--container", "b"] + host).status == 0)
    #expect(try run(["compile", "d2.tsv", "--out", "b"]).status == 0)
    let pending = try run(["app", "status", "x.z", "--container", "b"] + host)
    #expect(pending.status == 0, "\(pending.stderr)")
    #expect(!pending.stdout.contains("nothing pending"), "\(pending.stdout)")
    #expect(
      pending.stdout.contains("pending at the next sync: 2 bases changed"), "\(pending.stdout)")
    #expect(try run(["app", "sync", "x.z", "--container", "b"] + host).status == 0)
    let synced = try run(["app", "status", "x.z", "--container", "b"] + host)
    #expect(synced.stdout.contains("nothing pending"), "\(synced.stdout)")

    try FileManager.default.createDirectory(
      atPath: folder.path("e"), withIntermediateDirectories: true)
    #expect(try run(["host", "enable", "y.z", "--container", "e"] + host).status == 0)
    let empty = try run(["app", "status", "y.z", "--container", "e"] + host)
    #expect(empty.status == 0, "\(empty.stderr)")
    #expect(empty.stderr.isEmpty, "\(empty.stderr)")
  }
}
