import BaseFormat

/// What the counting pass of a cap plan found: how many distinct numbers of each kind a merge of
/// some bases emits, per base priority, and a key naming exactly what was counted (each base's
/// kind, priority, file and SHA-256, and the extension's number range).
///
/// The extension keeps the last one in its journal: the chunks past the cap read the same files
/// request after request, and the counting pass, a whole merge of every base, was a third of a
/// chunk's reading. The counts take as much room as there are distinct priorities, never more
/// with the entries.
///
/// In the journal:
///
/// ```
/// counted	KEY                                  (the SHA-256 of what was counted)
/// count	identification	PRIORITY	COUNT        (one line per kind and priority)
/// ```
package struct PriorityCounts: Equatable, Sendable {
  /// The SHA-256 (hex) of what was counted: see ``key(of:range:)``.
  package var key: String
  /// Entries the merge emits per priority, per kind.
  package var counts: [BaseKind: [Int: Int]]

  package init(key: String, counts: [BaseKind: [Int: Int]]) {
    (self.key, self.counts) = (key, counts)
  }

  /// One base as counted: its kind, priority, the file read and that file's SHA-256.
  package struct CountedBase: Sendable {
    package var kind: BaseKind
    package var priority: Int
    package var file: String
    package var sha256: String
    package init(kind: BaseKind, priority: Int, file: String, sha256: String) {
      (self.kind, self.priority, self.file, self.sha256) = (kind, priority, file, sha256)
    }
  }

  /// The key of counting `bases` (in this order) within `range`: equal keys, equal counts,
  /// since the files' hashes pin their contents.
  ///
  /// Hashed line by line: the extension's heap high-water mark is its footprint, and one string
  /// of every line (16 KiB for 108 regions) would raise it.
  package static func key(of bases: some Sequence<CountedBase>, range: Range<Int64>?) -> String {
    var hash = SHA256()
    func add(_ line: String) { hash.update(utf8: line) }
    add("calldir-counts\t1\n")
    if let range { add("range\t\(range.lowerBound)\t\(range.upperBound)\n") }
    for base in bases {
      add("\(base.kind)\t\(base.priority)\t\(base.file)\t\(base.sha256)\n")
    }
    return hash.hexDigest()
  }

  /// Whether these counts could be the counting pass's over `bases`: every priority is one of
  /// that kind's bases, and no count exceeds the entries those bases hold (the manifest's
  /// figures). A damaged journal that still parses is caught here and counted again.
  package func isPlausible(for bases: [(kind: BaseKind, priority: Int, entries: Int)]) -> Bool {
    for (kind, histogram) in counts {
      for (priority, count) in histogram {
        var held = 0
        for base in bases where base.kind == kind && base.priority == priority {
          let (sum, overflowed) = held.addingReportingOverflow(max(0, base.entries))
          held = overflowed ? Int.max : sum
        }
        guard count >= 0, count <= held, held > 0 else { return false }
      }
    }
    return true
  }

  /// The journal lines.
  func encodedLines() -> [String] {
    var lines = ["counted\t\(key)"]
    for kind in BaseKind.allCases {
      for (priority, count) in (counts[kind] ?? [:]).sorted(by: { $0.key < $1.key }) {
        lines.append("count\t\(kind)\t\(priority)\t\(count)")
      }
    }
    return lines
  }

  /// Reads a `counted` line's key.
  static func parseKey(_ fields: [Substring], line: Int) throws(ManifestError) -> String {
    guard fields.count == 2, fields[1].utf8.count == 64,
      fields[1].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
    else {
      throw ManifestError(line: line, problem: "expected counted and a SHA-256 in lowercase hex")
    }
    return String(fields[1])
  }

  /// Adds a `count` line to these counts.
  mutating func add(_ fields: [Substring], line: Int) throws(ManifestError) {
    let kinds: [Substring: BaseKind] = ["identification": .identification, "blocking": .blocking]
    guard fields.count == 4, let kind = kinds[fields[1]], let priority = Int(fields[2]),
      let count = Int(fields[3]), count >= 0
    else {
      throw ManifestError(
        line: line, problem: "expected count, identification|blocking, a priority, a count")
    }
    guard counts[kind]?[priority] == nil else {
      throw ManifestError(line: line, problem: "priority \(priority) of \(kind) counted twice")
    }
    counts[kind, default: [:]][priority] = count
  }
}
