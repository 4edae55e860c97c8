import BaseFormat
import CallDirectoryLoader
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@Suite("The loader's parts: SHA-256, manifest, merge and cap")
struct LoaderPartsTests {
  func digest(_ text: String) -> String {
    var hash = SHA256()
    Array(text.utf8).withUnsafeBytes { hash.update($0) }
    return hash.hexDigest()
  }

  /// A part's merge leaves out a base whose numbers all lie outside its range: the header's
  /// lowest and highest numbers bound every entry (the range's end is exclusive), and an empty
  /// base holds nothing.
  @Test func aBaseMayHoldARangesNumbersOnlyWhenItsBoundsMeetIt() {
    func header(_ lowest: Int64, _ highest: Int64, entries: Int = 10) -> BaseHeader {
      BaseHeader(
        kind: .identification, entryCount: entries, lowestNumber: lowest, highestNumber: highest,
        blockCount: 1, payloadByteCount: 100, blockChecksumsChecksum: 0)
    }
    let range: Range<Int64> = 100..<200
    #expect(DirectoryLoader.mayHold(header(150, 160), numbersIn: range))
    #expect(DirectoryLoader.mayHold(header(10, 100), numbersIn: range), "its last is the first")
    #expect(DirectoryLoader.mayHold(header(199, 300), numbersIn: range), "its first is the last")
    #expect(DirectoryLoader.mayHold(header(10, 300), numbersIn: range), "it spans the range")
    #expect(!DirectoryLoader.mayHold(header(10, 99), numbersIn: range))
    #expect(!DirectoryLoader.mayHold(header(200, 300), numbersIn: range), "the end is exclusive")
    #expect(!DirectoryLoader.mayHold(header(0, 0, entries: 0), numbersIn: 0..<200), "empty")
  }

  @Test func sha256MatchesTheFIPSExamples() {
    #expect(digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }

  @Test func sha256MatchesCoreutilsOnAFileFedInOddChunks() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("data.bin")
    var bytes = [UInt8](repeating: 0, count: 1_000_003)
    for index in bytes.indices {
      bytes[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13)
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sha256sum", path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    process.waitUntilExit()
    let expected = String(
      decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self
    )
    .split(separator: " ").first.map(String.init)
    #expect(SHA256.hexDigest(ofFile: path) == expected)
    var chunked = SHA256()
    var start = 0
    for size in [1, 63, 64, 65, 1000, 4096, 100_000] where start < bytes.count {
      let end = min(bytes.count, start + size)
      bytes[start..<end].withUnsafeBytes { chunked.update($0) }
      start = end
    }
    bytes[start...].withUnsafeBytes { chunked.update($0) }
    #expect(chunked.hexDigest() == expected)
  }

  @Test func manifestsRoundTripAndNameTheirBadLine() throws {
    let manifest = Manifest(
      fullSetRequested: true, chosenRegions: ["RU-495", "RU-812"],
      bases: [
        .init(
          name: "seed", role: .seed, kind: .identification, priority: 100, version: 3, entries: 10,
          sha256: String(repeating: "a", count: 64), state: .installed, file: "bases/seed.v3.cdb",
          installedFile: "bases/seed.v3.cdb"),
        .init(
          name: "spam", role: .blocking, kind: .blocking, region: nil, priority: 90, version: 1,
          entries: 5, sha256: String(repeating: "0", count: 64), state: .ready,
          file: "bases/spam.v1.cdb", byteCount: 4_096),
      ])
    #expect(try Manifest(parsing: manifest.encoded()) == manifest)
    var broken = manifest.encoded().replacingOccurrences(of: "\tready\t", with: "\tdone\t")
    #expect(throws: ManifestError(line: 5, problem: "unknown state 'done'")) {
      try Manifest(parsing: broken)
    }
    broken = manifest.encoded().replacingOccurrences(of: "bases/spam.v1.cdb", with: "../etc/passwd")
    #expect(throws: ManifestError.self) { try Manifest(parsing: broken) }
    // The installed file too: it is read by the incremental diff.
    broken = manifest.encoded().replacingOccurrences(
      of: "\tbases/seed.v3.cdb\n", with: "\t../../outside/x.cdb\n")
    #expect(
      throws: ManifestError(line: 4, problem: "installed file must be a path inside the container")
    ) {
      try Manifest(parsing: broken)
    }
    #expect(throws: ManifestError.self) { try Manifest(parsing: "hello\n") }
  }

  @Test func theCapPlanKeepsTheHighestPrioritiesAndSplitsTheThreshold() {
    let plan = CapPlan(histogram: [100: 10, 50: 30, 10: 100], cap: 25)
    #expect(plan.thresholdPriority == 50)
    #expect(plan.quotaAtThreshold == 15)
    var filter = CapFilter(plan)
    let admitted =
      (0..<10).filter { _ in filter.admits(priority: 100) }.count
      + (0..<30).filter { _ in filter.admits(priority: 50) }.count
      + (0..<100).filter { _ in filter.admits(priority: 10) }.count
    #expect(admitted == 25)
    #expect(CapPlan(histogram: [1: 5], cap: 5).thresholdPriority == nil)
  }

  @Test func theMergeYieldsEachNumberOnceWithTheBestLabel() throws {
    let folder = try TemporaryFolder()
    func base(_ name: String, _ entries: [(Int64, String)]) throws -> any BaseReader {
      let path = folder.path(name)
      let writer = try BaseWriter(path: path, kind: .identification)
      for (number, label) in entries { try writer.append(number, label: label) }
      try writer.finish()
      return try MappedBaseReader(path: path)
    }
    let merged = try MergedList([
      (try base("low", [(1, "low"), (3, "low"), (5, "low")]), 1),
      (try base("high", [(3, "high"), (4, "high")]), 9),
      (try base("empty", []), 5),
      (try base("tie", [(5, "tie")]), 1),
    ])
    var result: [String] = []
    while let (entry, priority) = try merged.next() {
      result.append("\(entry.number) \(entry.label) \(priority)")
    }
    #expect(result == ["1 low 1", "3 high 9", "4 high 9", "5 low 1"])
  }
}

