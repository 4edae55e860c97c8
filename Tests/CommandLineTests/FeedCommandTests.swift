import Foundation
import ReleaseServer
import TestSupport
import Testing

/// `calldir feed`: a community blocklist synced from a file or over HTTP with since=VERSION,
/// compiled and installed; a refused feed or a killed fetch leaves the snapshot and the dump
/// as they were (issue 67, item 2).
@Suite("calldir feed: whole lists, deltas, HTTP with since, kills and bad feeds")
struct FeedCommandTests {
  let calldir = builtExecutablePath("calldir")

  static let whole = #"""
    {"numbers":[{"phone":"+4930123456","rating":"G_FRAUD","votes":4},
    {"phone":"+390456789123","rating":"F_GAMBLE","votes":10},
    {"phone":"+4989111222","rating":"A_LEGITIMATE","votes":9}],"version":41}
    """#
  static let delta = #"""
    {"numbers":[{"phone":"+4930123456","votes":0},{"phone":"+4971112233","rating":"C_PING","votes":3}],"version":42}
    """#

  func write(_ text: String, _ path: String) throws {
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  @Test func aFileThenADeltaCompileAndInstallWhatTheFeedSays() throws {
    let folder = try TemporaryFolder()
    let (snapshot, dump) = (folder.path("feed.snapshot"), folder.path("feed.tsv"))
    try write(Self.whole, folder.path("whole.json"))
    let first = try runProcess(
      calldir, ["feed", folder.path("whole.json"), "--snapshot", snapshot, "--out", dump])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(
      first.stdout.contains("feed version 41 (the whole list): 3 entries read"), "\(first.stdout)")
    #expect(first.stdout.contains("2 numbers to block"), "\(first.stdout)")
    try write(Self.delta, folder.path("delta.json"))
    let second = try runProcess(
      calldir,
      ["feed", folder.path("delta.json"), "--delta", "--snapshot", snapshot, "--out", dump])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout.contains("changes since 41"), "\(second.stdout)")
    #expect(
      try String(contentsOfFile: dump, encoding: .utf8)
        == "number\tlabel\tcategory\n+4971112233\tPing call\tspam\n+390456789123\tGambling\tspam\n")
    // Compiled, enabled and synced: the system blocks what the feed lists, not what it removed.
    let box = folder.path("box")
    let compiled = try runProcess(calldir, ["compile", dump, "--out", box])
    #expect(compiled.status == 0, "\(compiled.stderr)")
    let flags = ["--container", box, "--host-dir", folder.path("host")]
    #expect(try runProcess(calldir, ["host", "enable", "com.example.feed"] + flags).status == 0)
    #expect(try runProcess(calldir, ["app", "sync", "com.example.feed"] + flags).status == 0)
    for (number, blocked) in [
      ("+390456789123", true), ("+4971112233", true), ("+4930123456", false),
      ("+4989111222", false),
    ] {
      let lookup = try runProcess(
        calldir, ["host", "lookup", number, "--host-dir", folder.path("host")])
      #expect(lookup.stdout.contains("blocked") == blocked, "\(number): \(lookup.stdout)")
    }
  }

  @Test func overHTTPAFreshSnapshotAsksForTheChangesSinceItsVersionWithTheToken() throws {
    let folder = try TemporaryFolder()
    let served = folder.path("served")
    try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
    try write(Self.whole, served + "/blocklist")
    let server = try ReleaseServer(folder: served)
    let (snapshot, dump) = (folder.path("feed.snapshot"), folder.path("feed.tsv"))
    let arguments = [
      "feed", server.url + "/blocklist", "--snapshot", snapshot, "--out", dump, "--token-env",
      "FEED_TOKEN",
    ]
    let environment = ProcessInfo.processInfo.environment.merging(["FEED_TOKEN": "s3cret"]) {
      $1
    }
    let first = try runProcess(calldir, arguments, environment: environment)
    #expect(first.status == 0, "\(first.stderr)")
    try write(Self.delta, served + "/blocklist")
    let second = try runProcess(calldir, arguments, environment: environment)
    #expect(second.status == 0, "\(second.stderr)")
    // A whole-list sync asked with --full, whatever the snapshot's age.
    try write(Self.whole, served + "/blocklist")
    let third = try runProcess(calldir, arguments + ["--full"], environment: environment)
    #expect(third.status == 0, "\(third.stderr)")
    let log = server.stop()
    let gets = log.split(separator: "\n").filter { $0.hasPrefix("GET blocklist") }
    #expect(gets.count == 3, "\(log)")
    #expect(
      gets.first?.hasPrefix("GET blocklist - ") == true,
      "the first sync takes the whole list: \(log)")
    #expect(gets.dropFirst().first?.hasPrefix("GET blocklist?since=41 ") == true, "\(log)")
    #expect(gets.last?.hasPrefix("GET blocklist - ") == true, "\(log)")
    #expect(gets.allSatisfy { $0.hasSuffix("auth=Bearer s3cret") }, "\(log)")
    #expect(!FileManager.default.fileExists(atPath: snapshot + ".download"))
  }

  @Test func aKilledFetchAndEveryRefusedFeedLeaveTheSnapshotAndTheDumpAsTheyWere() throws {
    let folder = try TemporaryFolder()
    let (snapshot, dump) = (folder.path("feed.snapshot"), folder.path("feed.tsv"))
    try write(Self.whole, folder.path("whole.json"))
    let first = try runProcess(
      calldir, ["feed", folder.path("whole.json"), "--snapshot", snapshot, "--out", dump])
    #expect(first.status == 0, "\(first.stderr)")
    let before = try folderSnapshot(folder.path("."))
    // A fetch killed mid-body (the server stalls after 40 bytes).
    let served = folder.path("served")
    try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
    try write(Self.delta, served + "/blocklist")
    let server = try ReleaseServer(folder: served, faults: .stalling(after: 40))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: calldir)
    process.arguments = [
      "feed", server.url + "/blocklist", "--snapshot", snapshot, "--out", dump,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    #expect(server.waitForRequest(containing: "GET blocklist?since=41"))
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    _ = server.stop()
    try? FileManager.default.removeItem(atPath: snapshot + ".download")
    try FileManager.default.removeItem(atPath: served + "/blocklist")
    try FileManager.default.removeItem(atPath: served)
    #expect(try folderSnapshot(folder.path(".")) == before)
    // Refused feeds: one line each, status 1, nothing changed.
    let bad: [(String, String)] = [
      ("not json", "expected an object"),
      (#"{"version":40,"numbers":[]}"#, "version 40 is older than the snapshot's 41"),
      (#"{"version":42,"numbers":[{"phone":"+49 not a number"}]}"#, "is not a phone number"),
    ]
    for (text, expected) in bad {
      try write(text, folder.path("bad.json"))
      let run = try runProcess(
        calldir,
        ["feed", folder.path("bad.json"), "--delta", "--snapshot", snapshot, "--out", dump])
      #expect(run.status == 1, "\(text): \(run.stdout)")
      #expect(run.stderr.contains(expected) && run.stderr.contains("bad.json"), "\(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
      try FileManager.default.removeItem(atPath: folder.path("bad.json"))
      #expect(try folderSnapshot(folder.path(".")) == before, "\(text) changed a file")
    }
  }
}
