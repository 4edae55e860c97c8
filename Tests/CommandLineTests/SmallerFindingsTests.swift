import DirectoryContainer
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 52, item 13: the smaller findings, each pinned.
@Suite("Smaller findings: checked bases, empty categories")
struct SmallerFindingsTests {
  let calldir = builtExecutablePath("calldir")

  func compiled(_ folder: TemporaryFolder) throws -> String {
    let dump = folder.path("d.tsv")
    let made = try runProcess(
      calldir,
      ["generate", "--profile", "ci-smoke", "--entries", "2000", "--format", "tsv", "--out", dump])
    #expect(made.status == 0, "\(made.stderr)")
    let compile = try runProcess(calldir, ["compile", dump, "--out", folder.path("box")])
    #expect(compile.status == 0, "\(compile.stderr)")
    return folder.path("box")
  }

  /// `export lcidl` checks every base against the manifest's SHA-256, as publish does.
  @Test func anExportOfABaseChangedInPlaceIsRefused() throws {
    let folder = try TemporaryFolder()
    let box = try compiled(folder)
    let manifest = try Manifest.read(container: box)
    let base = try #require(manifest.bases.first { $0.role == .region })
    let handle = try #require(FileHandle(forUpdatingAtPath: box + "/" + base.file))
    try handle.seek(toOffset: 100)
    try handle.write(contentsOf: Data([0x55]))
    try handle.close()
    let run = try runProcess(
      calldir,
      [
        "export", "lcidl", "--container", box, "--out", folder.path("out"), "--bundle-id",
        "com.example.x",
      ])
    #expect(run.status == 1, "\(run.stdout)")
    #expect(run.stderr.contains("not the manifest's"), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1)
    #expect(!FileManager.default.fileExists(atPath: folder.path("out/block.binpb")))
  }

