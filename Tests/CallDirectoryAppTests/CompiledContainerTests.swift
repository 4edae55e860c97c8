import CallDirectoryApp
import CallDirectoryHost
import Datasets
import DirectoryCompiler
import Foundation
import HostTestSupport
import Testing

@Suite("From a directory dump to lookups: compile, enable, sync")
struct CompiledContainerTests {
  @Test func aCompiledContainerLoadsThroughTheSystem() async throws {
    let fixture = try HostFixture()
    let samples = DatasetProfile.profilesDirectory().appendingPathComponent("samples").path
    var options = CompileOptions(
      inputs: [(samples + "/sample.tsv.gz", .tsv)], output: fixture.app.container)
    options.seedSize = 1
    let report = try Compiler(options: options).run()
    #expect(report.rejectedCount == 1)

    let first = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(first.succeeded, "\(first.detail)")
    #expect(
      try fixture.system.store.counts(of: fixture.bundleID).identification == 1,
      "phase one: the seed set")
    #expect(
      try fixture.system.lookup(74_951_234_567)
        == .identified(label: "Аптека Ригла", bundleID: fixture.bundleID))

    let second = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(second.first?.succeeded == true, "\(second.map(\.detail))")
    #expect(
      try fixture.system.lookup(78_125_550_102)
        == .identified(label: "Кафе «Теремок»", bundleID: fixture.bundleID))
    #expect(try fixture.system.lookup(78_001_000_000) == .blocked(bundleID: fixture.bundleID))
  }
}
