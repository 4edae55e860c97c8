import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every output option of every command, taken from the parser itself (`--experimental-dump-help`),
/// is tried with a link to a regular file, a FIFO, a character device and `/dev/stdout`: each
/// is written through (or, for the link, replaced at its target) and none is ever replaced by a
/// regular file (issue 52, item 1: `generate --out /dev/null` replaced the system's `/dev/null`).
/// An option that writes and has no invocation here fails the test, so a new one cannot escape.
@Suite("Every output option writes through what is not a regular file")
struct OutputOptionsTests {
  let calldir = builtExecutablePath("calldir")
  let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// An option of a command, as the parser lists it.
  struct Option: Hashable, CustomStringConvertible {
    var command: [String]
    var name: String
    var help: String
    var completion: String
    var description: String { (command + ["--" + name]).joined(separator: " ") }
  }

  /// Every option of every subcommand.
  func parserOptions() throws -> [Option] {
    let dump = try runProcess(calldir, ["--experimental-dump-help"])
    #expect(dump.status == 0)
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
    var options: [Option] = []
    func walk(_ command: [String: Any], _ path: [String]) {
      for argument in command["arguments"] as? [[String: Any]] ?? [] {
        guard argument["kind"] as? String == "option",
          let names = argument["names"] as? [[String: Any]],
          let long = names.first(where: { $0["kind"] as? String == "long" })?["name"] as? String
        else { continue }
        let completion = (argument["completionKind"] as? [String: Any])?.keys.first ?? ""
        options.append(
          Option(
            command: path, name: long, help: argument["abstract"] as? String ?? "",
            completion: completion))
      }
      for sub in command["subcommands"] as? [[String: Any]] ?? [] {
        walk(sub, path + [sub["commandName"] as? String ?? "?"])
      }
    }
    walk(try #require(root["command"] as? [String: Any]), [])
    return options
  }

  /// An option that writes a file: its help says it writes, or records.
  static func writesAFile(_ option: Option) -> Bool {
    let help = option.help.lowercased()
    return option.completion != "directory" && option.name != "container"
      && (help.contains("to write") || help.contains("write github") || help.hasPrefix("record"))
  }

  /// The cheapest run of each command that writes its output options; nil for a command that
  /// needs a tool this machine lacks.
  func invocation(of command: [String], in folder: TemporaryFolder) throws -> [String]? {
    let small = ["--profile", "ci-smoke", "--entries", "1000", "--repeat", "1"]
    switch command {
    case ["generate"]: return ["generate", "--profile", "ci-smoke", "--entries", "200"]
    case ["plan"]:
      let plan = folder.path("MAJNUM.csv")
      try Data(PlanCommandTests.plan).write(to: URL(fileURLWithPath: plan))
      return ["plan", plan, "--format", "arcep"]
    case ["feed"]:
      let feed = folder.path("feed.json")
      try #"{"numbers":[{"phone":"+4930123456","rating":"G_FRAUD","votes":3}],"version":1}"#
        .write(toFile: feed, atomically: true, encoding: .utf8)
      return ["feed", feed, "--snapshot", folder.path("feed.snapshot")]
    case ["chart"]: return ["chart", repository.appendingPathComponent("Results/latest.csv").path]
    case ["history", "report"]:
      return ["history", "report", "--db", try historyDatabase(folder.path("history.db"))]
    case ["bench", "strategies"]:
      return ["bench", "strategies"] + small + ["--strategies", "mmap"]
    case ["bench", "sweep"]:
      return [
        "bench", "sweep", "--profile", "ci-smoke", "--entries", "1000,2000", "--repeat", "1",
        "--strategies", "mmap",
      ]
    case ["bench", "ab"]:
      return ["bench", "ab"] + small + [
        "--against", URL(fileURLWithPath: calldir).deletingLastPathComponent().path,
      ]
    case ["bench", "two-phase"]: return ["bench", "two-phase"] + small
    case ["bench", "compile"]:
      return [
        "bench", "compile", "--profile", "ci-smoke", "--entries", "1000,2000", "--repeat", "1",
      ]
    case ["bench", "patterns"]:
      return [
        "bench", "patterns", "--wildcards", "1", "--repeat", "1", "--work", folder.path("work"),
      ]
    case ["bench", "user-edits"]:
      return [
        "bench", "user-edits", "--entries", "1000", "--wildcards", "1", "--repeat", "1", "--work",
        folder.path("work"), "--user-entries", "10", "--lookup-repeat", "100", "--lookup-runs", "1",
      ]
    case ["bench", "update"]:
      let found = try runProcess("/bin/sh", ["-c", "command -v bsdiff"])
      return found.status == 0 ? ["bench", "update"] + small : nil
    default: return nil
    }
  }

  /// A history database at `path` holding Results/latest.csv's figures.
  func historyDatabase(_ path: String) throws -> String {
    let added = try runProcess(
      calldir,
      [
        "history", "add", repository.appendingPathComponent("Results/latest.csv").path,
        "--commit", String(repeating: "a", count: 40), "--db", path,
      ])
    #expect(added.status == 0, "\(added.stderr)")
    return path
  }

  /// The kinds of target each option meets in turn.
  enum Kind: CaseIterable { case linkToFile, fifo, characterDevice, standardOutput }

  @Test func everyOutputOptionWritesThroughWhatIsNotARegularFile() async throws {
    let options = try parserOptions()
    let outputs = options.filter(Self.writesAFile)
    // The parser must still list the options this test was written against: a rename that
    // hid them from the filter would make the test vacuous.
    let names = Set(outputs.map(\.description))
    for known in [
      "generate --out", "chart --out", "history report --out", "bench strategies --json",
      "bench strategies --save-baseline", "bench two-phase --chart",
    ] {
      #expect(names.contains(known), "the parser no longer lists \(known) as an output")
    }
    let commands = Dictionary(grouping: outputs, by: \.command)
    let canMakeDevices = getuid() == 0
    for (command, commandOptions) in commands.sorted(by: { $0.key.joined() < $1.key.joined() }) {
      let folder = try TemporaryFolder()
      guard let base = try invocation(of: command, in: folder) else {
        #expect(
          command == ["bench", "update"],
          "\(command.joined(separator: " ")) writes \(commandOptions.map(\.name)) and has no invocation here"
        )
        continue
      }
      for round in 0..<Kind.allCases.count {
        var arguments = base
        var planted: [(Option, Kind, String)] = []
        var readers: [(Process, String)] = []
        for (index, option) in commandOptions.enumerated() {
          var kind = Kind.allCases[(index + round) % Kind.allCases.count]
          // /dev/stdout for one option a run: two sharing it would interleave.
          if kind == .standardOutput && planted.contains(where: { $0.1 == .standardOutput }) {
            kind = .linkToFile
          }
          if kind == .characterDevice && !canMakeDevices { kind = .linkToFile }
          let path = folder.path("\(option.name)-\(round)")
          switch kind {
          case .linkToFile:
            try Data("old".utf8).write(to: URL(fileURLWithPath: path + ".target"))
            try FileManager.default.createSymbolicLink(
              atPath: path, withDestinationPath: path + ".target")
          case .fifo:
            #expect(mkfifo(path, 0o600) == 0)
            let reader = Process()
            reader.executableURL = URL(fileURLWithPath: "/bin/sh")
            reader.arguments = ["-c", "cat \"$0\" > \"$1\"", path, path + ".read"]
            try reader.run()
            readers.append((reader, path))
          case .characterDevice:
            // Major 1, minor 3: the null device, as /dev/null is.
            #expect(mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0, "mknod \(path)")
          case .standardOutput: break
          }
          arguments += ["--" + option.name, kind == .standardOutput ? "/dev/stdout" : path]
          planted.append((option, kind, path))
        }
        let run = try runProcess(calldir, arguments, directory: folder.url)
        // A reader whose writer never came is released: open for writing, then close.
        for (reader, fifo) in readers {
          let release = open(fifo, O_WRONLY | O_NONBLOCK)
          if release >= 0 { close(release) }
          reader.waitUntilExit()
        }
        let line = arguments.joined(separator: " ")
        #expect(run.status == 0, "\(line): \(run.stderr)")
        for (option, kind, path) in planted {
          var status = stat()
          let type = lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
          switch kind {
          case .linkToFile:
            #expect(type == S_IFLNK, "\(option) replaced the link itself")
            let target = try Data(contentsOf: URL(fileURLWithPath: path + ".target"))
            #expect(target != Data("old".utf8), "\(option) did not write the link's target")
          case .fifo:
            #expect(type == S_IFIFO, "\(option) replaced the FIFO")
            // No chart beside what is not a file (`/dev/null.svg` as root; issue 65, item 15).
            #expect(
              !FileManager.default.fileExists(atPath: path + ".svg"),
              "\(option) made a chart beside a FIFO")
            let read = try Data(contentsOf: URL(fileURLWithPath: path + ".read"))
            #expect(!read.isEmpty, "\(option) wrote nothing through the FIFO")
          case .characterDevice:
            #expect(type == S_IFCHR, "\(option) replaced the character device")
            #expect(
              !FileManager.default.fileExists(atPath: path + ".svg"),
              "\(option) made a chart beside a device")
          case .standardOutput:
            #expect(!run.stdout.isEmpty, "\(option) wrote nothing to /dev/stdout")
          }
        }
      }
    }
  }

  /// A path that resolves to a file the command has open is refused (issue 52, item 2:
  /// `history report --db h.db --out /dev/fd/3` wrote the report over the database).
  @Test func anOutputOnAFileTheCommandHasOpenIsRefused() throws {
    let folder = try TemporaryFolder()
    let database = try historyDatabase(folder.path("h.db"))
    let before = try Data(contentsOf: URL(fileURLWithPath: database))
    // Descriptor 7, the only one on the database when the command starts, was written over
    // (issue 65, item 8): the output is now compared with the database by name first.
    for (out, descriptor) in [
      ("/dev/fd/3", 3), ("/proc/self/fd/3", 3), (database, 3), ("/dev/fd/7", 7),
      ("/proc/self/fd/7", 7),
    ] {
      let run = try runProcess(
        "/bin/sh",
        [
          "-c", "exec \"$0\" history report --db \"$1\" --out \"$2\" \(descriptor)<>\"$1\"",
          calldir, database, out,
        ])
      #expect(run.status == 1, "--out \(out): \(run.stdout)")
      #expect(run.stderr.contains("not written over"), "\(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
    }
  }
}