  /// `chart` reads a CSV saved with a byte order mark, as `history add` does.
  @Test func chartReadsACSVWithAByteOrderMark() throws {
    let folder = try TemporaryFolder()
    let results = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "Results/latest.csv")
    let marked = folder.path("marked.csv")
    try (Data([0xEF, 0xBB, 0xBF]) + Data(contentsOf: results)).write(
      to: URL(fileURLWithPath: marked))
    let run = try runProcess(calldir, ["chart", marked, "--out", folder.path("chart.svg")])
    #expect(run.status == 0, "\(run.stderr)")
    let plain = try runProcess(
      calldir, ["chart", results.path, "--out", folder.path("plain.svg")])
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: folder.path("chart.svg")))
        == Data(contentsOf: URL(fileURLWithPath: folder.path("plain.svg"))), "\(plain.stderr)")
  }

  /// A progress line on a 10-column terminal is cut to 9 columns, never wrapped into rows that
  /// the next redraw leaves behind. `script` gives the compile a terminal of its own.
  @Test(.enabled(if: isInPath("script"), "needs script(1) for a pseudo-terminal"))
  func aProgressLineFitsANarrowTerminal() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("d.tsv")
    let made = try runProcess(
      calldir,
      ["generate", "--profile", "ci-smoke", "--entries", "5000", "--format", "tsv", "--out", dump])
    #expect(made.status == 0, "\(made.stderr)")
    let typescript = folder.path("typescript")
    let run = try runProcess(
      "/bin/sh",
      [
        "-c",
        "script -qfc \"stty cols 10; '$0' compile '$1' --out '$2' --progress auto >/dev/null\" \"$3\"",
        calldir, dump, folder.path("box"), typescript,
      ])
    #expect(run.status == 0, "\(run.stderr)")
    let text = String(
      decoding: try Data(contentsOf: URL(fileURLWithPath: typescript)), as: UTF8.self)
    let drawn = text.components(separatedBy: "\r\u{1B}[K").dropFirst().map {
      $0.prefix { $0 != "\r" && $0 != "\n" }
    }.filter { !$0.isEmpty }
    #expect(!drawn.isEmpty, "no progress line drawn: \(text.debugDescription)")
    for line in drawn { #expect(line.count <= 9, "\(line.debugDescription)") }
  }

  /// A command waiting for another writer's lock says so, naming the process, instead of
  /// waiting without a word. The holder is a Python process that keeps an `flock` on `.lock`
  /// until its stdin closes; the waiting line itself is what the test waits for.
  @Test(.enabled(if: isInPath("python3"), "needs python3 to hold the lock"))
  func aCommandWaitingForTheLockSaysWhoHoldsIt() throws {
    let folder = try TemporaryFolder()
    let box = try compiled(folder)
    // Hundreds of other locks, taken before and after the holder's: `/proc/locks` then runs
    // far past the 4,095 bytes `String(contentsOfFile:)` read of it, and a parallel swift test
    // had the holder's line past them ("waiting for another process").
    let fillers = try (0..<2).map { index in
      try FileManager.default.createDirectory(
        atPath: folder.path("fill\(index)"), withIntermediateDirectories: true)
      let filler = Process()
      filler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      filler.arguments = [
        "python3", "-c",
        "import fcntl, os, sys\nfs = []\nfor i in range(200):\n  f = open(os.path.join(sys.argv[1], str(i)), 'a'); fcntl.flock(f, fcntl.LOCK_EX); fs.append(f)\nprint('locked', flush=True)\nsys.stdin.read()",
        folder.path("fill\(index)"),
      ]
      let input = Pipe()
      let output = Pipe()
      filler.standardInput = input
      filler.standardOutput = output
      return (filler, input, output)
    }
    try fillers[0].0.run()
    #expect(firstLine(of: fillers[0].2).hasPrefix("locked"))
    defer {
      for (filler, input, _) in fillers {
        try? input.fileHandleForWriting.close()
        if filler.isRunning { filler.waitUntilExit() }
      }
    }
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    holder.arguments = [
      "python3", "-c",
      "import fcntl, sys\nf = open(sys.argv[1], 'a')\nfcntl.flock(f, fcntl.LOCK_EX)\nprint('locked', flush=True)\nsys.stdin.read()",
      box + "/.lock",
    ]
    let holderInput = Pipe()
    let holderOutput = Pipe()
    holder.standardInput = holderInput
    holder.standardOutput = holderOutput
    try holder.run()
    #expect(firstLine(of: holderOutput).hasPrefix("locked"))
    try fillers[1].0.run()
    #expect(firstLine(of: fillers[1].2).hasPrefix("locked"))
    let choose = Process()
    choose.executableURL = URL(fileURLWithPath: calldir)
    choose.arguments = ["app", "choose", "--all", "--container", box]
    let errors = Pipe()
    choose.standardError = errors
    choose.standardOutput = FileHandle.nullDevice
    try choose.run()
    let notice = firstLine(of: errors)
    #expect(notice.contains("waiting for process \(holder.processIdentifier)"), "\(notice)")
    try holderInput.fileHandleForWriting.close()
    holder.waitUntilExit()
    choose.waitUntilExit()
    #expect(choose.terminationStatus == 0)
  }

  /// `--blocking-category ''` would match no row, turning spam rows into labels: refused.
  @Test(arguments: ["", "spam,", " ,scam"])
  func anEmptyBlockingCategoryIsRefused(categories: String) throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("d.tsv")
    try "number\tlabel\tcategory\n+74951234501\tCaller\tspam\n".write(
      toFile: dump, atomically: true, encoding: .utf8)
    let run = try runProcess(
      calldir,
      [
        "compile", dump, "--out", folder.path("box"), "--country", "RU", "--blocking-category",
        categories,
      ])
    #expect(run.status == 1, "\(run.stdout)")
    #expect(run.stderr.contains("--blocking-category"), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1)
    #expect(!FileManager.default.fileExists(atPath: folder.path("box")))
  }

  /// A compile streaming from a FIFO holds the container's lock only to adopt its bases: while
  /// it waits for rows, `app choose` on the same container runs at once and says nothing of
  /// waiting; the compile then commits over it (issue 52, item 13).
  @Test func aStreamingCompileLeavesTheLockFreeUntilItAdopts() throws {
    let folder = try TemporaryFolder()
    let box = try compiled(folder)
    let fifo = folder.path("rows.tsv")
    #expect(mkfifo(fifo, 0o600) == 0)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: calldir)
    process.arguments = ["compile", fifo, "--out", box, "--allow-shrink"]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    // Returns once the compile opened the FIFO: it is reading, the lock not taken.
    let writer = try #require(FileHandle(forWritingAtPath: fifo))
    try writer.write(contentsOf: Data("number\tlabel\n+79161234567\tA\n".utf8))
    let choose = try runProcess(calldir, ["app", "choose", "--all", "--container", box])
    #expect(choose.status == 0, "\(choose.stderr)")
    #expect(!choose.stderr.contains("waiting for"), "\(choose.stderr)")
    try writer.write(contentsOf: Data("+79161234568\tB\n".utf8))
    try writer.close()
    process.waitUntilExit()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 0, "\(message)")
    let manifest = try Manifest.read(container: box)
    #expect(manifest.bases.filter { $0.state != .retired }.map(\.entries).reduce(0, +) >= 2)
  }
}
