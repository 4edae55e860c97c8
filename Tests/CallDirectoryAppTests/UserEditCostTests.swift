import CallDirectoryApp
import CallDirectoryHost
import DirectoryCompiler
import DirectoryContainer
import Foundation
import HostTestSupport
import Testing

/// An edit costs what it changes: over a directory of lists and a pattern, fully installed, one
/// number blocked, allowed, unblocked or labelled reaches the system as one incremental request
/// of that one entry (two where a label changes), and a pause as one `removeAllBlockingEntries`.
@Suite("A user's edit is one small incremental request")
struct UserEditCostTests {
  /// A compiled container (20,000 labelled numbers, 2,000 spam numbers, a pattern of 1,000,000),
  /// enabled and synced to the whole set.
  func installedFixture() async throws -> HostFixture {
    let fixture = try HostFixture()
    var dump = "number\tlabel\tcategory\n"
    for index in 0..<20_000 {
      dump += "+7916\(String(1_000_000 + index * 3))\tCaller \(index % 90)\t\n"
    }
    for index in 0..<2_000 { dump += "+7926\(String(2_000_000 + index * 5))\tJunk\tspam\n" }
    let dumpPath = fixture.folder.path("dump.tsv")
    try dump.write(toFile: dumpPath, atomically: true, encoding: .utf8)
    let patterns = fixture.folder.path("patterns.tsv")
    try "pattern\tlabel\n+7 936 5## ## ##\tTelemarketing\n".write(
      toFile: patterns, atomically: true, encoding: .utf8)
    var options = CompileOptions(inputs: [(dumpPath, .tsv)], output: fixture.app.container)
    options.blockPatternFiles = [patterns]
    _ = try Compiler(options: options).run()
    _ = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    let synced = try await sync(fixture)
    #expect(synced.allSatisfy { $0.succeeded })
    return fixture
  }

  func sync(_ fixture: HostFixture) async throws -> [RequestResult] {
    try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
  }

  /// One request, incremental, that sent `added` entries and removed `removed`.
  func expectOneRequest(
    _ results: [RequestResult], added: Int, removed: Int, _ what: String
  ) {
    #expect(results.count == 1, "\(what): \(results.count) requests")
    guard let result = results.first else { return }
    #expect(result.succeeded, "\(what): \(result.detail)")
    #expect(result.incremental, "\(what): incremental")
    #expect(result.entries == added, "\(what): \(result.entries) entries added")
    #expect(result.removals == removed, "\(what): \(result.removals) removed")
  }

  @Test func eachEditSendsWhatItChanges() async throws {
    let fixture = try await installedFixture()
    let lists = fixture.app.userLists(country: "RU")
    try await lists.block("8 (999) 123-45-67")
    expectOneRequest(try await sync(fixture), added: 1, removed: 0, "a new number blocked")
    #expect(try fixture.system.lookup(79_991_234_567) == .blocked(bundleID: fixture.bundleID))

    // A number inside the pattern's 1,000,000: the pattern less that one number.
    try await lists.allow("+7 936 512 34 56")
    expectOneRequest(try await sync(fixture), added: 0, removed: 1, "a pattern's number allowed")
    #expect(try fixture.system.lookup(79_365_123_456) == .unknown)
    #expect(try fixture.system.lookup(79_365_123_457) == .blocked(bundleID: fixture.bundleID))

    // A directory number relabelled: its label removed and added again.
    try await lists.label("+79161000000", "My dentist")
    expectOneRequest(try await sync(fixture), added: 1, removed: 1, "a directory number relabelled")
    #expect(
      try fixture.system.lookup(79_161_000_000)
        == .identified(label: "My dentist", bundleID: fixture.bundleID))

    // Blocking a number the directory already blocks changes nothing the system holds.
    try await lists.block("+79262000000")
    let already = try await sync(fixture)
    #expect(already.count == 1 && already[0].entries == 0 && already[0].removals == 0)

    try await lists.unblock("8 999 123 45 67")
    expectOneRequest(try await sync(fixture), added: 0, removed: 1, "a number unblocked")

    // A pause: one call, however many blocking entries there are.
    try await lists.pause()
    let paused = try await sync(fixture)
    expectOneRequest(paused, added: 0, removed: 0, "a pause")
    #expect(try fixture.system.store.counts(of: fixture.bundleID).blocking == 0)
    #expect(try fixture.system.store.counts(of: fixture.bundleID).identification == 20_000)
    let pending = try await lists.pending()
    #expect(pending.isEmpty)

    // The resume: a complete reload brings every blocking entry back but the allowed one.
    try await lists.resume()
    let resumed = try await sync(fixture)
    #expect(resumed.first?.incremental == false && resumed.allSatisfy { $0.succeeded })
    #expect(
      try fixture.system.store.counts(of: fixture.bundleID).blocking == 2_000 + 1_000_000 - 1)
    #expect(try fixture.system.lookup(79_365_123_456) == .unknown)
  }

  @Test func aFailedRequestKeepsTheEditPendingAndTheNextSyncSendsIt() async throws {
    let fixture = try await installedFixture()
    let lists = fixture.app.userLists()
    try await lists.block("+79991234567")
    // The system refuses the request: the extension exits before it completes.
    let script = fixture.folder.path("dies.sh")
    try "#!/bin/sh\nexit 9\n".write(toFile: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
    let failed = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: script)
    #expect(failed.contains { !$0.succeeded })
    #expect(try await lists.pending().blocked == 1, "still pending after the failed request")
    #expect(!(try fixture.app.status().install.isUpToDate))
    #expect(try fixture.system.lookup(79_991_234_567) == .unknown)
    let retried = try await sync(fixture)
    #expect(retried.last?.succeeded == true)
    #expect(try fixture.system.lookup(79_991_234_567) == .blocked(bundleID: fixture.bundleID))
    #expect(try await lists.pending().isEmpty)
  }

  /// After a sync, each list base has its block index beside it (the edit's lookups read it, not
  /// the whole base); a base that leaves the container takes its index with it.
  @Test func aSyncKeepsEachBasesIndexAndItLeavesWithItsBase() async throws {
    let fixture = try await installedFixture()
    let bases = fixture.app.container + "/bases"
    let files = try FileManager.default.contentsOfDirectory(atPath: bases)
    let indexes = files.filter { $0.hasSuffix(".idx") }
    let manifest = try fixture.app.manifest()
    let lists = manifest.selection.filter { !$0.file.contains("rules-") }
    #expect(!lists.isEmpty)
    for base in lists {
      #expect(
        indexes.contains(String(base.file.dropFirst("bases/".count)) + ".idx"), "\(base.file)")
    }
    // A recompile of other numbers: the old bases go, and their indexes with them.
    let dump = fixture.folder.path("other.tsv")
    try "number\tlabel\n+79161234567\tOther\n".write(
      toFile: dump, atomically: true, encoding: .utf8)
    var options = CompileOptions(inputs: [(dump, .tsv)], output: fixture.app.container)
    options.allowShrink = true
    _ = try Compiler(options: options).run()
    _ = try await sync(fixture)
    let left = try FileManager.default.contentsOfDirectory(atPath: bases)
    for index in left where index.hasSuffix(".idx") {
      #expect(left.contains(String(index.dropLast(4))), "\(index) outlived its base")
    }
  }
}
