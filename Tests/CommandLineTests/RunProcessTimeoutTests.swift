import Foundation
import TestSupport
import Testing

/// A test's child that hangs is killed at its timeout and says so, instead of holding the run
/// until CI's limit (issue 56, item 8).
@Suite("runProcess kills a child past its timeout")
struct RunProcessTimeoutTests {
  @Test func aHungChildIsKilledAndTheRunSaysSo() throws {
    let hung = try runProcess("/bin/sleep", ["600"], timeout: 0.5)
    #expect(hung.timedOut)
    #expect(hung.status == SIGKILL, "killed, not exited: \(hung.status)")
    #expect(hung.stderr.contains("runProcess: killed after 0.5 s"), "\(hung.stderr)")
  }

  @Test func aChildThatEndsInTimeIsLeftAlone() throws {
    let quick = try runProcess("/bin/sh", ["-c", "echo done; exit 3"], timeout: 60)
    #expect(!quick.timedOut && quick.status == 3 && quick.stdout == "done\n")
    #expect(quick.stderr.isEmpty)
  }
}
