import Foundation
import ProcessSpawning
import SystemCalls

/// Counts the instructions a measured executable runs, under valgrind's cachegrind with the cache
/// simulation off: a figure that does not move with the machine's load (repeatable to about
/// 1e-6 run to run here), where wall time moves ±20%. A load's count minus the same binary's
/// idle count, over the entries, is the bench's `instructions_per_entry`.
///
/// Valgrind 3.19 cannot read the DWARF 5 debug information Swift 6 emits ("unhandled dwarf2
/// abbrev form code 0x25"), so the counted binary is a stripped copy; stripping removes only
/// symbols and debug sections, so the instructions run are the same.
public struct InstructionCounter: Sendable {
  /// The valgrind executable.
  public let valgrind: String
  /// The tool that strips the copy (`llvm-strip`, `strip` or `objcopy --strip-all`).
  let strip: [String]
  /// Where stripped copies and cachegrind's output go.
  let scratch: String

  /// A counter, or nil with the reason when valgrind or a strip tool is missing.
  public static func find(scratch: String) -> Result<InstructionCounter, BenchError> {
    guard let valgrind = executableInPath("valgrind") else {
      return .failure(BenchError("valgrind is not installed (apt-get install valgrind)"))
    }
    let strip: [String]
    if let tool = executableInPath("llvm-strip") ?? executableInPath("strip") {
      strip = [tool, "--strip-all"]
    } else if let tool = executableInPath("objcopy") ?? executableInPath("llvm-objcopy") {
      strip = [tool, "--strip-all"]
    } else {
      return .failure(BenchError("no strip tool (llvm-strip, strip or objcopy) to prepare a copy"))
    }
    return .success(InstructionCounter(valgrind: valgrind, strip: strip, scratch: scratch))
  }

  /// A stripped copy of `binary` in the scratch folder (made once per binary and run).
  /// - Throws: ``BenchError`` when the copy or the strip fails.
  public func strippedCopy(of binary: String) throws(BenchError) -> String {
    // Named after the whole path: A/B runs count two binaries of the same name.
    let copy = scratch + "/" + binary.replacingOccurrences(of: "/", with: "_") + ".stripped"
    if FileManager.default.isExecutableFile(atPath: copy) { return copy }
    do {
      try FileManager.default.createDirectory(
        atPath: scratch, withIntermediateDirectories: true)
      try? FileManager.default.removeItem(atPath: copy)
      try FileManager.default.copyItem(atPath: binary, toPath: copy)
    } catch {
      throw BenchError("cannot copy \(binary) to \(copy): \(error.localizedDescription)")
    }
    let outcome: ChildProcess.Outcome
    do {
      outcome = try ChildProcess.run(
        executable: strip[0], arguments: Array(strip.dropFirst()) + [copy],
        limits: .init(memoryLimitBytes: nil, timeoutSeconds: 120),
        io: .init(descriptors: [:], wakeDescriptor: nil, onTick: nil, capturesReport: false))
    } catch {
      throw BenchError("cannot run \(strip[0]): \(error)")
    }
    guard outcome.exitCode == 0 else {
      throw BenchError("\(strip[0]) failed on \(copy): \(outcome.standardError)")
    }
    return copy
  }

  /// The instructions one run of `binary arguments` executes, and the child's outcome (its report
  /// comes through as in a timed run).
  /// - Throws: ``BenchError`` when valgrind cannot run or its count cannot be read.
  public func count(
    binary: String, arguments: [String], environment: [String]?, timeoutSeconds: Double
  ) throws(BenchError) -> (instructions: Int, outcome: ChildProcess.Outcome) {
    let stripped = try strippedCopy(of: binary)
    let output = scratch + "/cachegrind-\(getpid()).out"
    defer { FolderCalls.removeFile(output) }
    let outcome: ChildProcess.Outcome
    do {
      outcome = try ChildProcess.run(
        executable: valgrind,
        arguments: [
          "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=" + output, stripped,
        ] + arguments,
        // Valgrind's own memory is not the extension's: no limit, only a time limit.
        limits: .init(memoryLimitBytes: nil, timeoutSeconds: timeoutSeconds),
        environment: environment)
    } catch {
      throw BenchError("cannot run valgrind: \(error)")
    }
    guard let text = try? String(contentsOfFile: output, encoding: .utf8),
      let instructions = Self.summary(ofCachegrindOutput: text)
    else {
      let line = outcome.standardError.split(separator: "\n").last.map(String.init) ?? ""
      throw BenchError("valgrind wrote no instruction count for \(binary): \(line)")
    }
    return (instructions, outcome)
  }

  /// The `summary:` total of a cachegrind output file (instructions, with `--cache-sim=no`).
  static func summary(ofCachegrindOutput text: String) -> Int? {
    for line in text.split(separator: "\n") where line.hasPrefix("summary:") {
      return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
    return nil
  }

  /// The first executable named `name` in `PATH`.
  static func executableInPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}
