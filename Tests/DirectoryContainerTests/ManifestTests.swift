import BaseFormat
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@Suite("Manifests round-trip and name their bad line")
struct ManifestTests {
  /// What a complete load installs: the seed set always; the blocking lists and the chosen
  /// regions once the full set is requested; never a staged or retired base.
  @Test func theSelectionIsTheSeedThenTheChosenFullSet() {
    func base(_ name: String, _ role: Manifest.Role, region: String? = nil, state: Manifest.State)
      -> Manifest.Base
    {
      Manifest.Base(
        name: name, role: role, kind: role == .blocking ? .blocking : .identification,
        region: region, priority: 1, version: 1, entries: 1,
        sha256: String(repeating: "a", count: 64), state: state, file: "bases/\(name).cdb")
    }
    var manifest = Manifest(
      fullSetRequested: false, chosenRegions: ["RU-MOW"],
      bases: [
        base("seed", .seed, state: .ready), base("spam", .blocking, state: .ready),
        base("region-MOW", .region, region: "RU-MOW", state: .ready),
        base("region-SPE", .region, region: "RU-SPE", state: .ready),
        base("region-KGD", .region, region: "RU-MOW", state: .staged),
        base("old-seed", .seed, state: .retired),
      ])
    #expect(manifest.selection.map(\.name) == ["seed"])
    manifest.fullSetRequested = true
    #expect(manifest.selection.map(\.name) == ["seed", "spam", "region-MOW"])
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
