import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pipe (`pipe(2)`): the simulated system's channel to a spawned extension and a child's
/// report.
public enum Pipe {
  /// A new pipe's two ends, as raw descriptors (the spawner hands them to a child).
  /// - Throws: `Errno` from `pipe`.
  public static func make() throws(Errno) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw Errno(rawValue: errno) }
    return (ends[0], ends[1])
  }
}
