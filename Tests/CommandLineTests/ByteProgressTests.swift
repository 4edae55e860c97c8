import Foundation
import ReleaseDownload
import ReleaseFormat
import ReleaseServer
import Synchronization
import TestSupport
import Testing

/// A release source reports a file's bytes as they arrive, so one 70 MB base moves a progress
/// bar as it comes instead of jumping from 0 to 100% at its end (issue 56, item 3).
@Suite("Byte progress inside one fetch")
struct ByteProgressTests {
  /// Collects the counts a fetch reports (from any thread).
  final class Reports: Sendable {
    private let counts = Mutex<[Int]>([])
    var all: [Int] { counts.withLock { $0 } }
    func record(_ count: Int) { counts.withLock { $0.append(count) } }
  }

  /// A release folder holding one file of `byteCount` pseudo-random bytes.
  func release(_ folder: TemporaryFolder, byteCount: Int) throws -> String {
    try FileManager.default.createDirectory(
      atPath: folder.path("R/bases"), withIntermediateDirectories: true)
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) }
    try Data(bytes).write(to: URL(fileURLWithPath: folder.path("R/bases/big.cdb")))
    return folder.path("R")
  }

  /// Counts that only grow, several before the end, the last the whole file.
  func expectMovesByTheQuarterMegabyte(_ counts: [Int], total: Int) {
    #expect(counts.last == total, "\(counts)")
    #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 < $1 }, "\(counts)")
    #expect(counts.count >= total / (256 * 1024), "\(counts.count) reports for \(total) bytes")
    #expect(counts.contains { $0 > 0 && $0 < total / 2 }, "a report in the first half")
  }

  @Test func aFolderSourceReportsEveryBuffer() async throws {
    let folder = try TemporaryFolder()
    let source = FolderReleaseSource(folder: try release(folder, byteCount: 3 << 20))
    let reports = Reports()
    try await source.fetch(
      "bases/big.cdb", to: folder.path("big.part"), expectedByteCount: 3 << 20,
      progress: { reports.record($0) })
    expectMovesByTheQuarterMegabyte(reports.all, total: 3 << 20)
  }

  @Test
  func anHTTPSourceReportsAsTheBodyArrivesAndFromWhereItResumes() async throws {
    let folder = try TemporaryFolder()
    let total = 4 << 20
    let server = try ReleaseServer(folder: try release(folder, byteCount: total))
    defer { _ = server.stop() }
    let source = HTTPReleaseSource(base: URL(string: server.url)!)
    let reports = Reports()
    try await source.fetch(
      "bases/big.cdb", to: folder.path("big.part"), expectedByteCount: total,
      progress: { reports.record($0) })
    expectMovesByTheQuarterMegabyte(reports.all, total: total)
    #expect(
      FileManager.default.contents(atPath: folder.path("big.part"))
        == FileManager.default.contents(atPath: folder.path("R/bases/big.cdb")))
    // A part cut at 1 MiB resumes: the counts start above what was there.
    let resumed = folder.path("resumed.part")
    try Data(try Data(contentsOf: URL(fileURLWithPath: folder.path("big.part"))).prefix(1 << 20))
      .write(to: URL(fileURLWithPath: resumed))
    let resumedReports = Reports()
    try await source.fetch(
      "bases/big.cdb", to: resumed, expectedByteCount: total,
      progress: { resumedReports.record($0) })
    #expect(resumedReports.all.first.map { $0 > 1 << 20 } == true, "\(resumedReports.all)")
    #expect(resumedReports.all.last == total)
  }
}
