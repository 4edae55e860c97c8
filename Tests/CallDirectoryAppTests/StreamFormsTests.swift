import CallDirectoryApp
import CallDirectoryCore
import CallDirectoryHost
import DirectoryContainer
import Foundation
import HostTestSupport
import ReleaseFormat
import TestSupport
import Testing

/// A release folder whose fetches of bases wait until their task is cancelled, then report it
/// once on `cancelled`: an update that stalls mid-download.
struct StallingSource: ReleaseSource, Sendable {
  let folder: FolderReleaseSource
  let cancelled: AsyncStream<Void>.Continuation

  func fetch(_ path: String, to destination: String, expectedByteCount: Int?)
    async throws(ReleaseError)
  {
    guard path == ReleaseIndex.fileName else {
      // A stream nothing yields to: its iteration ends when the task is cancelled.
      let (never, keep) = AsyncStream<Never>.makeStream()
      for await _ in never {}
      keep.finish()
      cancelled.yield()
      throw ReleaseError("\(path): cancelled", kind: .cancelled, file: path)
    }
    try folder.fetch(path, to: destination, expectedByteCount: expectedByteCount)
  }
}

/// `updateStream` and `syncStream`: the events the closure forms hear, in order, then the
/// result; leaving the loop cancels the work (issue 56, item 3).
@Suite("Update and sync as streams")
struct StreamFormsTests {
  let past = PastTheCapTests()

  @Test func anUpdateStreamYieldsItsEventsThenItsSummary() async throws {
    let fixture = try await past.fixture(scope: .perRequest)
    _ = try ReleasePublisher(releases: fixture.folder.path("R")).publish(
      container: fixture.app.container)
    let source = FolderReleaseSource(folder: fixture.folder.path("R"))
    // The closure form on one copy, the stream on another: the same events and summary.
    let heard = EventLog()
    let expected = try await ContainerApp(container: fixture.folder.path("closure")).update(
      from: source, events: heard.record)
    var events: [SyncEvent] = []
    var summaries: [ContainerApp.UpdateSummary] = []
    for try await item in ContainerApp(container: fixture.folder.path("stream")).updateStream(
      from: source)
    {
      #expect(summaries.isEmpty, "nothing after the summary")
      switch item {
      case .event(let event): events.append(event)
      case .finished(let summary): summaries.append(summary)
      }
    }
    #expect(summaries == [expected])
    #expect(events == heard.events)
    #expect(events.contains { if case .updateProgress = $0 { true } else { false } })
  }

  @Test func aSyncStreamYieldsEachRequestThenTheOutcomes() async throws {
    let fixture = try await past.fixture(scope: .perRequest)
    try past.enable(fixture)
    let manager = CancellingManager(
      manager: SimulatedCallDirectoryManager(
        system: fixture.system, executable: fixture.extensionPath,
        container: fixture.app.container),
      after: .max)
    var finished: [Int] = []
    var outcomes: [RequestResult] = []
    for try await item in fixture.app.syncStream(manager: manager, bundleID: fixture.bundleID) {
      switch item {
      case .event(.requestFinished(let number, _)): finished.append(number)
      case .event: break
      case .finished(let results): outcomes = results
      }
    }
    #expect(outcomes.count >= 2 && outcomes.allSatisfy(\.succeeded))
    #expect(finished == Array(1...outcomes.count))
    #expect(try fixture.contents() == PastTheCapTests.ideal())
  }

  @Test func leavingTheLoopCancelsTheUpdateBeforeItCommits() async throws {
    let fixture = try await past.fixture(scope: .perRequest)
    _ = try ReleasePublisher(releases: fixture.folder.path("R")).publish(
      container: fixture.app.container)
    let (cancelled, signal) = AsyncStream<Void>.makeStream()
    let app = ContainerApp(container: fixture.folder.path("app"))
    for try await item in app.updateStream(
      from: StallingSource(
        folder: FolderReleaseSource(folder: fixture.folder.path("R")), cancelled: signal))
    {
      if case .event(.updateProgress) = item { break }  // the download has begun
    }
    // The stalled fetch hears the cancellation: the update stops there, before any commit.
    var iterator = cancelled.makeAsyncIterator()
    #expect(await iterator.next() != nil)
    #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("app/manifest.cdm")))
  }
}
