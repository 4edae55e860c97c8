import CallDirectoryCore
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
    ["bench", "update"], ["bench", "patterns"], ["bench", "user-edits"], ["gate"], ["chart"],
    ["generate"],
    ["host"], ["host", "enable"], ["host", "disable"], ["host", "reload"], ["host", "lookup"],
    ["host", "status"], ["app"], ["app", "stage"], ["app", "choose"], ["app", "sync"],
    ["app", "status"], ["app", "update"], ["app", "block"], ["app", "allow"], ["app", "unblock"],
    ["app", "label"], ["app", "pause"], ["app", "resume"], ["app", "lists"], ["normalize"],
    ["compile"], ["plan"], ["feed"], ["inspect"], ["lookup"],
    ["publish"],
    ["export"], ["export", "lcidl"],
    ["history"], ["history", "add"], ["history", "changes"], ["history", "report"],
    ["history", "prune"],
  ]

  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Help")

  @Test(arguments: commands)
  func helpMatchesItsCheckedInCopy(command: [String]) throws {
    let result = try Self.help(command)
    #expect(result.status == 0, "\(result.stderr)")
    let name = (["calldir"] + command).joined(separator: "-") + ".txt"
    let copy = Self.folder.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["CALLDIR_UPDATE_HELP"] == "1" {
      try result.stdout.write(to: copy, atomically: true, encoding: .utf8)
    }
    let expected = try String(contentsOf: copy, encoding: .utf8)
    #expect(result.stdout == expected, "calldir \(command.joined(separator: " ")) --help drifted")
  }

  /// `calldir COMMAND --help` as the copies hold it: at a fixed width (ArgumentParser wraps help
  /// to the terminal, or to COLUMNS without one).
  static func help(_ command: [String]) throws -> ProcessRun {
    let calldir = builtExecutablePath("calldir")
    try #require(FileManager.default.isExecutableFile(atPath: calldir), "build calldir first")
    return try runProcess(
      calldir, command + ["--help"], environment: ["COLUMNS": "100", "PATH": "/usr/bin:/bin"])
  }

  /// Scripts read exit statuses: every command's help says which it uses (issue 56, item 9: ten
  /// did not).
  @Test(arguments: commands)
  func helpListsTheExitStatuses(command: [String]) throws {
    let text = try Self.help(command).stdout.split(whereSeparator: \.isWhitespace)
      .joined(separator: " ")
    #expect(
      text.contains("Exit statuses: 0 ") || text.contains("Exit status 0 "),
      "calldir \(command.joined(separator: " ")) --help lists no exit statuses")
  }

  /// `calldir --version` prints the one version constant, which CHANGELOG.md names.
  @Test func versionIsTheConstantTheChangelogNames() throws {
    let result = try runProcess(builtExecutablePath("calldir"), ["--version"])
    #expect(result.status == 0, "\(result.stderr)")
    let version = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(version == CalldirVersion.current)
    let changelog = try String(
      contentsOf: Self.folder.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    #expect(changelog.contains("— \(version)"), "CHANGELOG.md has no section for \(version)")
  }

  @Test func everyCommandHasACopyAndEveryCopyACommand() throws {
    let names = Set(Self.commands.map { (["calldir"] + $0).joined(separator: "-") + ".txt" })
    let files = Set(try FileManager.default.contentsOfDirectory(atPath: Self.folder.path))
    #expect(names == files)
  }

  static let reference = folder.appendingPathComponent(
    "../../../Sources/calldir/calldir.docc/CommandLineReference.md"
  ).standardized

  /// The command-line reference article is every command's help, in the order above, made from
  /// the checked-in copies: regenerated with them (`CALLDIR_UPDATE_HELP=1`), it cannot drift.
  /// With `live`, from the built calldir's help itself (the copies may be rewritten by the other
  /// tests at the same time).
  static func referenceArticle(live: Bool = false) throws -> String {
    var text = """
      # Command-line reference

      Every command's help, as `calldir COMMAND --help` prints it.

      ## Overview

      This page is generated from the parser: `HelpTextTests` compares each command's help with
      its checked-in copy and this page with those copies, and \
      `CALLDIR_UPDATE_HELP=1 swift test --filter HelpTextTests` rewrites both.

      """
    for command in commands {
      let name = (["calldir"] + command).joined(separator: " ")
      let copy = folder.appendingPathComponent(
        (["calldir"] + command).joined(separator: "-") + ".txt")
      let help =
        live ? try Self.help(command).stdout : try String(contentsOf: copy, encoding: .utf8)
      text += "\n## \(name)\n\n```\n\(help.hasSuffix("\n") ? help : help + "\n")```\n"
    }
    return text
  }

  @Test func theReferenceArticleIsTheHelp() throws {
    let updating = ProcessInfo.processInfo.environment["CALLDIR_UPDATE_HELP"] == "1"
    let article = try Self.referenceArticle(live: updating)
    if updating {
      try article.write(to: Self.reference, atomically: true, encoding: .utf8)
    }
    let committed = try String(contentsOf: Self.reference, encoding: .utf8)
    #expect(
      committed == article,
      "regenerate with CALLDIR_UPDATE_HELP=1 swift test --filter HelpTextTests")
  }
}
