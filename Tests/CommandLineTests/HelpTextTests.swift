import Foundation
import TestSupport
import Testing

/// Every command's help text against a checked-in copy (`Help/*.txt`), as swift-argument-parser's
/// own examples test theirs: help is the first documentation a user reads, and it must change
/// only on purpose. After an intended change, regenerate the copies with
/// `CALLDIR_UPDATE_HELP=1 swift test --filter HelpTextTests` and review the diff.
@Suite("Help text of every command")
struct HelpTextTests {
  static let commands: [[String]] = [
    [], ["bench"], ["bench", "strategies"], ["bench", "sweep"], ["bench", "ab"],
    ["bench", "two-phase"], ["bench", "compile"],
    ["bench", "update"], ["chart"],
    ["generate"],
    ["host"], ["host", "enable"], ["host", "disable"], ["host", "reload"], ["host", "lookup"],
    ["host", "status"], ["app"], ["app", "stage"], ["app", "choose"], ["app", "sync"],
    ["app", "status"], ["app", "update"], ["normalize"], ["compile"], ["inspect"], ["publish"],
    ["history"], ["history", "add"], ["history", "changes"], ["history", "report"],
    ["history", "prune"],
  ]

  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Help")

  @Test(arguments: commands)
  func helpMatchesItsCheckedInCopy(command: [String]) throws {
    let calldir = builtExecutablePath("calldir")
    try #require(FileManager.default.isExecutableFile(atPath: calldir), "build calldir first")
    // A fixed width: ArgumentParser wraps help to the terminal, or to COLUMNS without one.
    let result = try runProcess(
      calldir, command + ["--help"], environment: ["COLUMNS": "100", "PATH": "/usr/bin:/bin"])
    #expect(result.status == 0, "\(result.stderr)")
    let name = (["calldir"] + command).joined(separator: "-") + ".txt"
    let copy = Self.folder.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["CALLDIR_UPDATE_HELP"] == "1" {
      try result.stdout.write(to: copy, atomically: true, encoding: .utf8)
    }
    let expected = try String(contentsOf: copy, encoding: .utf8)
    #expect(result.stdout == expected, "calldir \(command.joined(separator: " ")) --help drifted")
  }

  @Test func everyCommandHasACopyAndEveryCopyACommand() throws {
    let names = Set(Self.commands.map { (["calldir"] + $0).joined(separator: "-") + ".txt" })
    let files = Set(try FileManager.default.contentsOfDirectory(atPath: Self.folder.path))
    #expect(names == files)
  }
}
