import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Result files (`--out`, `--json`, `--save-baseline`, `history report --out`, `chart --out`
/// all write through one function): a regular file is replaced atomically, anything else is
/// written through and never replaced, and a missing folder is an error (issue 39, item 9).
@Suite("Output paths that are not regular files are written through")
struct OutputPathTests {
  let calldir = builtExecutablePath("calldir")
  let csv = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Results/latest.csv").path

  func chart(to out: String, in folder: TemporaryFolder) throws -> ProcessRun {
    try runProcess(calldir, ["chart", csv, "--out", out], directory: folder.url)
  }

  /// The file type `lstat` sees at `path`.
  func fileType(_ path: String) -> mode_t {
    var status = stat()
    guard lstat(path, &status) == 0 else { return 0 }
    return status.st_mode & S_IFMT
  }

  @Test func aFIFOIsWrittenThroughAndStaysAFIFO() throws {
    let folder = try TemporaryFolder()
    let fifo = folder.path("chart.svg")
    #expect(mkfifo(fifo, 0o600) == 0)
    // A reader in another process: the writer's open waits for it, as a shell's `>` does.
    let reader = Process()
    reader.executableURL = URL(fileURLWithPath: "/bin/sh")
    reader.arguments = ["-c", "cat \"$0\" > \"$1\"", fifo, folder.path("read.svg")]
    try reader.run()
    let run = try chart(to: fifo, in: folder)
    reader.waitUntilExit()
    #expect(run.status == 0, "\(run.stderr)")
    #expect(fileType(fifo) == S_IFIFO)
    let read = try String(contentsOfFile: folder.path("read.svg"), encoding: .utf8)
    #expect(read.hasPrefix("<svg"))
  }

  @Test func aLinkToADeviceIsWrittenThroughAndItsErrorReported() throws {
    let folder = try TemporaryFolder()
    let null = folder.path("null.svg")
    let full = folder.path("full.svg")
    try FileManager.default.createSymbolicLink(atPath: null, withDestinationPath: "/dev/null")
    try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: "/dev/full")
    let written = try chart(to: null, in: folder)
    #expect(written.status == 0, "\(written.stderr)")
    #expect(fileType(null) == S_IFLNK)
    let refused = try chart(to: full, in: folder)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("No space left on device"), "\(refused.stderr)")
    #expect(refused.stderr.split(separator: "\n").count == 1)
    #expect(fileType(full) == S_IFLNK)
    #expect(fileType("/dev/full") == S_IFCHR)
  }

  @Test func devStdoutIsTheDescriptorTheProcessHolds() throws {
    let folder = try TemporaryFolder()
    let run = try chart(to: "/dev/stdout", in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("<svg"))
    #expect(fileType("/dev/stdout") == S_IFLNK)
  }

  @Test func aLinkToARegularFileIsReplacedAtItsTargetAndAMissingFolderRefused() throws {
    let folder = try TemporaryFolder()
    try "old".write(toFile: folder.path("real.svg"), atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: folder.path("link.svg"), withDestinationPath: "real.svg")
    #expect(try chart(to: folder.path("link.svg"), in: folder).status == 0)
    #expect(fileType(folder.path("link.svg")) == S_IFLNK)
    #expect(try String(contentsOfFile: folder.path("real.svg"), encoding: .utf8).hasPrefix("<svg"))
    let missing = try chart(to: folder.path("nowhere/dir/x.svg"), in: folder)
    #expect(missing.status == 1 && missing.stderr.contains("does not exist"), "\(missing.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("nowhere")))
    let intoFolder = try chart(to: folder.path(""), in: folder)
    #expect(intoFolder.status == 1 && intoFolder.stderr.contains("is a folder"))
  }
}
