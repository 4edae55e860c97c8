import Foundation
import TestSupport
import Testing

/// A container driven through the command line as a user drives it: a dump of Moscow numbers
/// (each label ends with the dump's version), `compile`, `host enable`, `app sync`, in a
/// temporary folder of its own.
struct CommandLineContainer {
  let calldir = builtExecutablePath("calldir")
  let folder: TemporaryFolder
  let bundle: String
  /// Numbers in the dump, `+7495` then 1,000,000 plus index × `step`.
  let count: Int
  let step: Int
  /// Each label: `"\(labelPrefix) \(index) v\(version)"`.
  let labelPrefix: String
  let seedSize: Int

  var dump: String { folder.path("dump.tsv") }
  var box: String { folder.path("box") }
  var host: [String] { ["--host-dir", folder.path("host")] }

  init(bundle: String, count: Int, step: Int, labelPrefix: String, seedSize: Int) throws {
    folder = try TemporaryFolder()
    (self.bundle, self.count, self.step) = (bundle, count, step)
    (self.labelPrefix, self.seedSize) = (labelPrefix, seedSize)
  }

  /// Writes the dump of `version`.
  func writeDump(version: Int) throws {
    var text = "number\tlabel\tregion\n"
    for index in 0..<count {
      text += "+7495\(1_000_000 + index * step)\t\(labelPrefix) \(index) v\(version)\tMOW\n"
    }
    try text.write(toFile: dump, atomically: true, encoding: .utf8)
  }

  /// `calldir compile` of the dump into the box, with the RU country and the seed size.
  func compile() throws -> ProcessRun {
    try runProcess(
      calldir, ["compile", dump, "--out", box, "--country", "RU", "--seed-size", String(seedSize)])
  }

  /// `calldir host` or `calldir app` `command` for the bundle, on the box and the host folder.
  func run(_ tool: String, _ command: String) throws -> ProcessRun {
    try runProcess(calldir, [tool, command, bundle, "--container", box] + host)
  }

  /// Version 1 compiled, enabled and synced: what the system holds before a test's update.
  func compiledEnabledAndSynced() throws {
    try writeDump(version: 1)
    #expect(try compile().status == 0)
    #expect(try run("host", "enable").status == 0)
    let synced = try run("app", "sync")
    #expect(synced.status == 0, "\(synced.stderr)")
  }
}
