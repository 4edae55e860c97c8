import Foundation
import TestSupport
import Testing

/// A command ended by SIGTERM or SIGINT ends the extension it runs and leaves nothing in the
/// temporary folder (issue 65, item 14): SIGTERM to `host enable` left the extension running,
/// reparented to PID 1, and every interrupted sync left `calldir-child-PID-*.err` behind.
@Suite("An interrupted command ends its extension and leaves no scratch")
struct InterruptedChildTests {
  let calldir = builtExecutablePath("calldir")

  @Test(arguments: [SIGTERM, SIGINT])
  func theExtensionEndsWithTheCommand(signal: Int32) throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("d.tsv")
    try "number\tlabel\n+79161234567\tA\n".write(toFile: dump, atomically: true, encoding: .utf8)
    #expect(try runProcess(calldir, ["compile", dump, "--out", folder.path("box")]).status == 0)
    // The extension says it started through one FIFO, then holds the other open until it dies:
    // the test reads the first, and the second's end of file, without waiting on a clock.
    let (started, alive) = (folder.path("started"), folder.path("alive"))
    #expect(mkfifo(started, 0o600) == 0 && mkfifo(alive, 0o600) == 0)
    let script = folder.path("extension.sh")
    try "#!/bin/sh\nexec 3>\"\(alive)\"\necho $$ >\"\(started)\"\nexec sleep 600\n"
      .write(toFile: script, atomically: true, encoding: .utf8)
    #expect(chmod(script, 0o755) == 0)
    let temporary = folder.path("tmp")
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    let command = Process()
    command.executableURL = URL(fileURLWithPath: calldir)
    command.arguments = [
      "host", "enable", "x.z", "--container", folder.path("box"), "--host-dir", folder.path("h"),
      "--extension", script, "--timeout", "600",
    ]
    command.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary]) {
      $1
    }
    command.standardOutput = FileHandle.nullDevice
    command.standardError = FileHandle.nullDevice
    try command.run()
    // Opened for reading before the script opens it for writing would block: the script opens
    // `alive` first, and that open waits for this reader.
    let aliveReader = try #require(FileHandle(forReadingAtPath: alive))
    let pidText = try #require(FileHandle(forReadingAtPath: started)).readDataToEndOfFile()
    let extensionID = try #require(
      Int32(
        String(decoding: pidText, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(extensionID > 0)
    kill(command.processIdentifier, signal)
    command.waitUntilExit()
    #expect(command.terminationStatus == (signal == SIGTERM ? 143 : 130))
    // End of file: every writer is gone, the extension with it. Bounded, so an extension left
    // running (the finding) fails the test instead of holding it for the script's 600 s.
    var waiting = pollfd(fd: aliveReader.fileDescriptor, events: Int16(POLLIN), revents: 0)
    let ended = poll(&waiting, 1, 60_000) == 1
    #expect(ended, "the extension outlived the command")
    if ended {
      #expect(aliveReader.availableData.isEmpty)
    } else {
      kill(extensionID, SIGKILL)  // The finding: nothing is left running after the test.
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: temporary)
    #expect(!left.contains { $0.hasPrefix("calldir-child-") }, "\(left)")
  }
}
