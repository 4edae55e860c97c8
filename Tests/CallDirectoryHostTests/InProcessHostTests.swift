import CallDirectoryApp
import CallDirectoryCore
import CallDirectoryHost
import CallDirectoryLoader
import HostTestSupport
import Testing

@Suite("The in-process host: same checks, same store, no child process")
struct InProcessHostTests {
  @Test func itCommitsCompletedRequestsAndRefusesViolations() throws {
    let fixture = try HostFixture()
    let first = try fixture.system.enable(
      fixture.bundleID,
      runner: .inProcess { context in
        context.addIdentificationEntry(withNextSequentialPhoneNumber: 10, label: "Ромашка")
        context.addBlockingEntry(withNextSequentialPhoneNumber: 5)
        context.completeRequest(completionHandler: nil)
      })
    #expect(first.succeeded)
    let installed = try fixture.contents()
    #expect(installed == ["id 10 Ромашка", "block 5"])

    let violation = try fixture.system.reload(
      fixture.bundleID, incremental: false,
      runner: .inProcess { context in
        context.addIdentificationEntry(withNextSequentialPhoneNumber: 20, label: "a")
        context.addIdentificationEntry(withNextSequentialPhoneNumber: 19, label: "b")
        context.completeRequest(completionHandler: nil)
      })
    #expect(violation.error?.code == 3)
    #expect(try fixture.contents() == installed)

    let abandoned = try fixture.system.reload(
      fixture.bundleID, incremental: false,
      runner: .inProcess { context in
        context.addIdentificationEntry(withNextSequentialPhoneNumber: 30, label: "never completed")
      })
    #expect(!abandoned.succeeded)
    #expect(try fixture.contents() == installed)
  }

  @Test func theDirectoryLoaderRunsInProcessToo() async throws {
    let fixture = try HostFixture()
    try await fixture.app.stage(
      file: fixture.writeBase(
        "seed", regionEntries(first: 74_950_000_000, count: 500, label: "Seed")),
      name: "seed", role: .seed, priority: 100, version: 1)
    let loader = DirectoryLoader(container: fixture.app.container)
    let result = try fixture.system.enable(
      fixture.bundleID,
      runner: .inProcess { context in
        do {
          _ = try loader.load(into: context)
          context.completeRequest(completionHandler: nil)
        } catch {
          context.cancelRequest(withError: error)
        }
      })
    #expect(result.succeeded, "\(result.detail)")
    #expect(try fixture.system.store.counts(of: fixture.bundleID).identification == 500)
  }
}
