import Foundation
import ProcessSpawning
import SystemCalls
import TestSupport
import Testing

/// `ChildProcess.run` on its own (issue 28, item 6): the limits it enforces and what it reports
/// of a child's end, with real child processes and no bench around them.
@Suite("A child process: its limits, its end, its spawn time")
struct ChildProcessLimitsTests {
  @Test func aHangingChildIsKilledAtTheTimeout() throws {
    var limits = ChildProcess.Limits(memoryLimitBytes: nil, timeoutSeconds: 0.3)
    limits.clock = SteppingClock(step: 100_000_000).clock  // 0.1 s a sample
    let outcome = try ChildProcess.run(
      executable: "/bin/sleep", arguments: ["infinity"], limits: limits)
    #expect(outcome.killedFor == .timeout)
    #expect(outcome.signal == SIGKILL)
    #expect(outcome.exitCode == nil)
  }

  /// A shell holding 64 MiB in a variable passes a 4 MiB limit and is killed for it, long
  /// before its `sleep` ends.
  @Test func aChildOverTheMemoryLimitIsKilled() throws {
    let limit = 4 << 20
    let outcome = try ChildProcess.run(
      executable: "/bin/sh",
      arguments: [
        "-c", "held=$(head -c 67108864 /dev/zero | tr '\\0' x); sleep 60; echo ${#held}",
      ],
      limits: .init(memoryLimitBytes: limit, timeoutSeconds: 120))
    #expect(outcome.killedFor == .memory)
    #expect(outcome.signal == SIGKILL)
    #expect(outcome.sampledFootprintPeakBytes > limit)
  }

  @Test(arguments: [Double.infinity, 1e300])
  func anEndlessTimeoutIsNoLimitNotATrap(seconds: Double) throws {
    let outcome = try ChildProcess.run(
      executable: "/bin/true", arguments: [],
      limits: .init(memoryLimitBytes: nil, timeoutSeconds: seconds))
    #expect(outcome.exitCode == 0)
    #expect(outcome.killedFor == nil)
  }

  @Test func aCrashIsReportedWithItsSignalAndAnExitWithItsStatus() throws {
    let crashed = try ChildProcess.run(
      executable: "/bin/sh", arguments: ["-c", "kill -SEGV $$"],
      limits: .init(memoryLimitBytes: nil, timeoutSeconds: 10))
    #expect(crashed.signal == SIGSEGV)
    #expect(crashed.exitCode == nil)
    let exited = try ChildProcess.run(
      executable: "/bin/sh", arguments: ["-c", "echo why >&2; exit 3"],
      limits: .init(memoryLimitBytes: nil, timeoutSeconds: 10))
    #expect(exited.exitCode == 3)
    #expect(exited.signal == nil)
    #expect(exited.standardError.contains("why"))
  }

  /// Whether `pid` is gone, a zombie nobody reaps yet (it holds no descriptors), or holds a
  /// SIGKILL not yet delivered (`kill` returns once the signal is pending, before the target
  /// has run to take it): read off /proc, no waiting.
  func isGoneOrKilled(_ pid: Int32) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
      return true
    }
    var fields: [String: String] = [:]
    for line in status.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2 {
        fields[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces)
      }
    }
    if let state = fields["State"], state.hasPrefix("Z") || state.hasPrefix("X") { return true }
    // SIGKILL is signal 9: bit 8 of the pending masks (the thread's, or the process's shared).
    let sigkill: UInt64 = 1 << 8
    return ["SigPnd", "ShdPnd"].contains {
      fields[$0].flatMap { UInt64($0, radix: 16) }.map { $0 & sigkill != 0 } ?? false
    }
  }

  /// A child that leaves a grandchild holding the report pipe (issue 39, item 10: `bench ab`
  /// never returned): the grandchild shares the child's process group and goes with it, both
  /// when the child exits and when the timeout kills it.
  @Test(arguments: [false, true])
  func aGrandchildHoldingThePipeIsKilledWithItsGroup(atTheTimeout: Bool) throws {
    let folder = try TemporaryFolder()
    let pidFile = folder.path("grandchild.pid")
    let script =
      "sleep 1000 & echo $! > '\(pidFile)'; "
      + (atTheTimeout ? "sleep 1000" : "echo '{\"done\":1}' >&3; exit 0")
    // The clock steps 100 ms per reading: the timeout is five of the supervisor's turns when it
    // is the point, and far more than a loaded machine's shell needs to exit when it is not
    // (at 0.5 s, a busy machine's shell missed five turns and was killed).
    var limits = ChildProcess.Limits(
      memoryLimitBytes: nil, timeoutSeconds: atTheTimeout ? 0.5 : 600)
    limits.clock = SteppingClock(step: 100_000_000).clock
    let outcome = try ChildProcess.run(
      executable: "/bin/sh", arguments: ["-c", script], limits: limits)
    #expect(outcome.killedFor == (atTheTimeout ? .timeout : nil))
    if !atTheTimeout { #expect(outcome.report == "{\"done\":1}") }
    let grandchild = try #require(
      Int32(
        try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(
          in: .whitespacesAndNewlines)))
    #expect(isGoneOrKilled(grandchild), "the grandchild \(grandchild) outlived its group")
  }

  @Test func aMissingExecutableIsAnErrorNotACrash() {
    #expect(throws: ChildProcess.SpawnError.self) {
      try ChildProcess.run(
        executable: "/nonexistent/calldir-extension", arguments: [],
        limits: .init(memoryLimitBytes: nil, timeoutSeconds: 1))
    }
  }

  /// The spawn time is the parent's reading of the machine's monotonic clock just before the
  /// spawn (`startup_s` subtracts it from the child's own reading): after a reading taken
  /// before the call, before one taken after it.
  @Test func theSpawnTimeIsReadOnTheSharedMonotonicClock() throws {
    let before = MonotonicTime.nanoseconds()
    let outcome = try ChildProcess.run(
      executable: "/bin/true", arguments: [],
      limits: .init(memoryLimitBytes: nil, timeoutSeconds: 10))
    let after = MonotonicTime.nanoseconds()
    #expect(outcome.spawnedAtNanoseconds >= before)
    #expect(outcome.spawnedAtNanoseconds <= after)
  }
}
