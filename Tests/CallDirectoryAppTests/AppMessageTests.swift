import BaseFormat
import CallDirectoryApp
import DirectoryContainer
import Foundation
import ReleaseFormat
import TestSupport
import Testing

/// What the app's half says is for an app's user and an app's code: it names no `calldir`
/// command and no command-line flag (issue 40: "turn it on first (calldir host enable)"); the
/// command line adds its own hints. A refusal an app answers differently has a kind.
@Suite("The app's errors name no command or flag")
struct AppMessageTests {
  func expectPlain(_ error: ContainerAppError, kind: ContainerAppError.Kind = .failed) {
    #expect(!error.description.contains("calldir "), "\(error)")
    #expect(!error.description.contains("--"), "\(error)")
    #expect(error.kind == kind)
  }

  @Test func refusalsAreInTheAppsWords() async throws {
    let folder = try TemporaryFolder()
    let app = ContainerApp(container: folder.path("box"))
    do {
      try await app.choose(regions: ["MOW"])
      Issue.record("choosing in a container without bases")
    } catch { expectPlain(error, kind: .noManifest) }
    do {
      try app.split(into: 1)
      Issue.record("a split into 1")
    } catch { expectPlain(error, kind: .badArgument) }
    do {
      try await app.stage(
        file: folder.path("none.cdb"), name: "r", role: .region, priority: 1, version: 1)
      Issue.record("a region base without its region")
    } catch { expectPlain(error, kind: .badArgument) }
  }

  /// A release whose newest version has no bases, against a container holding entries.
  @Test func aShrinkingUpdateIsOfKindShrinkAndNamesNoFlag() async throws {
    let folder = try TemporaryFolder()
    let base = folder.path("region.cdb")
    let writer = try BaseWriter(path: base, kind: .identification, compact: true)
    for index in 0..<100 { try writer.append(Int64(74_951_000_000 + index), label: "Фирма") }
    try writer.finish()
    let app = ContainerApp(container: folder.path("box"))
    try await app.stage(
      file: base, name: "region-MOW", role: .region, region: "MOW", priority: 50, version: 1)
    let release = folder.path("R")
    try FileManager.default.createDirectory(atPath: release, withIntermediateDirectories: true)
    try ReleaseIndex(versions: [.init(number: 2, bases: [])]).json.write(
      toFile: release + "/index.json", atomically: true, encoding: .utf8)
    do {
      try await app.update(from: FolderReleaseSource(folder: release))
      Issue.record("an update to no entries")
    } catch { expectPlain(error, kind: .shrink) }
    #expect(try app.manifest().bases.count == 1, "the container is as it was")
  }
}

/// `.failed` split into cases an app acts on (issue 56, item 5): a release that cannot be used
/// is `.badRelease` (tell the publisher), an argument the app got wrong `.badArgument`.
@Suite("A bad release and a bad argument are kinds of their own")
struct ErrorKindTests {
  @Test func anIndexThatIsNotOneAndAFileThatIsNotTheIndexsAreBadReleases() async throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      atPath: folder.path("R"), withIntermediateDirectories: true)
    try "not json\n".write(toFile: folder.path("R/index.json"), atomically: true, encoding: .utf8)
    let app = ContainerApp(container: folder.path("box"))
    await #expect {
      _ = try await app.update(from: FolderReleaseSource(folder: folder.path("R")))
    } throws: { error in
      let appError = error as? ContainerAppError
      return appError?.kind == .badRelease && appError?.isRetryable == false
        && appError?.file == "index.json"
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path("box/manifest.cdm")))
  }

  @Test func argumentsTheAppGotWrongAreBadArguments() async throws {
    let folder = try TemporaryFolder()
    let app = ContainerApp(container: folder.path("box"))
    do {
      try await app.stage(
        file: folder.path("x.cdb"), name: "no spaces allowed", role: .seed, priority: 1,
        version: 1)
      Issue.record("a base name outside the rule")
    } catch {
      #expect(error.kind == .badArgument && !error.isRetryable, "\(error)")
    }
  }
}
