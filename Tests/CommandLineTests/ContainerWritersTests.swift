import BaseFormat
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@Suite("Writers of one container, on the command line")
struct ContainerWritersTests {
  let calldir = builtExecutablePath("calldir")

  func blockingBase(_ path: String, _ numbers: [Int64]) throws {
    let writer = try BaseWriter(path: path, kind: .blocking)
    for number in numbers { try writer.append(number, label: "") }
    try writer.finish()
  }

  @Test func stagesRunningAtOnceKeepEveryBase() throws {
    let folder = try TemporaryFolder()
    let box = folder.path("box")
    let count = 6
    // Started together by one shell (many Foundation Process objects at once are not reliable
    // on Linux); `wait` collects them, and the shell fails if any of them did.
    var script = "status=0\n"
    for index in 0..<count {
      let file = folder.path("list-\(index).cdb")
      try blockingBase(file, [74_950_000_000 + Int64(index)])
      script +=
        "'\(calldir)' app stage '\(file)' --name list-\(index) --role blocking --priority 90 --container '\(box)' &\n"
    }
    script += "for job in $(jobs -p); do wait $job || status=1; done\nexit $status\n"
    let run = try runProcess("/bin/sh", ["-c", script])
    #expect(run.status == 0, "\(run.stderr)")
    let manifest = try Manifest.read(container: box)
    #expect(Set(manifest.bases.map(\.name)) == Set((0..<count).map { "list-\($0)" }))
    for base in manifest.bases {
      #expect(SHA256.hexDigest(ofFile: box + "/" + base.file) == base.sha256)
    }
  }

  @Test func aContainerWithoutManifestIsAnErrorNotAnEmptySet() throws {
    let folder = try TemporaryFolder()
    let box = folder.path("box")
    try FileManager.default.createDirectory(atPath: box, withIntermediateDirectories: true)
    let host = ["--host-dir", folder.path("host")]
    let choose = try runProcess(calldir, ["app", "choose", "R1", "--container", box])
    #expect(choose.status != 0)
    #expect(choose.stderr.split(separator: "\n").count == 1, "\(choose.stderr)")
    // Turning the extension on before the first update completes an empty request, so the
    // switch stays on (issue 52, item 3); it never makes a manifest.
    let enable = try runProcess(
      calldir, ["host", "enable", "com.example.box", "--container", box] + host)
    #expect(enable.status == 0, "\(enable.stderr)")
    #expect(enable.stdout.contains("0 entries installed"), "\(enable.stdout)")
    let sync = try runProcess(
      calldir, ["app", "sync", "com.example.box", "--container", box] + host)
    #expect(sync.status != 0 || sync.stdout.contains("nothing to do"), "\(sync.stdout)")
    #expect(!FileManager.default.fileExists(atPath: box + "/" + Manifest.fileName))
  }

  @Test func anUnknownBundleIdIsAnErrorAndLeavesNoPhantom() throws {
    let folder = try TemporaryFolder()
    let host = ["--host-dir", folder.path("host")]
    let sync = try runProcess(
      calldir, ["app", "sync", "com.typo", "--container", folder.path("box")] + host)
    #expect(sync.status == 1, "\(sync.stdout)")
    #expect(sync.stderr.contains("knows no extension com.typo"), "\(sync.stderr)")
    let disable = try runProcess(calldir, ["host", "disable", "com.never"] + host)
    #expect(disable.status == 1)
    #expect(disable.stderr.split(separator: "\n").count == 1, "\(disable.stderr)")
    let status = try runProcess(calldir, ["host", "status"] + host)
    #expect(!status.stdout.contains("com.never"), "\(status.stdout)")
  }

