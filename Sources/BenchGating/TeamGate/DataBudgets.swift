import BenchMeasuring
import BenchReporting
import CallDirectoryCore

/// What a team's data must fit on the device, whatever calldir's version: the budgets
/// `calldir gate` holds the head's data to. Data-dependent counts (instructions per entry) are
/// not budgets: a longer label costs more instructions and still fits, so those are reported
/// with their change, never gated.
///
/// Defaults come from iOS's limits and the device profiles (Apple's CallKit documentation, iOS 26.1's CDXLoadExtensionDataOperation, in EthanArbuckle/iPhone18-3_26.1_23B85_Restore, and 2GIS, habr.com/ru/post/323050); a team sets its own
/// in `.calldir-gate.yml` (``GateSettings``).
public struct DataBudgets: Sendable, Equatable {
  /// The extension's memory limit, in bytes: what iOS kills it past (5 MiB, the field's
  /// figure: `SystemLimits.defaultMemoryLimitBytes`).
  public var memoryLimitBytes = SystemLimits.defaultMemoryLimitBytes
  /// The share of the memory limit kept free, 0…1: a footprint over `limit × (1 − margin)`
  /// fails, so a device that measures a little more than this machine still loads.
  public var footprintMargin = 0.2
  /// The seed set's projected time from the switch to enabled, in seconds, on ``device``.
  /// Devices take labelled entries slowly: `calldir compile`'s default 100,000-entry seed set
  /// projects to 2.5 s on an iPhone 13 (by the device rates of ovidius72/caller-filter's tools/entry-limit-harness), so 3 s passes it, and a seed set a fifth
  /// larger fails.
  public var seedSecondsToEnabled = 3.0
  /// The device profile the seed set's time is projected on (`Datasets/devices`): the slower
  /// of the two measured phones, so a budget met there is met on both.
  public var device = "iphone13"
  /// The most entries one request may carry: iOS's loader fails at 2,000,000 (iOS 26.1's CDXLoadExtensionDataOperation, in EthanArbuckle/iPhone18-3_26.1_23B85_Restore).
  public var entriesPerRequest = SystemLimits.maximumAllowedEntries - 1
  /// The most requests the whole set may take past the cap: 10 requests carry 20 M entries,
  /// minutes on an iPhone 13; each is a complete load the user waits through.
  public var requests = 10
  /// The most an update may download, as a share of a full install (0…1). Patches are
  /// compressed and bases are not, so even a directory replaced outright downloads about 37% of a
  /// full install through patches, while a 20% churn downloads 8% (500,000 rows, measured by
  /// `calldir gate`): 25% passes routine changes three times over and fails a wholesale one.
  public var updateShare = 0.25
  /// The most numbers an update may change (added, removed or relabelled), as a share of the
  /// numbers clients hold (0…; ``EntryChanges``). The gate's data trials churn at most 20%
  /// (new rows, relabels, removals and longer labels, a quarter each), which changes 20%;
  /// a directory replaced outright changes 200%. 50% passes the trials two and a half times
  /// over and fails a replacement four times over.
  public var changedEntriesShare = 0.5
  /// What a new user downloads, in bytes: every current base, as `calldir publish` ships them
  /// (whole). 2GIS shipped its 4,000,000 numbers with names as 40 MB compressed
  /// (habr.com/ru/post/323050), the largest directory of the field figures: 40 MiB holds that.
  public var fullInstallBytes = 40 * 1_048_576
  /// The mean bytes of a label, over the labelled entries: 2GIS's 4 M numbers with names were
  /// 140 MB of text (35 bytes a line with its number, 2GIS, habr.com/ru/post/323050); 64 leaves room twice over.
  public var labelBytesPerEntry = 64.0
  /// Live Caller ID Lookup, from the processor's log (`--lcidl-log`): the slowest shard's
  /// median server time per query on one thread, milliseconds. The phone waits for the block
  /// answer before it rings. Apple's processor on calldir's export of 10,001 identities answered
  /// in 40–49 ms a shard on this project's loaded two-core machine, and 399–640 ms once one
  /// 60 KB icon sized every bucket (the LiveCallerIDLookup article's table): 250 ms passes the
  /// first five times over and fails the second.
  public var lcidlServerMilliseconds = 250.0
  /// The largest reply to one query, kilobytes (1,000 bytes), from the processor's log: what
  /// every call downloads through Apple's relay for each dataset. Small values reply in
  /// 24.6 KB; one 60 KB icon made every identity reply 763 KB (the same table): 400 KB fails
  /// it and passes replies of a few kilobytes' icons.
  public var lcidlResponseKB = 400.0

  /// The defaults.
  public init() {}

  /// The footprint budget, in bytes: the memory limit less the margin.
  public var footprintBytes: Int {
    Int((Double(memoryLimitBytes) * (1 - footprintMargin)).rounded(.down))
  }
}

/// The A/B thresholds `calldir gate` holds a calldir change to, on the same data.
public struct CodeThresholds: Sendable, Equatable {
  /// The load time's rise tolerated (a fraction): the whole 95% interval past it fails.
  public var maximumRegression = ABComparison.defaultMaximumRegression
  /// The instructions per entry's rise tolerated (a fraction).
  public var maximumCountRegression = BenchBaseline.defaultMaximumCountRegression
  /// Runs per build and strategy.
  public var repeats = 5

  /// The defaults.
  public init() {}
}
