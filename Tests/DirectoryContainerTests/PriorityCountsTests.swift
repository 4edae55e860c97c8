import BaseFormat
import DirectoryContainer
import Testing

@Suite("The cap plan's counts, kept in the journal")
struct PriorityCountsTests {
  static let bases: [PriorityCounts.CountedBase] = [
    .init(
      kind: .identification, priority: 50, file: "bases/r1.cdb",
      sha256: String(repeating: "a", count: 64)),
    .init(
      kind: .blocking, priority: 90, file: "bases/spam.cdb",
      sha256: String(repeating: "b", count: 64)),
  ]

  @Test func theKeyChangesWithAnythingTheCountsDependOn() {
    let key = PriorityCounts.key(of: Self.bases, range: nil)
    #expect(key == PriorityCounts.key(of: Self.bases, range: nil))
    #expect(key.utf8.count == 64)
    var changed = Self.bases
    changed[0].priority = 49
    #expect(PriorityCounts.key(of: changed, range: nil) != key)
    changed = Self.bases
    changed[0].file = "bases/r1.v2.cdb"
    #expect(PriorityCounts.key(of: changed, range: nil) != key)
    changed = Self.bases
    changed[1].sha256 = String(repeating: "c", count: 64)
    #expect(PriorityCounts.key(of: changed, range: nil) != key)
    changed = Self.bases
    changed[1].kind = .identification
    #expect(PriorityCounts.key(of: changed, range: nil) != key)
    #expect(PriorityCounts.key(of: Self.bases, range: 0..<100) != key)
    #expect(
      PriorityCounts.key(of: Self.bases, range: 0..<100)
        != PriorityCounts.key(
          of: Self.bases, range: 0..<101))
  }

  @Test func countsThatCannotBeTheFilesAreNotPlausible() {
    let bases: [(kind: BaseKind, priority: Int, entries: Int)] = [
      (.identification, 50, 1_000), (.identification, 50, 500), (.blocking, 90, 400),
    ]
    let sound = PriorityCounts(
      key: "k", counts: [.identification: [50: 1_500], .blocking: [90: 400]])
    #expect(sound.isPlausible(for: bases))
    var counts = sound
    counts.counts[.identification]![50] = 1_501
    #expect(!counts.isPlausible(for: bases), "more than the bases hold")
    counts = sound
    counts.counts[.identification]![40] = 1
    #expect(!counts.isPlausible(for: bases), "a priority no base has")
    counts = sound
    counts.counts[.blocking] = [50: 1]
    #expect(!counts.isPlausible(for: bases), "a priority of the other kind")
    counts = sound
    counts.counts[.blocking]![90] = -1
    #expect(!counts.isPlausible(for: bases))
    let forged = [(kind: BaseKind.identification, priority: 50, entries: Int.max)] + bases
    #expect(sound.isPlausible(for: forged), "a forged manifest's counts add up without trapping")
  }

  @Test func journalsRoundTripWithCountsAndNameABadLine() throws {
    let key = PriorityCounts.key(of: Self.bases, range: nil)
    let journal = ExtensionJournal(
      sequence: 3, incremental: true, entries: 2_000, totalEntries: 4_700,
      files: [.init(name: "r1", file: "bases/r1.cdb", sha256: String(repeating: "a", count: 64))],
      counts: PriorityCounts(
        key: key, counts: [.identification: [50: 1_000, 100: 300], .blocking: [90: 400]]))
    let text = journal.encoded()
    #expect(text.contains("counted\t\(key)\ncount\tidentification\t50\t1000\n"))
    #expect(try ExtensionJournal(parsing: text) == journal)
    var withoutCounts = journal
    withoutCounts.counts = nil
    #expect(try ExtensionJournal(parsing: withoutCounts.encoded()) == withoutCounts)

    let lines = text.split(separator: "\n").map(String.init)
    func parse(_ lines: [String]) throws {
      _ = try ExtensionJournal(parsing: lines.joined(separator: "\n") + "\n")
    }
    #expect(throws: ManifestError.self, "a count before the counted line") {
      try parse(lines.filter { !$0.hasPrefix("counted") })
    }
    #expect(throws: ManifestError.self, "a file line after the counts") {
      try parse(lines + [lines[2]])
    }
    #expect(throws: ManifestError.self, "a priority counted twice") {
      try parse(lines + ["count\tidentification\t50\t7"])
    }
    #expect(throws: ManifestError.self, "a negative count") {
      try parse(lines + ["count\tblocking\t10\t-7"])
    }
    #expect(throws: ManifestError.self, "an unknown kind") {
      try parse(lines + ["count\tlabels\t10\t7"])
    }
    #expect(throws: ManifestError.self, "a key that is not a SHA-256") {
      try parse(lines.map { $0.hasPrefix("counted") ? "counted\tXYZ" : $0 })
    }
    #expect(throws: ManifestError.self, "two counted lines") {
      try parse(lines + ["counted\t\(key)"])
    }
    // Found by the manifest fuzz target: a file line ended CR CR LF kept a CR in its digest,
    // which did not come back the same from the journal's own text. A digest is 64 hex digits.
    let fileLine = lines.firstIndex { $0.hasPrefix("file\t") }!
    for digest in ["3800\r", String(repeating: "a", count: 63), String(repeating: "A", count: 64)] {
      var bad = lines
      bad[fileLine] = "file\tr1\tbases/r1.cdb\t\(digest)"
      #expect(throws: ManifestError.self, "digest \(digest.debugDescription)") { try parse(bad) }
    }
    do {
      try parse(lines + ["count\tidentification\t50\t7"])
    } catch let error as ManifestError {
      #expect(error.line == lines.count + 1, "\(error)")
    }
  }
}
