import Foundation
import ReleaseDownload
import ReleaseFormat
import ReleaseServer
import TestSupport
import Testing

/// What only an in-process server lets a test arrange (issue 56, item 8): a transfer cancelled
/// while its body is under way, and a body that arrives a little at a time.
@Suite("HTTP fetches cancelled mid-body and drip-fed")
struct HTTPFetchFaultTests {
  /// A release folder holding one file of `byteCount` pseudo-random bytes.
  func release(_ folder: TemporaryFolder, byteCount: Int) throws -> String {
    try ByteProgressTests().release(folder, byteCount: byteCount)
  }

  /// The server sends 1 MiB of a 4 MiB base and holds the rest; once the fetch has reported
  /// 768 KiB of it (it reports by the quarter megabyte), its task is cancelled. The fetch ends
  /// `.cancelled`, its connection is closed (the transfer stopped, not left running), the part
  /// keeps the bytes that arrived, at least those reported, and the next fetch asks for the
  /// rest with `Range` and completes the file.
  @Test func aCancelledFetchStopsTheTransferAndKeepsWhatArrived() async throws {
    let folder = try TemporaryFolder()
    let (total, sent) = (4 << 20, 1 << 20)
    let root = try release(folder, byteCount: total)
    let published = try #require(FileManager.default.contents(atPath: root + "/bases/big.cdb"))
    let server = try ReleaseServer(folder: root, faults: .stalling(after: sent))
    let part = folder.path("big.part")
    let (counts, reporter) = AsyncStream.makeStream(of: Int.self)
    // A clock that never moves: only the cancellation can end this fetch, however late the
    // test's task runs on a loaded machine (URLSession's own timer, on a clock moved by hand,
    // waits the longest timeout: 30 days).
    let source = HTTPReleaseSource(base: URL(string: server.url)!, clock: ManualClock())
    let fetch = Task {
      defer { reporter.finish() }
      try await source.fetch(
        "bases/big.cdb", to: part, expectedByteCount: total, progress: { reporter.yield($0) })
    }
    var reported = 0
    for await count in counts {
      reported = count
      if count >= sent - (256 << 10) { break }
    }
    #expect(reported >= sent - (256 << 10), "the fetch reported the bytes sent")
    fetch.cancel()
    let outcome = await fetch.result
    #expect(throws: ReleaseError.self) { try outcome.get() }
    if case .failure(let error as ReleaseError) = outcome {
      #expect(error.kind == .cancelled, "\(error)")
    }
    // Waited for on a Dispatch thread: a blocked thread of the cooperative pool is one the
    // rest of the run may need (two cores, two pool threads).
    let closed = await withCheckedContinuation { (answer: CheckedContinuation<Bool, Never>) in
      DispatchQueue.global().async {
        answer.resume(returning: server.waitUntilNoConnection(seconds: 90))
      }
    }
    #expect(closed, "the cancelled transfer's connection was closed")
    server.stop()
    let kept = try #require(FileManager.default.contents(atPath: part))
    #expect(kept.count >= reported && kept.count <= sent, "\(kept.count) bytes kept")
    #expect(kept == published.prefix(kept.count), "the part holds what arrived")
    let healthy = try ReleaseServer(folder: root)
    try await HTTPReleaseSource(base: URL(string: healthy.url)!)
      .fetch("bases/big.cdb", to: part, expectedByteCount: total)
    let log = healthy.stop()
    #expect(log.contains("GET bases/big.cdb bytes=\(kept.count)- 206"), "\(log)")
    #expect(FileManager.default.contents(atPath: part) == published)
  }

  /// A 1 MiB body written 1,000 bytes at a time, each piece only once the one before left the
  /// server: it arrives whole, and its progress only grows, reaching the total.
  @Test func aDripFedBodyArrivesWhole() async throws {
    let folder = try TemporaryFolder()
    let total = 1 << 20
    let root = try release(folder, byteCount: total)
    let server = try ReleaseServer(folder: root, faults: .drip(bytes: 1_000))
    let (counts, reporter) = AsyncStream.makeStream(of: Int.self)
    try await HTTPReleaseSource(base: URL(string: server.url)!)
      .fetch(
        "bases/big.cdb", to: folder.path("big.part"), expectedByteCount: total,
        progress: { reporter.yield($0) })
    reporter.finish()
    var reported: [Int] = []
    for await count in counts { reported.append(count) }
    let log = server.stop()
    #expect(log == "GET bases/big.cdb - 200\n", "one request, answered whole: \(log)")
    #expect(reported.last == total, "\(reported)")
    #expect(zip(reported, reported.dropFirst()).allSatisfy { $0 <= $1 }, "\(reported)")
    #expect(
      FileManager.default.contents(atPath: folder.path("big.part"))
        == FileManager.default.contents(atPath: root + "/bases/big.cdb"))
  }
}
