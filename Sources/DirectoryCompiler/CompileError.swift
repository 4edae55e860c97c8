/// A problem that stops a compile (as opposed to a rejected line, which is counted).
public enum CompileError: Error, CustomStringConvertible, Equatable {
  case unreadable(String, String)
  case usage(String)
  case write(String)

  public var description: String {
    switch self {
    case .unreadable(let path, let why): "cannot read \(path): \(why)"
    case .usage(let message): message
    case .write(let message): message
    }
  }
}
