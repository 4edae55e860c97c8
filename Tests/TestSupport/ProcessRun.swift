import Foundation
import Synchronization

/// What a finished process printed, and how it ended.
public struct ProcessRun: Sendable {
  /// The exit status (or the signal's number when one ended it).
  public let status: Int32
  /// Everything it wrote on stdout.
  public let stdout: String
  /// Everything it wrote on stderr.
  public let stderr: String
  /// Whether it was killed for running past the timeout.
  public var timedOut = false
}

/// How long a child of a test may run before it is killed: a hung child fails its test with a
/// line saying so, instead of holding the whole run until CI's limit.
public let defaultProcessTimeout: Double = 900

/// Runs a process to completion, returning its status, stdout and stderr.
///
/// Both pipes are drained at the same time (stderr on a second thread): reading one to its end
/// before the other deadlocks as soon as the child fills the other pipe's 64 KiB. `stdin`, when
/// given, is the child's standard input (a file, so no third pipe needs draining). A child
/// still running after `timeout` seconds is killed (SIGKILL); its run says `timedOut`, and its
/// stderr ends with a line naming the timeout.
public func runProcess(
  _ executable: String, _ arguments: [String], directory: URL? = nil,
  environment: [String: String]? = nil, stdin: String? = nil,
  timeout: Double = defaultProcessTimeout
) throws -> ProcessRun {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  if let directory { process.currentDirectoryURL = directory }
  if let environment { process.environment = environment }
  let output = Pipe()
  let error = Pipe()
  process.standardOutput = output
  process.standardError = error
  if let stdin {
    let input = FileManager.default.temporaryDirectory
      .appendingPathComponent("calldir-stdin-\(UUID().uuidString)")
    try Data(stdin.utf8).write(to: input)
    defer { try? FileManager.default.removeItem(at: input) }
    process.standardInput = try FileHandle(forReadingFrom: input)
  }
  try process.run()
  let killed = Atomic<Bool>(false)
  let exited = Atomic<Bool>(false)
  let processID = process.processIdentifier
  let deadline = DispatchWorkItem {
    // A child reaped already is not killed: its process ID may be another's by now.
    guard !exited.load(ordering: .sequentiallyConsistent) else { return }
    killed.store(true, ordering: .sequentiallyConsistent)
    kill(processID, SIGKILL)
  }
  DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
  let errorDrained = DispatchSemaphore(value: 0)
  nonisolated(unsafe) var errorData = Data()
  let errorReader = error.fileHandleForReading
  DispatchQueue.global().async {
    errorData = errorReader.readDataToEndOfFile()
    errorDrained.signal()
  }
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  errorDrained.wait()
  process.waitUntilExit()
  exited.store(true, ordering: .sequentiallyConsistent)
  deadline.cancel()
  let timedOut = killed.load(ordering: .sequentiallyConsistent)
  var run = ProcessRun(
    status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
    stderr: String(decoding: errorData, as: UTF8.self)
      + (timedOut ? "\nrunProcess: killed after \(timeout) s\n" : ""))
  run.timedOut = timedOut
  return run
}

/// The first line a child writes on `pipe` (a server's "listening on port N"), read as it
/// arrives: waiting for the line is the synchronisation, no sleeping. Empty when the child
/// closes the pipe first.
public func firstLine(of pipe: Pipe) -> String {
  var line = Data()
  while !line.contains(UInt8(ascii: "\n")) {
    let piece = pipe.fileHandleForReading.availableData
    if piece.isEmpty { break }
    line.append(piece)
  }
  return String(decoding: line, as: UTF8.self)
}

/// Whether `/usr/bin/env NAME` would find `name`: an executable of that name in a folder of
/// `PATH`. A test that runs a tool Swift does not bring (python3, zstd) is enabled by this, so
/// `swift test` on a machine with nothing but Swift skips it.
public func isInPath(_ name: String) -> Bool {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  return path.split(separator: ":").contains {
    FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
  }
}
