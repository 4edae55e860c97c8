import BaseFormat
import DirectoryContainer
import HostTestSupport
import Testing

/// The chunks past the cap read the same files request after request: the cap plan's counting
/// pass is kept in the extension's journal and reused while its key (the files, their hashes
/// and priorities) matches and the counts could be those files'.
@Suite("Past the cap: the counting pass kept in the journal")
struct KeptCountsTests {
  let past = PastTheCapTests()

  func journal(_ fixture: HostFixture) throws -> ExtensionJournal {
    try #require(try ExtensionJournal.read(container: fixture.app.container))
  }

  @Test func aChunkPlansFromTheCountsTheLastRequestKept() async throws {
    let fixture = try await past.fixture(scope: .perRequest)
    try past.enable(fixture)
    _ = try await past.sync(fixture, maximumRequests: 1)
    let kept = try journal(fixture)
    let counts = try #require(kept.counts, "phase two counted the set: its counts are kept")
    let total = counts.counts.values.flatMap(\.values).reduce(0, +)
    #expect(total == PastTheCapTests.ideal().count)

    // Counts the files could have but do not: a chunk that plans from them shows it reused them
    // (a new counting pass would keep the true ones).
    var forged = kept
    forged.counts!.counts[.identification]![50]! -= 1
    try forged.write(container: fixture.app.container)
    let chunk = try await past.sync(fixture, maximumRequests: 1)
    #expect(chunk.first?.incremental == true && chunk.first?.succeeded == true)
    #expect(try journal(fixture).counts == forged.counts)
  }

  @Test func countsThatCannotBeTheFilesAreCountedAgain() async throws {
    let fixture = try await past.fixture(scope: .perRequest)
    try past.enable(fixture)
    _ = try await past.sync(fixture, maximumRequests: 1)
    let kept = try journal(fixture)
    var forged = kept
    forged.counts!.counts[.identification]![50] = 1_000_000
    try forged.write(container: fixture.app.container)
    let results = try await past.sync(fixture)
    #expect(results.allSatisfy { $0.succeeded }, "\(results.map(\.detail))")
    #expect(try journal(fixture).counts == kept.counts)
    #expect(try fixture.contents() == PastTheCapTests.ideal())
  }
}
