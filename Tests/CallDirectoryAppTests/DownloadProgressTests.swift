import CallDirectoryApp
import DirectoryContainer
import Foundation
import HostTestSupport
import ReleaseFormat
import TestSupport
import Testing

/// An update's download progress moves inside a file, not only between files: a base fetched
/// whole reports its bytes as they arrive (issue 56, item 3).
@Suite("An update's download progress moves by the byte")
struct DownloadProgressTests {
  @Test func aWholeBaseMovesTheProgressAsItComes() async throws {
    let fixture = try HostFixture()
    let entries = (0..<300_000).map { index in
      (74_950_000_000 + Int64(index) * 3, "Firm \(index % 5_000) \(index % 7)")
    }
    try await fixture.app.stage(
      file: fixture.writeBase("big", entries), name: "big", role: .region, region: "B",
      priority: 50, version: 1)
    _ = try ReleasePublisher(releases: fixture.folder.path("R")).publish(
      container: fixture.app.container)
    let events = EventLog()
    let app = ContainerApp(container: fixture.folder.path("app"))
    _ = try await app.update(
      from: FolderReleaseSource(folder: fixture.folder.path("R")), events: { events.record($0) })
    let downloading = events.events.compactMap { event -> UpdateProgress? in
      guard case .updateProgress(let progress) = event, progress.phase == .downloading else {
        return nil
      }
      return progress
    }
    let total = try #require(downloading.last?.total)
    #expect(total > 1 << 20, "a base of more than a MiB: \(total) bytes")
    #expect(downloading.last?.done == total)
    #expect(zip(downloading, downloading.dropFirst()).allSatisfy { $0.done <= $1.done })
    // Reports inside the one file: between none and all of it.
    let inside = downloading.filter { $0.done > 0 && $0.done < total }
    #expect(inside.count >= total / (256 * 1024) - 1, "\(downloading.map(\.done))")
  }
}
