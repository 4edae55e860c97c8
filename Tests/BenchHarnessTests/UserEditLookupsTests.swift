import CallDirectoryHost
import CallDirectoryLoader
import Datasets
import Foundation
import TestSupport
import Testing

@testable import BenchMeasuring

/// `bench user-edits`' lookup figures: it reads the timing lines `calldir lookup --repeat`
/// prints (the real binary's, so the two cannot drift apart), and its agreement rule holds on
/// a real store for every number tried.
@Suite("bench user-edits reads calldir lookup and checks it against the store")
struct UserEditLookupsTests {
  let calldir = builtExecutablePath("calldir")

  @Test func theLookupsLinesReadAndEveryAnswerAgreesWithTheStore() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("dump.tsv")
    try
      "number\tlabel\tcategory\n+79161234567\tAcme\t\n+79161234570\tJunk\tspam\n+79161234580\tBoth\t\n"
      .write(toFile: dump, atomically: true, encoding: .utf8)
    let patterns = folder.path("fr.tsv")
    try "pattern\tcategory\n+3316200####\tspam\n".write(
      toFile: patterns, atomically: true, encoding: .utf8)
    let box = folder.path("box")
    let compiled = try runProcess(
      calldir, ["compile", dump, "--block-patterns", patterns, "--out", box])
    #expect(compiled.status == 0, "\(compiled.stderr)")
    let flags = ["--container", box, "--host-dir", folder.path("host")]
    #expect(try runProcess(calldir, ["host", "enable", "com.example.l"] + flags).status == 0)
    #expect(
      try runProcess(calldir, ["app", "block", "+79161234580", "--container", box]).status == 0)
    #expect(try runProcess(calldir, ["app", "sync", "com.example.l"] + flags).status == 0)

    let timed = try runProcess(
      calldir, ["lookup", "+79161234567", "--container", box, "--repeat", "200"])
    #expect(timed.status == 0, "\(timed.stderr)")
    let run = try UserEditLookups.parse(timed.stderr, number: 79_161_234_567)
    #expect(run.medianMicroseconds > 0 && run.p99Microseconds >= run.medianMicroseconds)
    #expect(
      run.aroundMedianMicroseconds > 0 && run.aroundP99Microseconds >= run.aroundMedianMicroseconds)
    #expect(run.isBlockedMedianMicroseconds > 0)
    #expect(run.grown.hasSuffix("B"), "a byte count: \(run.grown)")
    #expect(!run.allocationsPerLookup.isEmpty)
    #expect(throws: BenchError.self) { try UserEditLookups.parse("lookup of 1\n", number: 1) }

    let store = try CallDirectoryStore(
      path: folder.path("host/" + SimulatedSystem.databaseFileName))
    let lookup = try DirectoryLookup(container: box)
    var seen: [String] = []
    for number: Int64 in [
      79_161_234_567, 79_161_234_570, 79_161_234_580, 33_162_001_234, 79_161_234_568,
    ] {
      let (answer, stored) = (try lookup.lookup(number), try store.lookup(number))
      #expect(UserEditLookups.agrees(answer, stored), "\(number): \(answer) against \(stored)")
      seen.append(stored.description)
    }
    // A label, a blocked list entry, the user's block over a label, a pattern, a miss.
    #expect(!UserEditLookups.agrees(try lookup.lookup(79_161_234_567), .unknown))
    #expect(
      !UserEditLookups.agrees(
        try lookup.lookup(79_161_234_570), .identified(label: "Junk", bundleID: "x")))
    #expect(Set(seen).count >= 3, "\(seen)")
  }
}
