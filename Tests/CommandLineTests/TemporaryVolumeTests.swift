import DirectoryContainer
import Foundation
import TestSupport
import Testing

/// `compile --temp` on another volume than the container's (issue 52, item 10): the runs go
/// there, and every file renamed into the container is written on the container's own volume,
/// so the rename never fails with "Invalid cross-device link" after all the work.
@Suite("compile --temp on another volume")
struct TemporaryVolumeTests {
  let calldir = builtExecutablePath("calldir")

  /// The device a path lives on.
  static func device(_ path: String) -> UInt64? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.systemNumber] as? NSNumber)?
      .uint64Value
  }

  static var otherVolume: String? {
    let temporary = FileManager.default.temporaryDirectory.path
    guard let shm = device("/dev/shm"), let here = device(temporary), shm != here else {
      return nil
    }
    return "/dev/shm"
  }

  @Test(
    .enabled(if: otherVolume != nil, "needs /dev/shm on another volume than the temporary folder"))
  func aTemporaryFolderOnAnotherVolumeCompiles() throws {
    let folder = try TemporaryFolder()
    let runs = try #require(Self.otherVolume) + "/calldir-temp-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: runs, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: runs) }
    let dump = folder.path("d.tsv")
    let made = try runProcess(
      calldir,
      ["generate", "--profile", "ci-smoke", "--entries", "20000", "--format", "tsv", "--out", dump])
    #expect(made.status == 0, "\(made.stderr)")
    // A memory budget small enough that the sort spills runs into --temp.
    let run = try runProcess(
      calldir, ["compile", dump, "--out", folder.path("box"), "--temp", runs, "--memory", "24MiB"])
    #expect(run.status == 0, "\(run.stderr)")
    let manifest = try Manifest.read(container: folder.path("box"))
    #expect(!manifest.bases.isEmpty)
    for base in manifest.bases {
      #expect(SHA256.hexDigest(ofFile: folder.path("box") + "/" + base.file) == base.sha256)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: runs).isEmpty, "runs removed")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path("box"))
      .filter { $0.hasPrefix(".compile-") }
    #expect(leftovers.isEmpty)
  }
}
