import Foundation

/// `--progress json`'s output: one JSON object per line of a command's stderr.
public enum ProgressLines {
  /// A line that is not a JSON object.
  public struct NotAnObject: Error, CustomStringConvertible {
    public let description: String
  }

  /// Each line of `stderr` as a JSON object, in order.
  /// - Throws: ``NotAnObject`` naming the first line that is not one.
  public static func objects(_ stderr: String) throws -> [[String: Any]] {
    try stderr.split(separator: "\n").map { line in
      guard
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      else { throw NotAnObject(description: "not a JSON object: \(line)") }
      return object
    }
  }

  /// The phases the objects name, each run of one phase once, in order.
  public static func phaseOrder(_ objects: [[String: Any]]) -> [String] {
    objects.compactMap { $0["phase"] as? String }.reduce(into: [String]()) {
      if $0.last != $1 { $0.append($1) }
    }
  }
}
