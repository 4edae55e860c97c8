import Foundation

/// A fresh temporary folder per test, removed when the value goes away.
public final class TemporaryFolder {
  /// The folder.
  public let url: URL

  /// Creates the folder under the system's temporary directory.
  public init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "calldir-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// The path of `name` inside the folder.
  public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// The path of an executable SwiftPM built beside the running test binary.
public func builtExecutablePath(_ name: String) -> String {
  let running =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    ?? CommandLine.arguments[0]
  return URL(fileURLWithPath: running).deletingLastPathComponent().appendingPathComponent(name).path
}