@Suite("Manifest fields from input cannot break the manifest")
struct ManifestFieldTests {
  @Test func regionsWithSeparatorsAndLineBreaksReadBackAsWritten() throws {
    let regions = ["a,b", "tab\there", "line\nbreak", "cr\r", "%41", "-", "Москва", ""]
    let manifest = Manifest(
      fullSetRequested: true, chosenRegions: regions,
      bases: regions.enumerated().map { index, region in
        Manifest.Base(
          name: "region-\(index)", role: .region, kind: .identification, region: region,
          priority: 50, version: 1, entries: 1, sha256: String(repeating: "a", count: 64),
          state: .ready, file: "bases/r\(index).cdb")
      })
    #expect(try Manifest(parsing: manifest.encoded()) == manifest)
    #expect(!manifest.encoded().contains("\r"))
  }

  @Test func aCRLFManifestReadsAndABadEscapeIsNamed() throws {
    let text = "calldir-manifest\t1\r\nfull-set\trequested\r\nchosen\tR1,R%2C2\r\n"
    #expect(try Manifest(parsing: text).chosenRegions == ["R1", "R,2"])
    #expect(throws: ManifestError(line: 3, problem: "'%' must be followed by two hex digits")) {
      try Manifest(parsing: "calldir-manifest\t1\nfull-set\trequested\nchosen\tR%G1\n")
    }
  }
}

@Suite("The manifest is read within bounds")
struct ManifestBoundsTests {
  @Test func aManifestLinkedToDevZeroOrTooLargeIsAnErrorNotMemory() throws {
    let folder = try TemporaryFolder()
    let linked = folder.path("linked")
    try FileManager.default.createDirectory(atPath: linked, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: linked + "/" + Manifest.fileName, withDestinationPath: "/dev/zero")
    #expect(throws: ManifestError(line: 0, problem: linked + "/manifest.cdm is not a regular file"))
    {
      try Manifest.read(container: linked)
    }
    let large = folder.path("large")
    try FileManager.default.createDirectory(atPath: large, withIntermediateDirectories: true)
    let bytes = Data(count: Manifest.maximumByteCount + 1)
    try bytes.write(to: URL(fileURLWithPath: large + "/" + Manifest.fileName))
    #expect(throws: ManifestError.self) { try Manifest.read(container: large) }
  }
}
