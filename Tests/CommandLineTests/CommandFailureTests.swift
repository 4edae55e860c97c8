import Foundation
import TestSupport
import Testing

/// The library errors the command line gives a status of its own and a line that names the
/// flag or the command that helps (`CommandFailure`): each reached through calldir as a user
/// reaches it, one line on stderr, the container left as it was.
@Suite("Exit statuses and hints of the libraries' errors, on the command line")
struct CommandFailureTests {
  let calldir = builtExecutablePath("calldir")

  @Test func anOlderReleaseExits6AndNamesAllowDowngrade() throws {
    let folder = try TemporaryFolder()
    func publish(entries: Int) throws {
      var text = "number\tlabel\tregion\n"
      for index in 0..<entries { text += "+7495\(1_000_000 + index)\tM \(index)\tMOW\n" }
      try text.write(toFile: folder.path("dump.tsv"), atomically: true, encoding: .utf8)
      let compile = try runProcess(
        calldir,
        ["compile", folder.path("dump.tsv"), "--out", folder.path("srv"), "--seed-size", "0"])
      #expect(compile.status == 0, "\(compile.stderr)")
      let published = try runProcess(
        calldir, ["publish", folder.path("srv"), "--out", folder.path("R")])
      #expect(published.status == 0, "\(published.stderr)")
    }
    func update(_ from: String, _ extra: [String] = []) throws -> ProcessRun {
      try runProcess(
        calldir,
        ["app", "update", "--from", from, "--container", folder.path("app"), "--timeout", "5"]
          + extra)
    }
    try publish(entries: 30)
    try FileManager.default.copyItem(atPath: folder.path("R"), toPath: folder.path("R-old"))
    try publish(entries: 40)
    let current = try update(folder.path("R"))
    #expect(current.status == 0, "\(current.stderr)")
    let manifest = try Data(contentsOf: URL(fileURLWithPath: folder.path("app/manifest.cdm")))

    let older = try update(folder.path("R-old"))
    #expect(older.status == 6, "\(older.stderr)")
    #expect(older.stderr.hasPrefix("calldir: ") && older.stderr.contains("--allow-downgrade"))
    #expect(older.stderr.split(separator: "\n").count == 1, "\(older.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("app/manifest.cdm"))) == manifest)

    let allowed = try update(folder.path("R-old"), ["--allow-downgrade"])
    #expect(allowed.status == 0, "\(allowed.stderr)")
  }

  @Test func aSyncBeforeTheExtensionIsOnSaysHowToTurnItOn() throws {
    let container = try CommandLineContainer(
      bundle: "com.example.off", count: 20, step: 1, labelPrefix: "Off", seedSize: 0)
    try container.writeDump(version: 1)
    #expect(try container.compile().status == 0)
    let manifest = try Data(contentsOf: URL(fileURLWithPath: container.box + "/manifest.cdm"))

    let sync = try container.run("app", "sync")
    #expect(sync.status == 1, "\(sync.stderr)")
    #expect(sync.stderr.hasPrefix("calldir: ") && sync.stderr.contains("calldir host enable"))
    #expect(sync.stderr.split(separator: "\n").count == 1, "\(sync.stderr)")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: container.box + "/manifest.cdm")) == manifest)

    #expect(try container.run("host", "enable").status == 0)
    let enabled = try container.run("app", "sync")
    #expect(enabled.status == 0, "\(enabled.stderr)")
  }
}
