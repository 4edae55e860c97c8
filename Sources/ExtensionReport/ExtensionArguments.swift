/// A minimal `--name value` parser for the measured executables, which stay free of
/// ArgumentParser to keep their memory small.
public struct ExtensionArguments {
  private var values: [String: String] = [:]

  /// Parses `arguments` (without the program name).
  /// - Throws: ``UsageError`` for a stray word, an option without a value or an unknown option.
  public init(_ arguments: [String], allowed: Set<String>) throws(UsageError) {
    var index = 0
    while index < arguments.count {
      let word = arguments[index]
      guard word.hasPrefix("--") else { throw UsageError("unexpected argument '\(word)'") }
      let name = String(word.dropFirst(2))
      guard allowed.contains(name) else { throw UsageError("unknown option '\(word)'") }
      guard index + 1 < arguments.count else { throw UsageError("option '\(word)' needs a value") }
      values[name] = arguments[index + 1]
      index += 2
    }
  }

  /// The value of `--name`, if given.
  public subscript(name: String) -> String? { values[name] }

  /// The integer value of `--name`, if given.
  /// - Throws: ``UsageError`` when it is not a whole number.
  public func integer(_ name: String) throws(UsageError) -> Int? {
    guard let text = values[name] else { return nil }
    guard let value = Int(text) else {
      throw UsageError("option '--\(name)' needs a whole number, got '\(text)'")
    }
    return value
  }
}

/// A command-line mistake, described in one line.
public struct UsageError: Error, CustomStringConvertible {
  /// The message.
  public let description: String
  /// Creates an error with a message.
  public init(_ description: String) { self.description = description }
}

/// Exit statuses of the measured executables.
public enum ExtensionExitStatus {
  /// The request completed.
  public static let completed: Int32 = 0
  /// Bad arguments.
  public static let usage: Int32 = 1
  /// The input file could not be read (missing, foreign, truncated, corrupt).
  public static let badInput: Int32 = 3
  /// The context rejected the request (the report carries iOS's code).
  public static let requestFailed: Int32 = 4
}
