import SystemCalls

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A test hook, linked into the command-line tools only (`calldir`, `calldir-extension`,
/// `calldir-patch`), never into a library an app links: each tool calls ``install()`` first
/// thing, and a test then stands in for the OS at a durable step — an fsync or a rename of a
/// file that matters:
/// - `CALLDIR_FAULT_AT=N`: the process ends abruptly (`_exit`, no cleanup, as a kill would) just
///   before its Nth durable step. Tests run a writer once per N to stop it at every step in turn
///   and check that the container holds exactly the old or the new set.
/// - with `CALLDIR_FAULT_ERRNO=E` as well (`EIO`, `ENOSPC`, `EDQUOT`, `EROFS`, `EACCES` or a
///   number): the Nth step fails with that error instead, as a failing disk would, so the
///   writer's own error path runs; tests check it reports the error in one line and leaves the
///   container as it was. A step that cannot fail (a folder's fsync, which is best effort, or the
///   host's database steps) passes untouched when armed this way.
/// - `CALLDIR_FAULT_COUNT=1`, unarmed: nothing fails, and at exit the process writes
///   `durable steps taken: N` on stderr, so a test learns how many steps a writer takes from one
///   run and stops it at a sample of them rather than at each in turn.
/// Unset, it costs one comparison per durable step.
public enum FaultInjection: DurableStepObserving {
  /// The hook itself; its one value is what ``install()`` installs.
  case armed

  /// Installs the hook as the durable steps' observer when the environment arms it. Call it
  /// first thing in `main`, before any other thread runs.
  public static func install() {
    // Safe: set before any other thread exists (the observer's contract), read after.
    if armedAt != nil || counts { unsafe DurableStep.observer = FaultInjection.armed }
    if counts, armedAt == nil {
      // A C function, so it captures nothing: it reads the count the steps left.
      atexit {
        StandardError.write(
          "\(FaultInjection.countLinePrefix)\(unsafe FaultInjection.stepsTaken)\n")
      }
    }
  }

  public func beforeStep(_ what: () -> String, canFail: Bool) -> Int32? {
    Self.step(what, canFail: canFail)
  }

  /// The environment variable that arms the hook.
  public static let environmentVariable = "CALLDIR_FAULT_AT"
  /// The environment variable that turns the armed step's kill into a failed call.
  public static let errnoVariable = "CALLDIR_FAULT_ERRNO"
  /// The environment variable that makes a process report its durable steps at exit.
  public static let countVariable = "CALLDIR_FAULT_COUNT"
  /// What the count's line on stderr begins with; the count follows.
  public static let countLinePrefix = "durable steps taken: "
  /// The exit status of a process the hook ended (EX_TEMPFAIL from sysexits.h).
  public static let exitStatus: Int32 = 75

  // Safe: the durable steps are taken on one thread (the writers are single-threaded).
  /// Durable steps taken so far. Writers are single-threaded; nothing else touches this.
  nonisolated(unsafe) private static var stepsTaken = 0
  private static let counts = ProcessEnvironment.value(countVariable) == "1"
  private static let armedAt: Int? = {
    guard let text = ProcessEnvironment.value(environmentVariable) else { return nil }
    return Int(text).flatMap { $0 > 0 ? $0 : nil }
  }()
  /// The error the armed step fails with, when `CALLDIR_FAULT_ERRNO` names one.
  private static let injectedError: Int32? = {
    guard let text = ProcessEnvironment.value(errnoVariable) else { return nil }
    let named: [String: Int32] = [
      "EIO": EIO, "ENOSPC": ENOSPC, "EDQUOT": EDQUOT, "EROFS": EROFS, "EACCES": EACCES,
    ]
    return named[text] ?? Int32(text).flatMap { $0 > 0 ? $0 : nil }
  }()

  /// Counts a step, ends the process there when armed to kill, and returns the error to fail
  /// it with when armed with an error (and it can fail).
  private static func step(_ what: () -> String, canFail: Bool) -> Int32? {
    guard armedAt != nil || counts else { return nil }
    // Safe: the durable steps a tool takes are taken on one thread (the writers are
    // single-threaded), so the count is never touched by two at once.
    let taken = unsafe stepsTaken + 1
    unsafe stepsTaken = taken
    guard let armedAt, taken == armedAt else { return nil }
    if let injectedError { return canFail ? injectedError : nil }
    StandardError.write("calldir: fault injected before durable step \(taken): \(what())\n")
    _exit(exitStatus)
  }
}
