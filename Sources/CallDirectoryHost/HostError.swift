import CallDirectoryCore

/// Why the simulated system could not do what was asked.
public enum HostError: Error, CustomStringConvertible, Equatable {
  /// The store (SQLite) failed; the message names the file and SQLite's error.
  case store(String)
  /// A request ended with one of iOS's Call Directory errors.
  case callDirectory(CallDirectoryError, detail: String)
  /// Bad input: a missing extension executable, a bad argument.
  case input(String)

  public var description: String {
    switch self {
    case .store(let message): "store: \(message)"
    case .callDirectory(let error, let detail): detail.isEmpty ? "\(error)" : "\(error): \(detail)"
    case .input(let message): message
    }
  }
}
