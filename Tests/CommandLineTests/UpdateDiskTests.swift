import DirectoryContainer
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// An update on a small volume: a real tmpfs mounted for the test (root only; CI runs as root).
/// Too little room is refused before any byte is fetched, and parts left by a download that
/// filled the disk never block a later update (issue 39, items 4 and 14).
@Suite("app update on a full disk: room checked first, stale parts discarded")
struct UpdateDiskTests {
  let calldir = builtExecutablePath("calldir")

  /// Whether this process may mount a tmpfs (root, with mount in the path).
  static let canMount: Bool =
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount")

  /// A tmpfs of `kibibytes` at `path`, unmounted when the returned closure runs.
  func mountVolume(_ path: String, kibibytes: Int) throws -> () -> Void {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let mount = try runProcess(
      "/bin/mount", ["-t", "tmpfs", "-o", "size=\(kibibytes)k", "tmpfs", path])
    #expect(mount.status == 0, "\(mount.stderr)")
    return { _ = try? runProcess("/bin/umount", [path]) }
  }

  /// A release of 40,000 numbers with labels of their own (about 1 MiB of bases) in `R`.
  func release(_ folder: TemporaryFolder) throws -> Manifest {
    var text = "number\tlabel\tregion\n"
    for index in 0..<40_000 {
      text += "+7495\(1_000_000 + index * 7)\tФирма номер \(index)\t\(["MOW", "SPE"][index % 2])\n"
    }
    try text.write(toFile: folder.path("d.tsv"), atomically: true, encoding: .utf8)
    #expect(
      try runProcess(calldir, ["compile", folder.path("d.tsv"), "--out", folder.path("srv")]).status
        == 0)
    #expect(
      try runProcess(calldir, ["publish", folder.path("srv"), "--out", folder.path("R")]).status
        == 0)
    return try Manifest.read(container: folder.path("srv"))
  }

  func update(_ folder: TemporaryFolder, _ container: String) throws -> ProcessRun {
    try runProcess(
      calldir, ["app", "update", "--from", folder.path("R"), "--container", container])
  }

  @Test(.enabled(if: canMount, "needs root to mount a tmpfs"))
  func tooLittleRoomIsRefusedBeforeAnyByteAndLeavesNothing() throws {
    let folder = try TemporaryFolder()
    let manifest = try release(folder)
    let total = manifest.bases.reduce(0) { $0 + ($1.byteCount ?? 0) }
    #expect(total > 512 << 10, "the release must not fit: \(total) bytes")
    let unmount = try mountVolume(folder.path("disk"), kibibytes: 512)
    defer { unmount() }
    let run = try update(folder, folder.path("disk/new"))
    #expect(run.status == 1, "\(run.stdout)")
    #expect(
      run.stderr.contains("bytes free") && run.stderr.contains("nothing was fetched"),
      "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1)
    // No container folder holding only an empty .downloads (issue 39, item 14).
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("disk")).isEmpty)
  }

  @Test(.enabled(if: canMount, "needs root to mount a tmpfs"))
  func partsThatCannotBeRightAreDiscardedAndTheUpdateGoesOn() throws {
    let folder = try TemporaryFolder()
    let manifest = try release(folder)
    let total = manifest.bases.reduce(0) { $0 + ($1.byteCount ?? 0) }
    // Room for the release twice over (downloads, then the staged copies), and a little more.
    let volume = (total * 2 + (2 << 20)) / 1024
    let unmount = try mountVolume(folder.path("disk"), kibibytes: volume)
    defer { unmount() }
    let downloads = folder.path("disk/app/.downloads")
    try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
    let region = try #require(manifest.bases.first { $0.role == .region })
    // A part of a needed base, of the right size's half but wrong bytes, and a part from
    // another version that fills what is left of the disk: what a download that filled the disk
    // leaves behind.
    try Data(repeating: 0x5A, count: (region.byteCount ?? 0) / 2).write(
      to: URL(fileURLWithPath: downloads + "/" + region.sha256 + ".part"))
    let filler = FileHandle(
      forWritingAtPath: {
        let path = downloads + "/" + String(repeating: "e", count: 64) + ".part"
        FileManager.default.createFile(atPath: path, contents: nil)
        return path
      }())!
    let chunk = Data(repeating: 0x11, count: 64 << 10)
    while (try? filler.write(contentsOf: chunk)) != nil {}
    try? filler.close()
    let run = try update(folder, folder.path("disk/app"))
    #expect(run.status == 0, "\(run.stderr)")
    let installed = try Manifest.read(container: folder.path("disk/app"))
    #expect(Set(installed.bases.map(\.sha256)) == Set(manifest.bases.map(\.sha256)))
    #expect(!FileManager.default.fileExists(atPath: downloads))
  }

  /// The cheap cases on any disk: a part larger than its file, and one of a version the index
  /// no longer names, are removed before fetching.
  @Test func partsLargerThanDeclaredOrOfAnotherVersionAreDiscarded() throws {
    let folder = try TemporaryFolder()
    let manifest = try release(folder)
    let downloads = folder.path("app/.downloads")
    try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
    let region = try #require(manifest.bases.first { $0.role == .region })
    try Data(repeating: 0x5A, count: (region.byteCount ?? 0) + 10).write(
      to: URL(fileURLWithPath: downloads + "/" + region.sha256 + ".part"))
    try Data(repeating: 0x11, count: 1000).write(
      to: URL(fileURLWithPath: downloads + "/" + String(repeating: "e", count: 64) + ".part"))
    let run = try update(folder, folder.path("app"))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: downloads))
    let installed = try Manifest.read(container: folder.path("app"))
    #expect(Set(installed.bases.map(\.sha256)) == Set(manifest.bases.map(\.sha256)))
  }
}
