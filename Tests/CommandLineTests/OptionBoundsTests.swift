import Foundation
import TestSupport
import Testing

/// Every numeric option of every command, taken from the parser (`--experimental-dump-help`),
/// with 2^63−1, −1, 0, inf and nan: refused with one line naming the option, or accepted, and
/// never a trap (issue 52, item 12: `--seed-size` 2^62 trapped, `--repeat` 2^63−1 ran for ever,
/// `--max-time-to-enabled inf` spun). The arguments are only parsed and validated
/// (`CALLDIR_PARSE_ONLY=1`), so no bench runs.
@Suite("Every numeric option is bounded in the parser")
struct OptionBoundsTests {
  let calldir = builtExecutablePath("calldir")

  /// A command's options (long names) and whether each is a positional or a required option.
  struct Command {
    var path: [String]
    /// Each option's long name and help: one declared in a shared group has the same help
    /// wherever it appears, and is tried once (a debug build's parser takes a second a run).
    var options: [(name: String, help: String)]
    var required: [(name: String?, valueName: String)]
  }

  /// What a command needs besides its required arguments to pass validation.
  static let extraArguments: [[String]: [String]] = [
    ["bench", "sweep"]: ["--entries", "1000,2000"],
    ["export", "lcidl"]: ["--container", "box"],
  ]

  func commands() throws -> [Command] {
    let dump = try runProcess(calldir, ["--experimental-dump-help"])
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
    var found: [Command] = []
    func walk(_ command: [String: Any], _ path: [String]) {
      let subcommands = command["subcommands"] as? [[String: Any]] ?? []
      if subcommands.isEmpty, path != ["help"] {
        var options: [(String, String)] = []
        var required: [(String?, String)] = []
        for argument in command["arguments"] as? [[String: Any]] ?? [] {
          let kind = argument["kind"] as? String
          let names = argument["names"] as? [[String: Any]] ?? []
          let long = names.first { $0["kind"] as? String == "long" }?["name"] as? String
          let valueName = argument["valueName"] as? String ?? ""
          if kind == "option", let long {
            options.append((long, argument["abstract"] as? String ?? ""))
          }
          if kind == "positional" { required.append((nil, valueName)) }
          if kind == "option", argument["isOptional"] as? Bool == false, let long {
            required.append((long, valueName))
          }
        }
        found.append(Command(path: path, options: options, required: required))
      }
      for sub in subcommands { walk(sub, path + [sub["commandName"] as? String ?? "?"]) }
    }
    walk(try #require(root["command"] as? [String: Any]), [])
    return found
  }

  /// A value each required argument accepts, by its value name.
  func filler(_ valueName: String, in folder: TemporaryFolder) -> String {
    switch valueName {
    case "priority": "1"
    case "role": "region"
    case "commit": String(repeating: "a", count: 40)
    case "from": "http://127.0.0.1:9/"
    case "number": "+79161234567"
    case "bundle-id", "name": "com.example.x"
    case "regions": "R1"
    case "format": "arcep"
    default: folder.path(valueName)
    }
  }

  func parse(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessRun {
    try runProcess(
      calldir, arguments, directory: folder.url, environment: ["CALLDIR_PARSE_ONLY": "1"])
  }

  @Test func everyNumericOptionRefusesAbsurdValuesWithOneLine() throws {
    let folder = try TemporaryFolder()
    var numeric: [String] = []
    var tried = Set<String>()
    for command in try commands() {
      var base = command.path + (Self.extraArguments[command.path] ?? [])
      for (name, valueName) in command.required {
        if let name { base.append("--" + name) }
        base.append(filler(valueName, in: folder))
      }
      let valid = try parse(base, in: folder)
      #expect(valid.status == 0, "\(base): \(valid.stderr)")
      for (option, help) in command.options
      where !command.required.contains(where: { $0.name == option })
        && tried.insert(option + "\t" + help).inserted
      {
        // A numeric option is one whose parser refuses `nan`: a string takes it, a list of
        // values names them, and a number is refused (or the test fails below).
        let notANumber = try parse(base + ["--" + option, "nan"], in: folder)
        guard notANumber.status != 0, !notANumber.stderr.contains("Please provide one of"),
          notANumber.stderr.contains("--" + option)
        else { continue }
        numeric.append((command.path + [option]).joined(separator: " "))
        for value in ["9223372036854775807", "-1", "0", "inf"] {
          let run = try parse(base + ["--" + option, value], in: folder)
          let line = "\(command.path.joined(separator: " ")) --\(option) \(value)"
          #expect(run.status == 0 || run.status == 1, "\(line): status \(run.status)")
          if run.status == 1 {
            #expect(run.stderr.split(separator: "\n").count == 1, "\(line): \(run.stderr)")
            #expect(run.stderr.contains(option), "\(line): \(run.stderr)")
          }
          // Past any bound a run could finish in, or not a number: refused, except a seed,
          // which any 64-bit value is.
          if value != "0" && value != "-1" && !(option == "seed" && value.hasPrefix("9")) {
            #expect(run.status == 1, "\(line) was accepted")
          }
        }
      }
    }
    // The options this was written against are still found numeric by the parser.
    for known in ["bench strategies repeat", "compile seed-size", "bench two-phase regions"] {
      #expect(numeric.contains(known), "\(known) is no longer numeric: \(numeric)")
    }
  }
}
