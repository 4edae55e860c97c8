import CallDirectoryHost
import CallDirectoryLoader
import Datasets
import Foundation
import TestSupport
import Testing

/// `DirectoryLookup` says what the simulated system's store holds, number by number (issue 66,
/// item 3): a container with regions, a blocking list, a seed set and pattern rules, installed
/// as an app installs it (the switch, then syncs until nothing is pending), then every number
/// the store holds, their neighbours and random ones looked up in both.
@Suite("DirectoryLookup agrees with the store")
struct DirectoryLookupAgreementTests {
  let calldir = builtExecutablePath("calldir")
  let bundleID = "com.example.lookup"

  @Test(arguments: [UInt64(1), 2, 3])
  func everyNumberTriedAgrees(seed: UInt64) throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("dump.tsv")
    let made = try runProcess(
      calldir,
      [
        "generate", "--profile", "ci-smoke", "--entries", "6000", "--format", "tsv", "--out", dump,
        "--seed", String(seed),
      ])
    #expect(made.status == 0, "\(made.stderr)")
    let patterns = folder.path("fr.tsv")
    try "pattern\tcategory\n+3316200####\tspam\n+331620001##\tvoisin\n+3394800####\ttelemarketing\n"
      .write(toFile: patterns, atomically: true, encoding: .utf8)
    let box = folder.path("box")
    let compiled = try runProcess(
      calldir, ["compile", dump, "--block-patterns", patterns, "--out", box, "--seed-size", "500"])
    #expect(compiled.status == 0, "\(compiled.stderr)")
    let flags = ["--container", box, "--host-dir", folder.path("host")]
    #expect(try runProcess(calldir, ["host", "enable", bundleID] + flags).status == 0)
    for _ in 0..<20 {
      let sync = try runProcess(calldir, ["app", "sync", bundleID] + flags)
      #expect(sync.status == 0, "\(sync.stderr)")
      if !sync.stdout.contains("sync ") { break }
    }
    let store = try CallDirectoryStore(
      path: folder.path("host/" + SimulatedSystem.databaseFileName))
    let (identification, blocking) = try store.contents(of: bundleID)
    let labels = Dictionary(identification.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a })
    let blocked = Set(blocking)
    #expect(!labels.isEmpty && !blocked.isEmpty)
    let lookup = try DirectoryLookup(container: box)
    var random = SplitMix64(seed: seed)
    var tried = Array(labels.keys) + Array(blocked)
    tried += tried.prefix(2_000).flatMap { [$0 - 1, $0 + 1] }
    tried += (0..<2_000).map { _ in 33_162_000_000 + Int64(random.next() % 20_000) }
    var disagreements: [String] = []
    for number in tried {
      let answer = try lookup.lookup(number)
      // The SMS filter's question alone answers as the whole lookup does.
      let blockedAlone = try lookup.isBlocked(number)
      if answer.label != labels[number] || answer.isBlocked != blocked.contains(number)
        || blockedAlone != answer.isBlocked
      {
        disagreements.append(
          "\(number): lookup \(answer), isBlocked \(blockedAlone), store \(labels[number] ?? "-") \(blocked.contains(number))"
        )
      }
    }
    #expect(
      disagreements.isEmpty, "\(disagreements.count) of \(tried.count): \(disagreements.prefix(5))")
  }
}
