import Foundation
import ReleaseDownload
import ReleaseFormat
import ReleaseServer
import TestSupport
import Testing

/// A stalled server given up on by the source's clock, not by a real timer (issue 56, item 8):
/// the test advances a ``ManualClock`` past a timeout, and the fetch ends at once, with no real
/// second waited.
@Suite("HTTP fetches timed on an injected clock")
struct HTTPDeadlineTests {
  /// The server sends 256 KiB of a 1 MiB base, then nothing. Once all of it has arrived (the
  /// progress report at 256 KiB comes with its last piece), 29 s on the clock leave the fetch
  /// waiting; the 30th ends it with the idle timeout's error, and the part keeps what arrived.
  @Test func aStalledBodyEndsWhenTheClockPassesTheIdleTimeout() async throws {
    let folder = try TemporaryFolder()
    let (total, sent) = (1 << 20, 256 << 10)
    let root = try ByteProgressTests().release(folder, byteCount: total)
    let published = try #require(FileManager.default.contents(atPath: root + "/bases/big.cdb"))
    let server = try ReleaseServer(folder: root, faults: .stalling(after: sent))
    let clock = ManualClock()
    let source = HTTPReleaseSource(
      base: URL(string: server.url)!, idleTimeout: 30, totalTimeout: 600, clock: clock)
    let part = folder.path("big.part")
    let (counts, reporter) = AsyncStream.makeStream(of: Int.self)
    let fetch = Task {
      defer { reporter.finish() }
      try await source.fetch(
        "bases/big.cdb", to: part, expectedByteCount: total, progress: { reporter.yield($0) })
    }
    for await count in counts where count >= sent { break }
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(29))
    #expect(clock.sleeperCount == 1, "29 s without a byte: the fetch still waits")
    clock.advance(by: .seconds(1))
    let outcome = await fetch.result
    server.stop()
    #expect(throws: ReleaseError.self) { try outcome.get() }
    if case .failure(let error as ReleaseError) = outcome {
      #expect(error.kind == .download, "\(error)")
      #expect(
        error.description.contains("timed out: no byte for 30 s, after \(sent) bytes (kept"),
        "\(error.description)")
    }
    #expect(FileManager.default.contents(atPath: part) == published.prefix(sent))
  }

  /// A total timeout shorter than the idle one: 45 s on the clock end a fetch whose server
  /// sent its headers and then nothing, with the total's message.
  @Test func aFetchEndsWhenTheClockPassesTheTotalTimeout() async throws {
    let folder = try TemporaryFolder()
    let root = try ByteProgressTests().release(folder, byteCount: 1 << 20)
    let server = try ReleaseServer(folder: root, faults: .stalling)
    let clock = ManualClock()
    let source = HTTPReleaseSource(
      base: URL(string: server.url)!, idleTimeout: 60, totalTimeout: 45, clock: clock)
    let fetch = Task {
      try await source.fetch(
        "bases/big.cdb", to: folder.path("big.part"), expectedByteCount: 1 << 20)
    }
    // Only the clock is waited on: a blocking wait for the server's log here would hold a thread
    // of the cooperative pool that the fetch's own task may need to start.
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(44))
    #expect(clock.sleeperCount == 1, "44 s: the fetch still waits")
    clock.advance(by: .seconds(1))
    let outcome = await fetch.result
    server.stop()
    if case .failure(let error as ReleaseError) = outcome {
      #expect(error.kind == .download, "\(error)")
      #expect(error.description.hasSuffix("no answer within 45 s"), "\(error.description)")
    } else {
      Issue.record("the fetch did not end with the total timeout: \(outcome)")
    }
  }

  /// A fetch that completes leaves nothing waiting on the clock: its watch ended with it.
  @Test func aCompletedFetchLeavesNoTimerBehind() async throws {
    let folder = try TemporaryFolder()
    let root = try ByteProgressTests().release(folder, byteCount: 64 << 10)
    let server = try ReleaseServer(folder: root)
    let clock = ManualClock()
    try await HTTPReleaseSource(base: URL(string: server.url)!, clock: clock)
      .fetch("bases/big.cdb", to: folder.path("big.part"), expectedByteCount: 64 << 10)
    server.stop()
    #expect(FileManager.default.contents(atPath: folder.path("big.part"))?.count == 64 << 10)
    #expect(clock.sleeperCount == 0)
  }
}
