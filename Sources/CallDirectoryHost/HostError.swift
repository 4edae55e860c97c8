import CallDirectoryCore

/// Why the simulated system could not do what was asked.
public enum HostError: Error, CustomStringConvertible, Equatable, Sendable {
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

extension HostError {
  /// `body`'s result, its error as a `HostError`: the system's calls throw only these, and
  /// anything else (a spawner's or Foundation's error) is kept as `input`, its text whole.
  static func typed<T>(_ body: () throws -> T) throws(HostError) -> T {
    do {
      return try body()
    } catch let error as HostError {
      throw error
    } catch {
      throw .input("\(error)")
    }
  }
}
