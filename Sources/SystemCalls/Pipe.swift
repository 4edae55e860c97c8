import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; C hands back no pointer into its own memory, and nothing
// here keeps a pointer past its call.

/// A pipe (`pipe(2)`): the simulated system's channel to a spawned extension and a child's
/// report.
@usableFromInline package enum Pipe {
  /// A new pipe's two ends, as raw descriptors (the spawner hands them to a child).
  /// - Throws: `Errno` from `pipe`.
  @usableFromInline package static func make() throws(Errno) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    guard unsafe pipe(&ends) == 0 else { throw Errno(rawValue: errno) }
    return (ends[0], ends[1])
  }
}
