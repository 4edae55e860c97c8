import CallDirectoryCore
import CallDirectoryHost
import HostTestSupport
import Testing

/// The in-process host is the spawned path without the process: the same script of calls,
/// made by the misbehaving extension in a child and by a closure in this process, gives the same
/// result (code, detail, counts) and leaves the same store. Both send real frames to one
/// session type; only the transport differs.
@Suite("One request path: in process and spawned alike")
struct OneRequestPathTests {
  /// The misbehaving extension cancels with this error (its description is in the detail).
  struct Cancelled: Error {}

  /// The misbehaving extension's steps, played against a context in this process.
  static func play(_ steps: [String], on context: some CallDirectoryExtensionContext) {
    for step in steps {
      let parts = step.split(separator: ":", maxSplits: 2).map(String.init)
      let number = parts.count > 1 ? Int64(parts[1]) ?? 0 : 0
      switch parts[0] {
      case "add-id":
        context.addIdentificationEntry(withNextSequentialPhoneNumber: number, label: parts[2])
      case "add-ids":
        for offset in 0..<Int64(parts[2])! {
          context.addIdentificationEntry(
            withNextSequentialPhoneNumber: number + offset, label: "Label \(offset % 7)")
        }
      case "add-block": context.addBlockingEntry(withNextSequentialPhoneNumber: number)
      case "remove-id": context.removeIdentificationEntry(withPhoneNumber: number)
      case "remove-all-block": context.removeAllBlockingEntries()
      case "complete": context.completeRequest(completionHandler: nil)
      case "cancel": context.cancelRequest(withError: Cancelled())
      default: Issue.record("no in-process step \(step)")
      }
    }
  }

  static let scripts: [[String]] = [
    ["add-id:100:Аптека", "add-block:50", "complete"],
    ["add-id:300:x", "add-id:299:y", "complete"],
    ["add-id:300:x", "add-id:300:y", "complete"],
    ["add-block:0", "complete"],
    ["remove-id:100", "complete"],
    ["remove-all-block", "complete"],
    ["add-ids:1000:25000", "complete"],
    ["add-ids:1000:24000", "add-block:7", "complete"],
    ["add-id:100:a", "cancel"],
    ["add-id:100:never completed"],
  ]

  @Test(arguments: scripts)
  func theSameCallsGiveTheSameResult(steps: [String]) throws {
    var outcomes: [String] = []
    var stores: [[String]] = []
    for inProcess in [true, false] {
      let fixture = try HostFixture()
      fixture.system.contract.maximumAllowedEntries = 25_000
      let result = try fixture.system.enable(
        fixture.bundleID,
        runner: inProcess
          ? .inProcess { Self.play(steps, on: $0) } : fixture.misbehaving(steps))
      var detail = result.detail
      // The one line that names the ending's kind: a process exits, a closure returns.
      if detail.hasPrefix("the extension exited (status 0) without completing")
        || detail == "the extension returned without completing the request"
      {
        detail = "ended without completing"
      }
      outcomes.append(
        "\(result.succeeded) \(result.error?.code ?? -1) \(detail) \(result.entries) \(result.removals)"
      )
      stores.append(try fixture.contents())
    }
    #expect(outcomes[0] == outcomes[1], "\(steps)")
    #expect(stores[0] == stores[1], "\(steps)")
  }
}
