import Foundation
import ReleaseDownload
import ReleaseFormat
import TestSupport
import Testing

/// Timeouts an app passes are clamped, never trapped on (issue 39, item 12: `inf` and `1e308`
/// died with SIGILL inside FoundationNetworking; NaN would trap a conversion).
@Suite("Release sources take any timeout")
struct SourceTimeoutTests {
  @Test(arguments: [Double.nan, .infinity, 1e308, -5, 0])
  func aFolderSourceCopiesWhateverItsTimeout(seconds: Double) throws {
    let folder = try TemporaryFolder()
    try "hello".write(toFile: folder.path("file"), atomically: true, encoding: .utf8)
    try FolderReleaseSource(folder: folder.url.path, timeout: seconds).fetch(
      "file", to: folder.path("copy"), expectedByteCount: 5)
    #expect(try String(contentsOfFile: folder.path("copy"), encoding: .utf8) == "hello")
  }

  @Test(arguments: [Double.nan, .infinity, 1e308, -5, 0])
  func anHTTPSourcesTimeoutsAreClamped(seconds: Double) {
    let source = HTTPReleaseSource(
      base: URL(string: "http://127.0.0.1:9")!, idleTimeout: seconds, totalTimeout: seconds)
    for value in [source.idleTimeout, source.totalTimeout] {
      #expect(value.isFinite && value > 0 && value <= HTTPReleaseSource.maximumTimeout)
    }
  }
}
