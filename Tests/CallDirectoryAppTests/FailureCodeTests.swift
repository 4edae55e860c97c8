import CallDirectoryApp
import CallDirectoryCore
import CallDirectoryHost
import DirectoryContainer
import Foundation
import HostTestSupport
import Testing

/// Every code iOS may answer a request with has an answer in the app's plan: the documented
/// 0-8, the 102 seen in the field, and codes nobody has seen. None traps; each is retried,
/// stopped at, or surfaced, and the next sync goes on from what the system holds.
@Suite("The app's answer to every failure code")
struct FailureCodeTests {
  /// An enabled, synced extension with an update staged: the next sync makes an incremental
  /// request, which the simulated system fails with `code` (its test hook).
  func updateFailing(with code: Int) async throws -> (HostFixture, [RequestResult]) {
    let fixture = try HostFixture()
    let region = regionEntries(first: 74_950_000_000, count: 2_000, label: "old")
    try await fixture.app.stage(
      file: fixture.writeBase("a", region), name: "ru-495", role: .region, region: "RU-495",
      priority: 50, version: 1)
    try await fixture.app.choose(regions: ["RU-495"])
    let enabled = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(enabled.succeeded, "\(enabled.detail)")
    let synced = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    let allSucceeded = synced.allSatisfy { $0.succeeded }
    #expect(allSucceeded, "\(synced.map(\.detail))")
    let updated = regionEntries(first: 74_950_000_000, count: 2_000, label: "new")
    try await fixture.app.stage(
      file: fixture.writeBase("a2", updated), name: "ru-495", role: .region, region: "RU-495",
      priority: 50, version: 2)
    fixture.system.failsNextRequestsWith = [code]
    let results = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    return (fixture, results)
  }

  func label(_ fixture: HostFixture) throws -> String {
    guard case .identified(let label, _) = try fixture.system.lookup(74_950_000_003) else {
      return "none"
    }
    return label
  }

  @Test(arguments: [0, 1, 3, 4, 6, 8, 102, 9_999, -1])
  func anyOtherCodeIsSurfacedAndTheNextSyncGoesOn(code: Int) async throws {
    let (fixture, results) = try await updateFailing(with: code)
    #expect(results.count == 1)
    #expect(results.last?.error?.code == code, "\(results.map(\.detail))")
    #expect(try label(fixture) == "old 1", "nothing of the failed request is kept")
    let next = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(next.count == 1 && next[0].succeeded, "\(next.map(\.detail))")
    #expect(try label(fixture) == "new 1")
  }

  @Test func error2IsRetriedWithHalfTheChunkInTheSameSync() async throws {
    let (fixture, results) = try await updateFailing(with: 2)
    #expect(results.map { $0.error?.code } == [2, nil])
    #expect(try fixture.app.manifest().installProgress.chunkEntries == 500_000)
    #expect(try label(fixture) == "new 1")
  }

  @Test func error5StopsWithWhatIsIn() async throws {
    let (fixture, results) = try await updateFailing(with: 5)
    #expect(results.map { $0.error?.code } == [5])
    let progress = try fixture.app.manifest().installProgress
    #expect(progress.capReachedAt == progress.installedEntries)
  }

  @Test func error7StopsThisSyncAndTheNextGoesOn() async throws {
    let (fixture, results) = try await updateFailing(with: 7)
    #expect(results.map { $0.error?.code } == [7])
    #expect(try label(fixture) == "old 1")
    let next = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(next.last?.succeeded == true)
    #expect(try label(fixture) == "new 1")
  }

  @Test(arguments: [(2, FailureAnswer.retrySmaller), (5, .stopAtCap), (7, .later), (102, .surface)])
  func theAnswerByCode(code: Int, answer: ContainerApp.FailureAnswer) {
    #expect(ContainerApp.answer(to: CallDirectoryError(code: code), InstallProgress()) == answer)
  }
}

typealias FailureAnswer = ContainerApp.FailureAnswer
