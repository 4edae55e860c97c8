#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A test hook, always compiled in (as SQLite's are): with `CALLDIR_FAULT_AT=N` in the
/// environment, the process ends abruptly (`_exit`, no cleanup, as a kill would) just before
/// its Nth durable step — an fsync or a rename of a file that matters. Tests run a writer once
/// per N to stop it at every step in turn and check that the container holds exactly the old or
/// the new set. Unset, it costs one comparison per durable step.
public enum FaultInjection {
  /// The environment variable that arms the hook.
  public static let environmentVariable = "CALLDIR_FAULT_AT"
  /// The exit status of a process the hook ended (EX_TEMPFAIL from sysexits.h).
  public static let exitStatus: Int32 = 75

  /// Durable steps taken so far. Writers are single-threaded; nothing else touches this.
  nonisolated(unsafe) private static var stepsTaken = 0
  private static let armedAt: Int? = {
    guard let text = getenv(environmentVariable) else { return nil }
    return Int(String(cString: UnsafePointer(text))).flatMap { $0 > 0 ? $0 : nil }
  }()

  /// Called just before each durable step (`what`: "fsync PATH", "rename A → B").
  public static func beforeDurableStep(_ what: @autoclosure () -> String) {
    guard let armedAt else { return }
    stepsTaken += 1
    guard stepsTaken == armedAt else { return }
    let line = "calldir: fault injected before durable step \(stepsTaken): \(what())\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    _exit(exitStatus)
  }
}
