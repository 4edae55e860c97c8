import PhoneNormalization
import SystemCalls

/// Which of several entries for one number survives.
public enum DuplicatePolicy: String, CaseIterable, Sendable {
  /// The first in input order.
  case first
  /// The last in input order.
  case last
  /// The highest rank (ties: the first).
  case priority
}

/// Everything `calldir compile` is told.
public struct CompileOptions: Sendable {
  /// Input files and their formats.
  public var inputs: [(path: String, format: InputFormat)]
  /// The folder the bases and manifest go to (an App Group container).
  public var output: String
  /// The country national numbers belong to, unless the input or the row names its own.
  public var country = "RU"
  /// Inputs (paths among ``inputs``) whose national numbers belong to another country
  /// (`calldir compile FILE:CC`).
  public var inputCountries: [String: String] = [:]
  /// How much of each number is checked.
  public var validation = PhoneNormalizer.Validation.possible
  public var columns = ColumnSelection()
  /// Bytes the sort may hold in memory before it spills to run files.
  public var memoryBudget = 256 * 1024 * 1024
  public var duplicates = DuplicatePolicy.first
  /// Entries in the seed set; 0 for none.
  public var seedSize = Self.defaultSeedSize
  /// 100,000 entries: a seed set phase one installs at once (about 2.5 s of labels on an
  /// iPhone 13 by ovidius72/caller-filter's tools/entry-limit-harness's device rates, 0.2 s on the host).
  public static let defaultSeedSize = 100_000
  /// How the seed set is chosen.
  public var seedBy = SeedChoice.auto
  /// Category values whose numbers go to a blocking list instead of identification.
  public var blockingCategories: Set<String> = ["spam"]
  /// Inputs (paths among ``inputs``) compiled whole as blocking lists, such as a spam dump: every
  /// number is blocked whatever its category, and labels are not needed.
  public var blockingInputs: Set<String> = []
  /// Category values an identification entry keeps as a tag (1–255), written to ``tagsFile``
  /// (`DirectoryContainer.EntryTagFile`): Live Caller ID Lookup's identity category of each
  /// row, read by `calldir export lcidl --dump`. Empty: no tags.
  public var entryTags: [String: UInt8] = [:]
  /// Where the chosen entries' tags go, beside the container (nil: not written).
  public var tagsFile: String?
  /// A file of `PREFIX<TAB>REGION` lines (CallKit-digit prefixes), for inputs without a region.
  public var regionsFile: String?
  /// Pattern files of numbers to block (`--block-patterns`, ``PatternFile``).
  public var blockPatternFiles: [String] = []
  /// Pattern files of numbers to identify (`--identify-patterns`).
  public var identifyPatternFiles: [String] = []
  /// Lists of numbers no pattern blocks or identifies (`--allow`); explicit lists keep them.
  public var allowFiles: [String] = []
  /// The most numbers the patterns may hold together (`--max-pattern-entries`).
  public var maximumPatternEntries = CompileOptions.defaultMaximumPatternEntries
  /// 100 M: eight times France's telemarketing plan; `+44##########` (10^10) is refused.
  public static let defaultMaximumPatternEntries = 100_000_000
  /// Fail on any rejected line.
  public var strict = false
  /// Publish a compile even when it would leave a live container with no entries, or with
  /// fewer than `DirectoryContainer.ShrinkRule.keptShare` of them (`--allow-shrink`).
  public var allowShrink = false
  /// Lines longer than this many bytes are rejected ("line too long"), read in constant memory.
  public var maximumLineByteCount = CompileOptions.defaultMaximumLineByteCount
  /// 64 KiB: a directory row is a number and a label of at most 1,024 bytes, with room.
  public static let defaultMaximumLineByteCount = 64 * 1024
  /// How TSV and CSV fields are quoted; nil for the format's own (none for TSV, RFC 4180 for CSV).
  public var quoting: Quoting?
  /// The version written into the manifest.
  public var version = 1
  /// Write compact bases (`BaseFormat.BaseHeader.compactVersion`): number deltas and a label
  /// dictionary. Off writes fixed-width records.
  public var compact = true
  /// Also measure `gzip -9` of the inputs, for the report (costs a pass of deflate).
  public var compareGzip = false
  /// Where the sort's runs go (a folder of their own is made in it); nil: beside the output,
  /// inside the container folder.
  public var temporaryDirectory: String?
  /// Threads that read, normalize and sort one large input at once (``InputSplit``): the cores
  /// online by default. The container is byte-identical whatever the count, and the memory
  /// budget is shared among them.
  public var threads = ProcessEnvironment.onlineCoreCount
  /// The smallest input split among threads: 16 MiB. A smaller one is read by one thread, as
  /// each part costs a sort run on disk.
  public var minimumSplitByteCount = 16 << 20

  /// Manifest priorities: the seed set above blocking lists above regions.
  public static let seedPriority = 100
  public static let blockingPriority = 90
  public static let regionPriority = 50

  public init(inputs: [(path: String, format: InputFormat)], output: String) {
    self.inputs = inputs
    self.output = output
  }
}

/// How the compiler chooses the seed set, the entries installed first so enabling is instant.
public enum SeedChoice: String, Sendable, CaseIterable {
  /// By rank when the inputs have a rank column, else spread.
  case auto
  /// The top `--seed-size` by rank; an input without ranks is an error (the set would be empty).
  case rank
  /// Every k-th identification entry in number order, `--seed-size` in all: a sample of every
  /// region, for inputs without ranks.
  case spread
}
