import BaseFormat
import DirectoryContainer

/// Everything that decides a generated dataset. Equal parameters give byte-identical files.
public struct DatasetParameters: Codable, Hashable, Sendable {
  /// Number of distinct entries in the base (after deduplication).
  public var entries: Int
  /// `identification` or `blocking`.
  public var kind: String
  /// Number plans to draw from, equally weighted: `RU`, `CN`, `US`.
  public var plans: [String]
  /// How labels look.
  public var labels: LabelProfile
  /// Share of extra rows, relative to `entries`, that repeat a number in the raw (TSV) form.
  public var duplicateShare: Double
  /// Seed of the generator.
  public var seed: UInt64
  /// Number patterns blocked beside the generated lists (`compile --block-patterns`), one pattern
  /// a line as a pattern file writes them (`+33 1 62 ## ## ##`); empty for none. Only a two-phase
  /// container (`bench two-phase`, `generate --format container`) holds them.
  public var patterns: [String] = []

  /// Creates parameters.
  public init(
    entries: Int, kind: String = "identification", plans: [String] = ["RU"],
    labels: LabelProfile = .cyrillic, duplicateShare: Double = 0, seed: UInt64 = 1
  ) {
    self.entries = entries
    self.kind = kind
    self.plans = plans
    self.labels = labels
    self.duplicateShare = duplicateShare
    self.seed = seed
  }

  /// The most entries the generator draws at once: it holds them in memory (about 17 bytes an
  /// entry with the raw dump's row order). ``ChunkedDump`` writes larger dumps in slices.
  public static let maximumEntries = 50_000_000

  /// The base kind, or nil when `kind` is not one.
  public var baseKind: BaseKind? { BaseKind(name: kind) }

  /// Checks every field; the message names the field and the problem.
  public func validate() throws(DatasetError) {
    guard entries >= 0 else { throw DatasetError("entries must be 0 or more, got \(entries)") }
    guard entries <= Self.maximumEntries else {
      throw DatasetError("entries \(entries) is over the generator's 50,000,000")
    }
    guard baseKind != nil else {
      throw DatasetError("kind must be identification or blocking, got '\(kind)'")
    }
    guard !plans.isEmpty else { throw DatasetError("plans must name at least one number plan") }
    for plan in plans where NumberPlan.named(plan) == nil {
      throw DatasetError(
        "unknown number plan '\(plan)' (known: \(NumberPlan.knownNames.joined(separator: ", ")))")
    }
    guard duplicateShare >= 0, duplicateShare <= 1 else {
      throw DatasetError("duplicateShare must be between 0 and 1, got \(duplicateShare)")
    }
    guard patterns.count <= Self.maximumPatterns else {
      throw DatasetError(
        "patterns holds \(patterns.count) lines, over the \(Self.maximumPatterns) a profile takes")
    }
    for (index, pattern) in patterns.enumerated()
    where pattern.isEmpty || pattern.contains(where: { $0.isNewline || $0 == "\t" }) {
      throw DatasetError("patterns[\(index)] must be one non-empty line without tabs")
    }
  }

  /// The most pattern lines a profile holds: national plans are a dozen lines (France's twelve
  /// telemarketing prefixes); a compiler input, not a profile, is the place for more.
  public static let maximumPatterns = 1_000

  /// A stable text form of the parameters, used as the cache key.
  public var cacheKey: String {
    let plans = plans.map { $0.uppercased() }.joined(separator: "+")
    let share = Int((duplicateShare * 10_000).rounded())
    return
      "v\(DatasetGenerator.version)-\(kind)-\(entries)-\(plans)-\(labels.rawValue)-d\(share)-s\(seed)"
      + (patterns.isEmpty ? "" : "-p\(patternsDigest)")
  }

  /// The pattern lines' SHA-256, first 16 hex digits: a cache key stable across runs.
  var patternsDigest: String {
    var digest = SHA256()
    digest.update(utf8: patterns.joined(separator: "\n"))
    return String(digest.hexDigest().prefix(16))
  }
}

/// A problem with a dataset profile, its parameters or its files, in one line.
public struct DatasetError: Error, CustomStringConvertible, Equatable {
  /// The message.
  public let description: String
  /// Creates an error with a message.
  public init(_ description: String) { self.description = description }
}