  @Test func anEnableOrSyncWhileALoadRunsExits3WithCode7() throws {
    let folder = try TemporaryFolder()
    let box = folder.path("box")
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Datasets/samples/sample.tsv").path
    #expect(try runProcess(calldir, ["compile", samples, "--out", box]).status == 0)
    let host = ["--host-dir", folder.path("host")]
    let enable = ["host", "enable", "com.example.box", "--container", box] + host
    #expect(try runProcess(calldir, enable).status == 0)
    // Another load holds the extension's lock, as the host's own request does.
    let lock = open(folder.path("host/locks/com.example.box.lock"), O_RDWR | O_CREAT, 0o644)
    #expect(lock >= 0)
    #expect(flock(lock, LOCK_EX) == 0)
    defer { close(lock) }
    for arguments in [enable, ["app", "sync", "com.example.box", "--container", box] + host] {
      let run = try runProcess(calldir, arguments)
      #expect(run.status == 3, "\(arguments): \(run.stderr)")
      #expect(run.stderr.contains("(code 7)"), "\(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }
    let status = try runProcess(calldir, ["host", "status"] + host)
    #expect(status.stdout.contains("com.example.box: enabled"), "\(status.stdout)")
  }

  @Test func anEmptyOutputPathIsAUsageError() throws {
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Datasets/samples/sample.tsv").path
    let run = try runProcess(calldir, ["compile", samples, "--out", ""])
    #expect(run.status == 1)
    #expect(run.stderr.contains("empty"), "\(run.stderr)")
  }
}

@Suite("Numeric flags out of range are one-line usage errors")
struct FlagRangeTests {
  @Test(arguments: [
    [
      "generate", "--profile", "ci-smoke", "--format", "container", "--regions", "9999999999",
      "--out", "x",
    ],
    ["bench", "two-phase", "--profile", "ci-smoke", "--max-time-to-enabled", "nan"],
    ["bench", "--profile", "ci-smoke", "--entries", "0"],
    ["bench", "--profile", "ci-smoke", "--timeout", "nan"],
    ["host", "lookup", "+74951234567", "--timeout", "nan"],
    // An empty path or bundle identifier is refused, not read as / or this folder.
    ["generate", "--profile", "ci-smoke", "--format", "tsv", "--out", ""],
    ["host", "enable", "com.example.x", "--container", ""],
    ["host", "enable", "", "--container", "box"],
    ["host", "enable", "com.example.x", "--container", "box", "--host-dir", ""],
    ["host", "reload", "com.example.x", "--container", "box", "--extension", ""],
    ["app", "status", "--container", ""],
    ["app", "sync", "com.example.x", "--container", ""],
    ["app", "stage", "", "--name", "x", "--role", "seed", "--container", "box"],
    ["app", "choose", "", "--container", "box"],
    ["app", "choose", ",,,", "--container", "box"],
    ["inspect", ""],
    ["compile", "dump.tsv", "--out", "box", "--threads", "0"],
    ["compile", "dump.tsv", "--out", "box", "--threads", "257"],
    ["chart", ""],
    ["bench", "--profile", "ci-smoke", "--out", ""],
  ])
  func isRefusedWithOneLine(arguments: [String]) throws {
    let folder = try TemporaryFolder()
    let run = try runProcess(
      builtExecutablePath("calldir"), arguments, directory: folder.url)
    #expect(run.status == 1, "\(arguments): \(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
  }
}

@Suite("Files read whole are regular files under a size cap")
struct SmallFileTests {
  @Test(arguments: [
    (["bench", "--profile", "LINK.json"], "is not a regular file"),
    (["bench", "--profile", "BIG.json"], "is larger than"),
    (
      ["compile", "SAMPLE", "--regions-file", "LINK.json", "--out", "box"], "is not a regular file"
    ),
    (["app", "status", "--container", "BOX"], "is not a regular file"),
  ])
  func aLinkToDevZeroOrAHugeFileIsOneLine(arguments: [String], message: String) throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createSymbolicLink(
      atPath: folder.path("LINK.json"), withDestinationPath: "/dev/zero")
    _ = FileManager.default.createFile(atPath: folder.path("BIG.json"), contents: nil)
    let big = try FileHandle(forWritingTo: folder.url.appendingPathComponent("BIG.json"))
    try big.truncate(atOffset: 2 << 20)
    try big.close()
    try FileManager.default.createDirectory(
      atPath: folder.path("BOX"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: folder.path("BOX/manifest.cdm"), withDestinationPath: "/dev/zero")
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Datasets/samples/sample.tsv").path
    // Other paths are relative: the command runs in the folder.
    let resolved = arguments.map { $0 == "SAMPLE" ? samples : $0 }
    let run = try runProcess(builtExecutablePath("calldir"), resolved, directory: folder.url)
    #expect(run.status == 1, "\(arguments): \(run.stderr)")
    #expect(run.stderr.contains(message), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
  }
}
