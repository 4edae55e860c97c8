import CallDirectoryCore
import CallDirectoryHost
import Foundation
import HostTestSupport
import TestSupport
import Testing

/// The app's manager surface is `Sendable` with typed throws (issue 56, item 5): the simulated
/// manager is called from several tasks at once, runs its calls one at a time, answers a reload
/// asked during its own running load with 7 as iOS does, and throws only ``HostError``.
@Suite("The simulated manager from several tasks")
struct ManagerConcurrencyTests {
  /// A manager whose every reload runs the misbehaving extension through `steps`.
  func misbehavingManager(_ fixture: HostFixture, _ steps: [String])
    -> SimulatedCallDirectoryManager
  {
    let (executable, container) = (
      builtExecutablePath("calldir-misbehaving-extension"), fixture.folder.path("none")
    )
    return SimulatedCallDirectoryManager(system: fixture.system) { _ in
      .process(executable: executable, container: container, extraArguments: steps)
    }
  }

  @Test func callsFromSeveralTasksRunOneAtATimeAndASecondLoadGets7() async throws {
    let fixture = try HostFixture()
    // The slow load waits for the test, not for a clock: the system's 60 s limit killed it once
    // on a loaded machine (six busy loops beside swift test), so only a hang ends it here.
    fixture.system.limits.timeoutSeconds = 3_600
    let enabled = try fixture.system.enable(
      fixture.bundleID, runner: fixture.misbehaving(["add-id:100:Аптека", "complete"]))
    #expect(enabled.succeeded, "\(enabled.detail)")
    let ready = try Rendezvous(fixture.folder.path("ready"))
    let go = try Rendezvous(fixture.folder.path("go"))
    let steps = ["add-id:300:x", "ready:\(ready.path)", "wait:\(go.path)", "complete"]
    let manager = misbehavingManager(fixture, steps)
    // The slow load, from a task of its own; it says when it runs, then waits for `go`.
    let bundleID = fixture.bundleID
    let slow = Task.detached { try manager.reloadExtension(bundleID, incremental: false) }
    try await ready.byteArrival()
    let second = try await Task.detached {
      try manager.reloadExtension(bundleID, incremental: false)
    }.value
    #expect(second.error == .currentlyLoading, "\(second.detail)")
    try go.sendByte()
    let first = try await slow.value
    #expect(first.succeeded, "\(first.detail)")
    // Eight statuses asked at once, from eight tasks: each the store's answer.
    let statuses = try await withThrowingTaskGroup(of: ExtensionEnabledStatus.self) { group in
      for _ in 0..<8 {
        group.addTask { try manager.enabledStatus(ofExtension: bundleID) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(statuses == Array(repeating: .enabled, count: 8))
    #expect(try fixture.contents() == ["id 300 x"])
  }

  /// A system that cannot run the extension (its executable is missing) throws the manager's
  /// one error type, which a caller catches without a cast; iOS's refusals stay in the outcome.
  @Test func aFailingSystemIsThrownAsAHostError() async throws {
    let fixture = try HostFixture()
    let enabled = try fixture.system.enable(
      fixture.bundleID, runner: fixture.misbehaving(["add-id:100:Аптека", "complete"]))
    #expect(enabled.succeeded, "\(enabled.detail)")
    let missing = fixture.folder.path("no-such-extension")
    let container = fixture.folder.path("none")
    let manager = SimulatedCallDirectoryManager(system: fixture.system) { _ in
      .process(executable: missing, container: container)
    }
    // As an app's generic code sees it: the protocol's calls, `Manager.Failure` thrown.
    func reload<Manager: CallDirectoryManaging>(_ manager: Manager, _ identifier: String)
      async throws(Manager.Failure) -> Manager.ReloadOutcome
    {
      try await manager.reloadExtension(identifier, incremental: false)
    }
    do throws(HostError) {
      let outcome = try await reload(manager, fixture.bundleID)
      Issue.record("a missing extension ran: \(outcome.detail)")
    } catch {
      #expect("\(error)".contains("no-such-extension"), "\(error)")
    }
    let unknown = try await reload(manager, "com.example.nobody")
    #expect(unknown.error != nil, "iOS's refusal is the outcome's, not a throw")
    #expect(try fixture.contents() == ["id 100 Аптека"])
  }
}
