import CallDirectoryHost
import Foundation
import HostTestSupport
import Testing

@Suite("The store's references hold after every kind of request")
struct StoreIntegrityTests {
  /// The store's foreign keys, checked by SQLite after `steps` ran as one request.
  func expectSound(_ fixture: HostFixture, after what: String) throws {
    #expect(try fixture.system.store.foreignKeyViolations() == 0, "after \(what)")
    #expect(fixture.system.store.enforcesForeignKeys, "after \(what)")
  }

  @Test func requestsNeverLeaveADanglingReference() throws {
    let fixture = try HostFixture()
    let enabled = try fixture.system.enable(
      fixture.bundleID,
      runner: fixture.misbehaving([
        "add-ids:1000:25000", "add-id:90000000:Аптека", "add-block:50", "add-block:60", "complete",
      ]))
    #expect(enabled.succeeded, "\(enabled.detail)")
    try expectSound(fixture, after: "a complete request")

    let changed = try fixture.system.reload(
      fixture.bundleID, incremental: true,
      runner: fixture.misbehaving([
        "remove-id:1000", "add-id:90000000:Кафе", "add-id:90000001:Новое", "remove-block:50",
        "complete",
      ]))
    #expect(changed.succeeded, "\(changed.detail)")
    try expectSound(fixture, after: "an incremental request")
    let contents = try fixture.contents()
    #expect(contents.contains("id 90000000 Кафе") && contents.contains("id 90000001 Новое"))
    #expect(!contents.contains("block 50") && !contents.contains("id 1000 Label 0"))

    let refused = try fixture.system.reload(
      fixture.bundleID, incremental: false,
      runner: fixture.misbehaving(["add-id:300:x", "add-id:299:y", "complete"]))
    #expect(refused.error?.code == 3)
    try expectSound(fixture, after: "a refused request")
    #expect(try fixture.contents() == contents)

    let removedAll = try fixture.system.reload(
      fixture.bundleID, incremental: true,
      runner: fixture.misbehaving(["remove-all-block", "remove-all-id", "add-block:70", "complete"])
    )
    #expect(removedAll.succeeded, "\(removedAll.detail)")
    try expectSound(fixture, after: "remove-all")
    #expect(try fixture.contents() == ["block 70"])
  }

  /// A label that is not UTF-8 cannot reach iOS's store (it takes labels as strings): the
  /// simulated system refuses the request and keeps what it held, instead of storing U+FFFD.
  @Test func aLabelThatIsNotUTF8IsRefusedNotRepaired() throws {
    let fixture = try HostFixture()
    let enabled = try fixture.system.enable(
      fixture.bundleID, runner: fixture.misbehaving(["add-id:5:Аптека", "complete"]))
    #expect(enabled.succeeded, "\(enabled.detail)")
    let before = try fixture.contents()
    let refused = try? fixture.system.reload(
      fixture.bundleID, incremental: false,
      runner: fixture.misbehaving(["add-id:6:ok", "add-id-bytes:7:41FF42", "complete"]))
    #expect(refused?.succeeded != true, "\(refused?.detail ?? "")")
    #expect(try fixture.contents() == before)
    #expect(try !fixture.contents().contains { $0.contains("\u{FFFD}") })
    try expectSound(fixture, after: "a refused label")
  }

  /// A batch is answered once checked and written while the extension gathers the next, so a
  /// store failure reaches the extension on the frame after the failed write: it must still be
  /// told, stop, and the request must fail with the store's error, not hang until the timeout.
  @Test(arguments: [5_000, 15_000, 29_999])
  func aStoreFailureFailsTheRequestAndLeavesTheStore(failsAfterRows: Int) throws {
    let fixture = try HostFixture()
    let enabled = try fixture.system.enable(
      fixture.bundleID, runner: fixture.misbehaving(["add-id:5:Аптека", "complete"]))
    #expect(enabled.succeeded, "\(enabled.detail)")
    let before = try fixture.contents()
    fixture.system.storeFailsAfterRows = failsAfterRows
    fixture.system.limits.timeoutSeconds = 30
    let result = try fixture.system.reload(
      fixture.bundleID, incremental: false,
      runner: fixture.misbehaving(["add-ids:1000:30000", "complete"]))
    #expect(result.error == .unknown, "\(result.detail)")
    #expect(result.detail.contains("past \(failsAfterRows) rows failed"), "\(result.detail)")
    #expect(result.killedFor == nil, "told and stopped, not killed: \(result.detail)")
    #expect(try fixture.contents() == before)
    try expectSound(fixture, after: "a store failure")
  }

  @Test func theCheckFindsADanglingReference() throws {
    let fixture = try HostFixture()
    let enabled = try fixture.system.enable(
      fixture.bundleID, runner: fixture.misbehaving(["add-block:50", "complete"]))
    #expect(enabled.succeeded, "\(enabled.detail)")
    // A second connection, as another process's would be: the store's own SQLite wrapper.
    let other = try SQLiteDatabase(path: fixture.system.store.path)
    try other.execute("insert into PhoneNumberBlockingEntry values (1, 77)")
    #expect(try fixture.system.store.foreignKeyViolations() == 1)
  }
}
