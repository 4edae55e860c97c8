import Foundation
import TestSupport
import Testing

/// Every way of making a label's `String` (the iOS 26 span form; the form iOS 16–25 use, forced
/// by `CALLDIR_LABEL_FORM=compatible`; the public validating one, `=validating`) gives the same
/// labels, through both readers, fixed-width and compact.
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
      #expect(span.status == 0, "\(span.stderr)")
      #expect(span.stdout.split(separator: "\n").count > 10)
      for form in ["compatible", "validating"] {
        environment["CALLDIR_LABEL_FORM"] = form
        let other = try runProcess(calldir, arguments, environment: environment)
        #expect(other.status == 0, "\(form): \(other.stderr)")
        #expect(span.stdout == other.stdout, "\(name), \(form)")
      }
    }
  }
}
