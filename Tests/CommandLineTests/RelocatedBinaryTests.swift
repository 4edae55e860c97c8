import Foundation
import TestSupport
import Testing

/// calldir copied elsewhere, run from a folder without `Datasets/`: the profiles and device
/// files are built into the binary, so names still load; a path still loads one's own.
@Suite("A CLI that works wherever it is copied")
struct RelocatedBinaryTests {
  /// The checkout's `Datasets/`, which the copied binary must not need.
  static let checkoutDatasets = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Datasets")
    .path

  /// The checkout is put out of reach by mounting an empty folder over its `Datasets/` in a
  /// mount namespace of the command's own (`unshare -m`, root on this machine and CI's).
  static let canHideTheCheckout: Bool = {
    guard let run = try? runProcess("/usr/bin/unshare", hiding(["/bin/true"])) else { return false }
    return run.status == 0
  }()

  static func hiding(_ command: [String]) -> [String] {
    ["-m", "/bin/sh", "-c", #"mount -t tmpfs none "$0" && exec "$@""#, checkoutDatasets]
      + command
  }

  @Test(.enabled(if: canHideTheCheckout, "needs unshare -m (root)"))
  func aCopiedBinaryKnowsEveryProfileAndDevice() throws {
    let folder = try TemporaryFolder()
    let bin = folder.path("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    for name in ["calldir", "calldir-extension"] {
      try FileManager.default.copyItem(atPath: builtExecutablePath(name), toPath: bin + "/" + name)
    }
    let work = folder.url.appendingPathComponent("work")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let calldir = bin + "/calldir"
    func run(_ arguments: [String]) throws -> ProcessRun {
      try runProcess("/usr/bin/unshare", Self.hiding([calldir] + arguments), directory: work)
    }
    // The checkout's profiles really are out of reach of the commands below.
    let look = try run(["generate", "--profile", Self.checkoutDatasets + "/ci-smoke.json"])
    #expect(look.status == 1, "\(look.stdout)")
    for profile in ["ci-smoke", "regional-2m", "directory-4m", "seed-100k", "spam-1m"] {
      let generate = try run(
        [
          "generate", "--profile", profile, "--entries", "1000", "--format", "tsv", "--out",
          "\(profile).tsv",
        ])
      #expect(generate.status == 0, "\(profile): \(generate.stderr)")
    }
    let bench = try run([
      "bench", "--profile", "ci-smoke", "--entries", "20000", "--repeat", "1", "--strategies",
      "mmap", "--instructions", "off", "--out", "latest.csv",
    ])
    #expect(bench.status == 0, "\(bench.stderr)")
    let twoPhase = try run([
      "bench", "two-phase", "--profile", "ci-smoke", "--entries", "20000", "--repeat", "1",
      "--device", "iphone13", "--out", "two-phase.csv",
    ])
    #expect(twoPhase.status == 0, "\(twoPhase.stderr)")
    // One's own profile, by path.
    try
      #"{"name": "mine", "description": "x", "entries": 1000, "kind": "identification", "plans": ["RU"], "labels": "cyrillic", "duplicateShare": 0, "seed": 1}"#
      .write(to: work.appendingPathComponent("mine.json"), atomically: true, encoding: .utf8)
    #expect(
      try run(["generate", "--profile", "mine.json", "--format", "tsv", "--out", "m.tsv"]).status
        == 0)
    let unknown = try run(["generate", "--profile", "nope", "--format", "tsv", "--out", "n.tsv"])
    #expect(unknown.status == 1)
    #expect(unknown.stderr.contains("known profiles: blocking-1m, ci-smoke"), "\(unknown.stderr)")
  }
}
