import Foundation
import ReleaseDownload
import ReleaseFormat
import ReleaseServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The session configuration an app passes to its release source is the one its fetches use
/// (issue 56, item 7): here an extra header, which the loopback server logs.
@Suite("A release source uses the app's session configuration")
struct SessionConfigurationTests {
  @Test
  func theAppsConfigurationReachesTheServer() async throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      atPath: folder.path("R"), withIntermediateDirectories: true)
    try "{}\n".write(toFile: folder.path("R/index.json"), atomically: true, encoding: .utf8)
    let server = try ReleaseServer(folder: folder.path("R"))
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpAdditionalHeaders = ["X-Calldir-Client": "example-app"]
    let custom = HTTPReleaseSource(base: URL(string: server.url)!, configuration: configuration)
    try await custom.fetch("index.json", to: folder.path("custom.json"), expectedByteCount: 3)
    let plain = HTTPReleaseSource(base: URL(string: server.url)!)
    try await plain.fetch("index.json", to: folder.path("plain.json"), expectedByteCount: 3)
    let log = server.stop()
    let lines = log.split(separator: "\n").filter { $0.hasPrefix("GET index.json") }
    #expect(lines.count == 2, "\(log)")
    #expect(lines.first?.hasSuffix(" client=example-app") == true, "\(log)")
    #expect(lines.last?.contains("client=") == false, "the default session sends no such header")
    #expect(try String(contentsOfFile: folder.path("custom.json"), encoding: .utf8) == "{}\n")
  }
}
