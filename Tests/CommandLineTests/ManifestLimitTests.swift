import Foundation
import TestSupport
import Testing

/// Writers refuse the manifest every reader refuses (issue 65, item 9): a compile of 9,000
/// regions wrote 1.6 MB, over the 1 MiB limit, and every later command refused the container.
@Suite("A manifest over the readers' limit is never written")
struct ManifestLimitTests {
  let calldir = builtExecutablePath("calldir")

  @Test func aCompileOfTooManyRegionsIsRefusedAndTheContainerKept() throws {
    let folder = try TemporaryFolder()
    let few = folder.path("few.tsv")
    try "number\tlabel\tregion\n+79161234567\tA\tR1\n"
      .write(toFile: few, atomically: true, encoding: .utf8)
    let box = folder.path("box")
    #expect(try runProcess(calldir, ["compile", few, "--out", box, "--country", "RU"]).status == 0)
    let before = try FileManager.default.contentsOfDirectory(atPath: box + "/bases").sorted()
    let manifest = try Data(contentsOf: URL(fileURLWithPath: box + "/manifest.cdm"))
    var rows = "number\tlabel\tregion\n"
    for index in 0..<6_500 { rows += "+7916\(String(format: "%07d", index))\tL\tR\(index)\n" }
    let many = folder.path("many.tsv")
    try rows.write(toFile: many, atomically: true, encoding: .utf8)
    let run = try runProcess(calldir, ["compile", many, "--out", box, "--country", "RU"])
    #expect(run.status == 1)
    #expect(run.stderr.contains("over the 1048576 a manifest may hold"), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: box + "/manifest.cdm")) == manifest)
    #expect(try FileManager.default.contentsOfDirectory(atPath: box + "/bases").sorted() == before)
    let status = try runProcess(calldir, ["app", "status", "--container", box])
    #expect(status.status == 0, "\(status.stderr)")
  }
}
