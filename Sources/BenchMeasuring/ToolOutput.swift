import Foundation

/// What a tool found through PATH prints: git for a commit, tar for an archive.
public enum ToolOutput {
  /// Everything `arguments` (the tool's name first) prints on stdout, trimmed; nil when it
  /// cannot start or exits with a status other than 0. Its stderr is discarded.
  public static func text(of arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return nil
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
