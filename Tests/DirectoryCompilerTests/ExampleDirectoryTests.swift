import Datasets
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@testable import DirectoryCompiler

/// The example app's bundled update (Examples/CallerID/Directory) is what `calldir compile`
/// writes from the samples today, so the example never ships bases an older format wrote.
@Suite("The example app's bundled directory")
struct ExampleDirectoryTests {
  @Test func itIsTheSamplesCompiledAsItsREADMESays() throws {
    let checkout = DatasetProfile.profilesDirectory().deletingLastPathComponent().path
    let bundled = checkout + "/Examples/CallerID/Directory"
    let folder = try TemporaryFolder()
    var options = CompileOptions(
      inputs: [(checkout + "/Datasets/samples/sample.tsv", .tsv)], output: folder.path("box"))
    options.country = "RU"
    options.seedSize = 2
    _ = try Compiler(options: options).run()
    let fresh = try Manifest.read(container: folder.path("box"))
    let shipped = try Manifest.read(container: bundled)
    #expect(shipped == fresh, "recompile with the command in Examples/CallerID/README.md")
    #expect(shipped.bases.count == 4)
    for base in shipped.bases {
      #expect(
        FileManager.default.contents(atPath: bundled + "/" + base.file)
          == FileManager.default.contents(atPath: folder.path("box") + "/" + base.file),
        "\(base.file)")
    }
  }
}
