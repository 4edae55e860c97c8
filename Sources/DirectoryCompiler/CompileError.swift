/// A problem that stops a compile (as opposed to a rejected line, which is counted).
public enum CompileError: Error, CustomStringConvertible, Equatable {
  case unreadable(String, String)
  case usage(String)
  case write(String)
  /// The compile would leave a live container with no entries, or lose most of them
  /// (``ShrinkGuard``); nothing was written.
  case shrink(String)

  public var description: String {
    switch self {
    case .unreadable(let path, let why): "cannot read \(path): \(why)"
    case .usage(let message): message
    case .write(let message): message
    case .shrink(let message): message
    }
  }
}

/// `--strict` and at least one line was rejected: the compiler stopped before writing anything,
/// so the container is as it was.
public struct StrictRejection: Error, CustomStringConvertible {
  /// What was read and rejected.
  public let report: CompileReport

  public var description: String {
    "--strict: \(report.rejectedCount) \(report.rejectedCount == 1 ? "line" : "lines") rejected; nothing written"
  }
}
