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

/// Small files a command reads whole (pattern files, allow lists, gate settings) and files it
/// opens beside others (a history's database, a CSV's chart) are refused in one line when they
/// are a FIFO, a device or a folder: never waited on, read forever, reported as "You don't have
/// permission" or "NSCocoaErrorDomain error 256", or given a sibling in /dev (issue 65, item 15).
@Suite("Small input files that are not files")
struct SmallInputsNotAFileTests {
  let calldir = builtExecutablePath("calldir")

  @Test func patternFilesAllowListsHistoriesAndChartsNameWhatIsNotAFile() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("d.tsv")
    try Data("number\tlabel\n+79161234567\tA\n".utf8).write(to: URL(fileURLWithPath: dump))
    let fifo = folder.path("patterns.fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    let plan = folder.path("plan.tsv")
    try "pattern\tcategory\n+33162######\tspam\n".write(
      toFile: plan, atomically: true, encoding: .utf8)
    for option in ["--block-patterns", "--identify-patterns", "--allow"] {
      // An allow list needs patterns to allow numbers from.
      let patterns = option == "--allow" ? ["--block-patterns", plan] : []
      for path in [fifo, "/dev/zero", folder.url.path] {
        let run = try runProcess(
          calldir, ["compile", dump, "--out", folder.path("box"), option, path] + patterns)
        #expect(run.status == 1, "\(option) \(path): \(run.stderr)")
        #expect(
          run.stderr.contains("is not a regular file (a folder, a device or a FIFO)"),
          "\(option) \(path): \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("box")))
      }
    }
    for device in ["/dev/full", "/dev/null"] {
      let history = try runProcess(
        calldir, ["history", "report", "--db", device, "--out", folder.path("r.html")])
      #expect(history.status != 0)
      #expect(history.stderr.contains("--db \(device): not a regular file"), "\(history.stderr)")
    }
    let chart = try runProcess(
      "/bin/sh", ["-c", "cat \"$1\" | \"$0\" chart /dev/stdin", calldir, dump])
    #expect(chart.status != 0)
    #expect(chart.stderr.contains("not a regular file, so no chart goes beside it; give --out"))
    let zero = try runProcess(calldir, ["chart", "/dev/zero", "--out", folder.path("z.svg")])
    #expect(zero.status != 0)
    #expect(zero.stderr.contains("/dev/zero: not a regular file"), "\(zero.stderr)")
  }
}
