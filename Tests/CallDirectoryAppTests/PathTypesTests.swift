import CallDirectoryApp
import DirectoryContainer
import HostTestSupport
import SystemPackage
import TestSupport
import Testing

/// Paths as `FilePath`, the type swift-system and an App Group's container path give
/// (issue 56, item 5).
@Suite("Paths as FilePath")
struct PathTypesTests {
  @Test func aContainerAndAStagedFileByFilePathAreTheStringOnes() async throws {
    let fixture = try HostFixture()
    let app = ContainerApp(container: FilePath(fixture.folder.path("typed")))
    #expect(app.container == fixture.folder.path("typed"))
    let base = try await app.stage(
      file: FilePath(
        fixture.writeBase("r", regionEntries(first: 74_950_000_000, count: 100, label: "r"))),
      name: "r", role: .region, region: "R", priority: 50, version: 1)
    #expect(base.entries == 100)
    #expect(try app.manifest().bases.map(\.name) == ["r"])
  }
}
