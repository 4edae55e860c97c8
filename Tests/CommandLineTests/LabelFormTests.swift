import Foundation
import TestSupport
import Testing

/// Both ways of making a label's `String` (the iOS 26 span form, and the form every iOS from
/// 16 has, forced by `CALLDIR_LABEL_FORM=compatible`) give the same labels, through both
/// readers, fixed-width and compact.
@Suite("The label forms for iOS 16-25 and iOS 26 read the same labels")
struct LabelFormTests {
  let calldir = builtExecutablePath("calldir")

  @Test(arguments: [[], ["--fixed-width"]])
  func bothFormsDumpTheSameEntries(format: [String]) throws {
    let folder = try TemporaryFolder()
    let (dump, box) = (folder.path("dump.tsv"), folder.path("box"))
    let generate = try runProcess(
      calldir,
      ["generate", "--profile", "ci-smoke", "--entries", "20000", "--format", "tsv", "--out", dump])
    #expect(generate.status == 0, "\(generate.stderr)")
    let compile = try runProcess(
      calldir, ["compile", dump, "--out", box, "--country", "RU", "--seed-size", "0"] + format)
    #expect(compile.status == 0, "\(compile.stderr)")
    let bases = try FileManager.default.contentsOfDirectory(atPath: box + "/bases")
    #expect(!bases.isEmpty)
    for name in bases {
      var environment = ProcessInfo.processInfo.environment
      let arguments = ["inspect", box + "/bases/" + name, "--dump"]
      let span = try runProcess(calldir, arguments, environment: environment)
      environment["CALLDIR_LABEL_FORM"] = "compatible"
      let compatible = try runProcess(calldir, arguments, environment: environment)
      #expect(span.status == 0 && compatible.status == 0, "\(span.stderr) \(compatible.stderr)")
      #expect(span.stdout.split(separator: "\n").count > 10)
      #expect(span.stdout == compatible.stdout, "\(name)")
    }
  }
}
