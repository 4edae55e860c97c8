import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The children ``ChildProcess`` is running now, so a command ended by SIGINT or SIGTERM ends
/// them too: each runs in a process group of its own (so the system can end an extension's
/// whole process), which a signal to the parent does not reach, and SIGTERM to `host enable`
/// left its extension running, reparented to PID 1 (issue 65, item 14).
public enum RunningChildren {
  // Safe: `groups` is touched only under `lock`.
  private final class Registry: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    let lock = NSLock()
    var groups: Set<pid_t> = []
  }
  private static let registry = Registry()

  /// Runs `spawn` and records the child it started, under the lock: a signal handler that
  /// kills the running children between the spawn and the record would miss it.
  static func spawning(
    _ spawn: () throws -> (processID: pid_t, started: UInt64, spawnedAt: UInt64)
  ) throws -> (processID: pid_t, started: UInt64, spawnedAt: UInt64) {
    try registry.lock.withLock {
      let started = try spawn()
      registry.groups.insert(started.processID)
      return started
    }
  }

  /// Forgets a child once it has been reaped (its process ID may be another's afterwards).
  static func ended(_ processID: pid_t) {
    registry.lock.withLock { _ = registry.groups.remove(processID) }
  }

  /// Kills every running child's process group (SIGKILL, as the system ends an extension).
  /// - Returns: how many children were running.
  @discardableResult
  public static func killAll() -> Int {
    registry.lock.withLock {
      for group in registry.groups {
        kill(-group, SIGKILL)
        kill(group, SIGKILL)
      }
      return registry.groups.count
    }
  }
}
