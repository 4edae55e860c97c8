import DirectoryContainer
import Dispatch
import Foundation
import HostTestSupport
import TestSupport
import Testing

@testable import CallDirectoryApp

/// Blocking work runs on the library's own queue, never on Swift's cooperative pool, and a
/// cancelled task stops it (issue 56, item 1).
@Suite("Blocking work off the cooperative pool")
struct BlockingWorkTests {
  @Test func workRunsOnTheLibrarysQueue() async throws {
    let onQueue = try await BlockingWork.run { _ in
      DispatchQueue.getSpecific(key: BlockingWork.onQueueKey) == true
    }
    #expect(onQueue)
    #expect(DispatchQueue.getSpecific(key: BlockingWork.onQueueKey) == nil, "not here")
  }

  /// A 50 MB stage whose task is cancelled returns `.cancelled` and leaves the container as it
  /// was: nothing copied, staged or recorded.
  @Test func aCancelledStageChangesNothing() async throws {
    let fixture = try HostFixture()
    try await fixture.app.stage(
      file: fixture.writeBase("r-1", regionEntries(first: 74_950_000_000, count: 100, label: "r")),
      name: "r", role: .region, region: "R", priority: 50, version: 1)
    let large = fixture.folder.path("large.cdb")
    try Data(count: 50 << 20).write(to: URL(fileURLWithPath: large))
    let before = try folderSnapshot(fixture.app.container)
    let app = fixture.app
    let staging = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await app.stage(
        file: large, name: "big", role: .region, region: "B", priority: 10, version: 1)
    }
    await #expect {
      _ = try await staging.value
    } throws: { error in
      (error as? ContainerAppError)?.kind == .cancelled
    }
    #expect(try folderSnapshot(fixture.app.container) == before)
  }

  /// The signal is read between chunks: a copy or a hash stops where it is.
  @Test func aStoppedCopyOrHashEndsBetweenChunks() throws {
    let folder = try TemporaryFolder()
    let source = folder.path("source")
    try Data(count: 8 << 20).write(to: URL(fileURLWithPath: source))
    var asked = 0
    #expect(throws: ContainerError.self) {
      try ContainerFolder.copyFile(from: source, to: folder.path("copy")) {
        asked += 1
        return asked > 3
      }
    }
    #expect(asked == 4, "three chunks copied, then stopped")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")) == ["source"])
    var hashed = 0
    #expect(
      SHA256.hexDigest(ofFile: source) {
        hashed += 1
        return hashed > 2
      } == nil)
    #expect(hashed == 3)
  }
}
