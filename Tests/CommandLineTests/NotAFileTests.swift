import DirectoryContainer
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Container files are regular files: a base replaced by a FIFO or a link to /dev/zero is
/// refused at once with its name, never waited on or read forever.
@Suite("Files that are not files")
struct NotAFileTests {
  let calldir = builtExecutablePath("calldir")

  enum Replacement: String, CaseIterable {
    case fifo, devZero, folder
  }

  func replace(_ path: String, with replacement: Replacement) throws {
    try FileManager.default.removeItem(atPath: path)
    switch replacement {
    case .fifo: #expect(mkfifo(path, 0o600) == 0)
    case .devZero:
      try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
    case .folder:
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }
  }

  /// 200 Moscow numbers in a row, labelled `M N vV`, no seed set.
  func notAFileContainer() throws -> CommandLineContainer {
    try CommandLineContainer(
      bundle: "com.example.notafile", count: 200, step: 1, labelPrefix: "M", seedSize: 0)
  }

  /// The installed file (the old side of an update) is not a file: the sync cannot diff against
  /// it, says so, and replaces what the system holds with a complete reload.
  @Test(arguments: Replacement.allCases)
  func anInstalledBaseThatIsNotAFileMeansACompleteReload(replacement: Replacement) throws {
    let container = try notAFileContainer()
    let (box, host, bundle) = (container.box, container.host, container.bundle)
    try container.compiledEnabledAndSynced()
    let installed = try #require(
      try Manifest.read(container: box).bases.first { $0.role == .region }?.file)
    try container.writeDump(version: 2)
    #expect(try container.compile().status == 0)
    try replace(box + "/" + installed, with: replacement)

    let sync = try runProcess(calldir, ["app", "sync", bundle, "--container", box] + host)
    #expect(sync.status == 0, "\(sync.stderr)")
    #expect(sync.stdout.contains("200 entries installed"), "\(sync.stdout)")
    let lookup = try runProcess(calldir, ["host", "lookup", "+74951000007"] + host)
    #expect(lookup.stdout.contains("M 7 v2"), "\(lookup.stdout)")
  }

  /// The file to install is not a file: the request fails with one line naming it.
  @Test(arguments: Replacement.allCases)
  func aBaseToInstallThatIsNotAFileFailsWithItsName(replacement: Replacement) throws {
    let container = try notAFileContainer()
    let (box, host) = (container.box, container.host)
    try container.writeDump(version: 1)
    #expect(try container.compile().status == 0)
    let file = try #require(
      try Manifest.read(container: box).bases.first { $0.role == .region }?.file)
    try replace(box + "/" + file, with: replacement)
    let enable = try runProcess(
      calldir, ["host", "enable", "com.example.notafile", "--container", box] + host)
    #expect(enable.status == 0, "the seed set is empty: nothing to read yet")
    let sync = try runProcess(
      calldir, ["app", "sync", "com.example.notafile", "--container", box] + host)
    #expect(sync.status != 0)
    #expect(
      sync.stderr.contains(file.split(separator: "/").last.map(String.init) ?? file),
      "\(sync.stderr)")
    for command in [
      ["inspect", box + "/" + file],
      ["app", "status", "com.example.notafile", "--container", box] + host,
    ] {
      let run = try runProcess(calldir, command)
      #expect(run.status <= 3, "\(command): \(run.stderr)")
    }
  }
}
