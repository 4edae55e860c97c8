import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT and SIGTERM end a long command cleanly, removing the scratch it made; what a SIGKILL
/// leaves, the next run removes (issue 52, item 9: a killed `compile --temp T` left 268 MB of
/// runs in T, and `export lcidl` left its `.tmp-PID` files for ever).
@Suite("Interrupted commands remove their scratch")
struct InterruptionTests {
  let calldir = builtExecutablePath("calldir")

  /// Scratch names (a process ID after `.compile-`, `.tmp-`) in `folder`.
  func scratch(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).filter {
      $0.hasPrefix(".compile-") || $0.contains(".tmp-")
    }
  }

  /// A compile reading a FIFO, signalled while it waits for more rows: its scratch is already
  /// made (the FIFO opens after it), so no sleep is needed to know it is working.
  @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
  func aSignalledCompileRemovesItsScratchAndSaysSo(signal: Int32, status: Int32) throws {
    let folder = try TemporaryFolder()
    let fifo = folder.path("rows.tsv")
    #expect(mkfifo(fifo, 0o600) == 0)
    let temp = folder.path("temp")
    try FileManager.default.createDirectory(atPath: temp, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: calldir)
    process.arguments = ["compile", fifo, "--out", folder.path("box"), "--temp", temp]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    // Returns once the compile opened the FIFO, after it made its scratch folders.
    let writer = try #require(FileHandle(forWritingAtPath: fifo))
    try writer.write(contentsOf: Data("number\tlabel\n+79161234567\tA\n".utf8))
    #expect(try !(scratch(in: temp) + scratch(in: folder.path("box"))).isEmpty)
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    try? writer.close()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == status, "\(message)")
    #expect(message.contains("interrupted"), "\(message)")
    #expect(message.split(separator: "\n").count == 1, "\(message)")
    #expect(try scratch(in: temp).isEmpty)
    #expect(try scratch(in: folder.path("box")).isEmpty)
  }

  /// What a SIGKILL left (scratch named by a process that is gone) is removed by the next run.
  @Test func theNextExportRemovesWhatAKilledOneLeft() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("d.tsv")
    let made = try runProcess(
      calldir,
      ["generate", "--profile", "ci-smoke", "--entries", "500", "--format", "tsv", "--out", dump])
    #expect(made.status == 0, "\(made.stderr)")
    let out = folder.path("lcidl")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    // A process ID no process has: above the kernel's largest.
    let gone = "4194305"
    for name in ["block.binpb.tmp-\(gone)", "identity.binpb.tmp-\(gone)"] {
      try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: out + "/" + name))
    }
    let run = try runProcess(
      calldir, ["export", "lcidl", "--dump", dump, "--out", out, "--bundle-id", "com.example.x"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try scratch(in: out).isEmpty)
  }
}
