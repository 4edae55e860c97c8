import Foundation
import TestSupport
import Testing

/// On the command line: an empty dump exits 5 and leaves the container; `app choose` with an
/// empty list is a usage error; `--none` and `--all` say it on purpose.
@Suite("compile --allow-shrink and app choose --all/--none, on the command line")
struct ShrinkCommandTests {
  let calldir = builtExecutablePath("calldir")

  @Test func anEmptyDumpExits5AndAnEmptyChoiceIsAUsageError() throws {
    let folder = try TemporaryFolder()
    let (dump, empty, box) = (folder.path("dump.tsv"), folder.path("empty.tsv"), folder.path("box"))
    var text = "number\tlabel\tregion\n"
    for index in 0..<20 { text += "+7495\(1_000_000 + index)\tM \(index)\tMOW\n" }
    for index in 0..<20 { text += "+7812\(1_000_000 + index)\tP \(index)\tSPE\n" }
    try text.write(toFile: dump, atomically: true, encoding: .utf8)
    try "number\tlabel\tregion\n".write(toFile: empty, atomically: true, encoding: .utf8)
    let compile = ["compile", "--out", box, "--seed-size", "0"]
    #expect(try runProcess(calldir, compile + [dump]).status == 0)
    let manifest = try String(contentsOfFile: box + "/manifest.cdm", encoding: .utf8)

    let refused = try runProcess(calldir, compile + [empty])
    #expect(refused.status == 5)
    #expect(refused.stderr.contains("no entries") && refused.stderr.contains("--allow-shrink"))
    #expect(try String(contentsOfFile: box + "/manifest.cdm", encoding: .utf8) == manifest)

    for list in ["", ",,,", " , "] {
      let choose = try runProcess(calldir, ["app", "choose", list, "--container", box])
      #expect(choose.status == 1, "'\(list)'")
      #expect(choose.stderr.contains("names no region"), "\(choose.stderr)")
    }
    #expect(try String(contentsOfFile: box + "/manifest.cdm", encoding: .utf8) == manifest)
    let both = try runProcess(calldir, ["app", "choose", "MOW", "--none", "--container", box])
    #expect(both.status == 1)
    let none = try runProcess(calldir, ["app", "choose", "--none", "--container", box])
    #expect(none.status == 0 && none.stdout.contains("chosen: none"), "\(none.stderr)")
    let all = try runProcess(calldir, ["app", "choose", "--all", "--container", box])
    #expect(all.status == 0 && all.stdout.contains("chosen: MOW, SPE"), "\(all.stdout)")
    let shrunk = try runProcess(calldir, compile + [empty, "--allow-shrink"])
    #expect(shrunk.status == 0, "\(shrunk.stderr)")
  }
}
