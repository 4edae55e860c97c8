import BaseFormat
import DirectoryContainer
import Foundation
import TestSupport
import Testing

/// The extension reads its manifest and journal line by line through an 8 KiB buffer, and
/// writes the journal a line at a time: what it reads must be what the whole text parses to,
/// whatever line straddles a chunk, and every bad file must still name itself and its line.
@Suite("Manifests and journals streamed line by line read as their whole text does")
struct StreamedTextFileTests {
  /// A manifest of `count` bases: at 300, some 85 KB, so lines straddle every chunk boundary.
  static func manifest(bases count: Int) -> Manifest {
    var manifest = Manifest(
      fullSetRequested: true, chosenRegions: (1...count).map { "R\($0)" }, bases: [])
    manifest.bases = (1...count).map { index in
      let hash = String(repeating: String(index % 10), count: 64)
      return Manifest.Base(
        name: "region-R\(index)", role: .region, kind: .identification, region: "R\(index)",
        priority: 50, version: 1, entries: index, sha256: hash, state: .installed,
        file: "bases/region-R\(index).\(index).cdb", installedFile: "bases/region-R\(index).cdb",
        byteCount: index * 7, installedSHA256: String(repeating: "f", count: 64))
    }
    return manifest
  }

  @Test(arguments: [1, 37, 300])
  func aStreamedManifestIsTheParsedOne(bases count: Int) throws {
    let folder = try TemporaryFolder()
    let manifest = Self.manifest(bases: count)
    try manifest.write(container: folder.url.path)
    #expect(try Manifest.read(container: folder.url.path) == manifest)
    // CRLF line ends, and no final line end: the same manifest.
    let text = manifest.encoded()
    let crlf = String(text.dropLast()).replacingOccurrences(of: "\n", with: "\r\n")
    try Data(crlf.utf8).write(to: folder.url.appendingPathComponent(Manifest.fileName))
    #expect(try Manifest.read(container: folder.url.path) == manifest)
    #expect(try Manifest(parsing: crlf) == manifest)
  }

  @Test func aLineThatIsNotUTF8IsNamedWithItsFile() throws {
    let folder = try TemporaryFolder()
    let path = folder.path(Manifest.fileName)
    var bytes = Array(Self.manifest(bases: 300).encoded().utf8)
    // Line 250 (a base line far past the first chunk) gets a lone continuation byte.
    var newlines = 0
    let lineStart = bytes.firstIndex { byte in
      if byte == 0x0A { newlines += 1 }
      return newlines == 249
    }!
    bytes[lineStart + 3] = 0x80
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(throws: ManifestError(line: 250, problem: "\(path): not UTF-8")) {
      try Manifest.read(container: folder.url.path)
    }
  }

  @Test func aFileLargerThanTheBoundOrNotAFileIsRefusedByName() throws {
    let folder = try TemporaryFolder()
    let path = folder.path(Manifest.fileName)
    var text = "calldir-manifest\t1\n"
    text += String(repeating: "# padding\n", count: Manifest.maximumByteCount / 10 + 1)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    #expect(
      throws: ManifestError(
        line: 0, problem: "\(path) is larger than \(Manifest.maximumByteCount) bytes")
    ) { try Manifest.read(container: folder.url.path) }
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    #expect(throws: ManifestError(line: 0, problem: "\(path) is not a regular file")) {
      try Manifest.read(container: folder.url.path)
    }
  }

  static func journal(files count: Int) -> ExtensionJournal {
    ExtensionJournal(
      sequence: 7, incremental: true, entries: 1_999_999, totalEntries: 2_100_000,
      files: (1...count).map {
        .init(
          name: "region-R\($0)", file: "bases/region-R\($0).cdb",
          sha256: String(repeating: "e", count: 64))
      },
      counts: PriorityCounts(
        key: String(repeating: "d", count: 64), counts: [.identification: [50: 1_999_999]]))
  }

  @Test func aStreamedJournalIsTheParsedOneAndMayLeaveItsFiles() throws {
    let folder = try TemporaryFolder()
    let journal = Self.journal(files: 300)
    try journal.write(container: folder.url.path)
    let written = try String(
      contentsOfFile: folder.path(ExtensionJournal.fileName), encoding: .utf8)
    #expect(written == journal.encoded())
    #expect(try ExtensionJournal.read(container: folder.url.path) == journal)
    var withoutFiles = journal
    withoutFiles.files = []
    #expect(
      try ExtensionJournal.read(container: folder.url.path, keepingFiles: false) == withoutFiles)
    // Written from a sequence of files in place of its own: the same bytes.
    let other = try TemporaryFolder()
    try withoutFiles.write(container: other.url.path, files: journal.files.lazy)
    #expect(
      try String(contentsOfFile: other.path(ExtensionJournal.fileName), encoding: .utf8)
        == written)
  }

  /// Marking a request committed rewrites its request line only; another request's journal is
  /// left byte for byte as it was.
  @Test func markingCommittedChangesTheRequestLineAlone() throws {
    let folder = try TemporaryFolder()
    let path = folder.path(ExtensionJournal.fileName)
    let journal = Self.journal(files: 300)
    try journal.write(container: folder.url.path)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(try ExtensionJournal.markCommitted(container: folder.url.path, sequence: 8) == false)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(try ExtensionJournal.markCommitted(container: folder.url.path, sequence: 7))
    var committed = journal
    committed.committed = true
    #expect(try String(contentsOfFile: path, encoding: .utf8) == committed.encoded())
    #expect(try ExtensionJournal.markCommitted(container: folder.url.path, sequence: 7))
    #expect(try ExtensionJournal.read(container: folder.url.path) == committed)
    let empty = try TemporaryFolder()
    #expect(throws: ManifestError.self) {
      try ExtensionJournal.markCommitted(container: empty.url.path, sequence: 7)
    }
  }
}
