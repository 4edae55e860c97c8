import DirectoryContainer
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `host reload` killed while its extension starts: the orphaned extension loads against a dead
/// channel. Its journal must stay pending (the system never confirmed the request), so the next
/// `app sync` reloads and installs the staged update instead of believing the journal.
@Suite("A killed reload is never believed")
struct KilledReloadTests {
  let calldir = builtExecutablePath("calldir")
  let realExtension = builtExecutablePath("calldir-extension")

  /// Everything written to a named pipe until its writer closes it (opening blocks until one
  /// does).
  func readFIFO(_ path: String) -> String {
    let descriptor = open(path, O_RDONLY)
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 256)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  func writeFIFO(_ path: String, _ text: String) {
    let descriptor = open(path, O_WRONLY)
    defer { close(descriptor) }
    _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  }

  @Test func theOrphanedExtensionsJournalStaysPendingAndTheNextSyncInstallsTheUpdate() throws {
    let container = try CommandLineContainer(
      bundle: "com.example.killed", count: 300, step: 7, labelPrefix: "Moscow", seedSize: 10)
    let (folder, box, host, bundle) =
      (container.folder, container.box, container.host, container.bundle)
    try container.compiledEnabledAndSynced()
    try container.writeDump(version: 2)
    #expect(try container.compile().status == 0)

    // The wrapper says it started, waits until told (the host is dead by then), runs the real
    // extension on the descriptors the host gave it, and says when it is done: named pipes, no
    // sleeping.
    let (started, go, done) = (folder.path("started"), folder.path("go"), folder.path("done"))
    for fifo in [started, go, done] { #expect(mkfifo(fifo, 0o600) == 0) }
    let wrapper = folder.path("wrapper.sh")
    try """
    #!/bin/sh
    echo started > '\(started)'
    read line < '\(go)'
    '\(realExtension)' "$@"
    echo $? > '\(done)'
    """.write(toFile: wrapper, atomically: true, encoding: .utf8)
    #expect(chmod(wrapper, 0o755) == 0)

    // Spawned and reaped here (posix_spawn, waitpid): Foundation's Process leaves a killed
    // child unreaped under the test runner.
    let arguments =
      [calldir, "host", "reload", bundle, "--container", box, "--extension", wrapper] + host
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    #expect(posix_spawn(&pid, calldir, &actions, nil, &argv, environ) == 0)
    _ = readFIFO(started)  // blocks until the wrapper runs
    kill(pid, SIGKILL)
    var hostStatus: Int32 = 0
    #expect(waitpid(pid, &hostStatus, 0) == pid)
    writeFIFO(go, "go\n")
    let status = readFIFO(done)
    #expect(status.trimmingCharacters(in: .whitespacesAndNewlines) != "0", "the request failed")

    let journal = try #require(try ExtensionJournal.read(container: box))
    #expect(!journal.committed, "the system never confirmed it")

    let after = try runProcess(calldir, ["app", "sync", bundle, "--container", box] + host)
    #expect(after.status == 0, "\(after.stderr)")
    #expect(!after.stdout.contains("nothing to do"), "\(after.stdout)")
    let lookup = try runProcess(calldir, ["host", "lookup", "+74951000007"] + host)
    #expect(lookup.stdout.contains("Moscow 1 v2"), "the update is installed: \(lookup.stdout)")
    let again = try runProcess(calldir, ["app", "sync", bundle, "--container", box] + host)
    #expect(again.stdout.contains("nothing to do"), "\(again.stdout)")
    #expect(try ExtensionJournal.read(container: box)?.committed == true)
  }
}
