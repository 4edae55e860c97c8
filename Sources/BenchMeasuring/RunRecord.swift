import Foundation

/// One run of one strategy: a row of the bench CSV. Every field is raw, per run; summaries are
/// computed from these rows, never stored instead of them.
public struct RunRecord: Equatable, Sendable {
  /// How a run ended.
  public enum Status: String, Sendable, CaseIterable {
    /// The child completed the request.
    case ok
    /// The child exited with an error: bad input or a request the context failed.
    case failed
    /// The harness killed it for passing the memory limit.
    case killedMemory = "killed-memory"
    /// A signal the harness did not send ended it (`signal` says which).
    case crashed
    /// The harness killed it for running past the time limit.
    case timedOut = "timed-out"
  }

  /// `idle` (the binary on an empty input, for the RSS baseline) or `load`.
  public enum RunKind: String, Sendable {
    case idle, load
  }

  public var timestamp: String = ""
  public var commit: String = ""
  public var host: String = ""
  public var profile: String = ""
  /// Entries the child handed to the context.
  public var entries: Int = 0
  /// Size of the input file, in bytes.
  public var fileBytes: Int = 0
  public var strategy: String = ""
  /// The executable's name (`calldir-extension`, `calldir-baselines`).
  public var binary: String = ""
  /// 1-based repeat number (0 for idle runs).
  public var repeatIndex: Int = 0
  public var run: RunKind = .load
  /// Spawn to reap, in seconds.
  public var wallSeconds: Double = 0
  /// The child's own monotonic time around its load, in seconds.
  public var loadSeconds: Double = 0
  public var userSeconds: Double = 0
  public var systemSeconds: Double = 0
  /// `entries / load_s`.
  public var entriesPerSecond: Double = 0
  /// Peak RSS: the child's own `VmHWM`, or `ru_maxrss` when it did not report, in bytes.
  public var peakRSSBytes: Int = 0
  /// The same binary's median peak RSS on an empty input, in bytes.
  public var idleRSSBytes: Int = 0
  /// The higher of the sampled peak and the child's last reading of `RssAnon + RssShmem`.
  public var footprintPeakBytes: Int = 0
  /// jemalloc's `thread.peak` for the loading thread, in bytes; nil without jemalloc.
  public var heapPeakBytes: Int?
  public var memoryLimitBytes: Int = 0
  /// The allocator the child ran on: `jemalloc` or `system`. Heap and footprint figures compare
  /// only between runs on the same one.
  public var allocator: String = ""
  public var status: Status = .ok
  /// `ru_maxrss` from `wait4`, in bytes.
  public var ruMaxRSSBytes: Int = 0
  /// The child's own `VmHWM`, in bytes (0 when it did not report).
  public var childPeakRSSBytes: Int = 0
  /// Highest footprint the parent sampled, in bytes.
  public var sampledFootprintPeakBytes: Int = 0
  /// The child's last footprint reading, in bytes.
  public var childFootprintBytes: Int = 0
  /// The child's `RssFile` at the end, in bytes.
  public var rssFileBytes: Int = 0
  public var samples: Int = 0
  public var sampleHz: Double = 0
  public var exitCode: Int?
  public var signal: Int?
  /// iOS's error code when the context failed the request.
  public var errorCode: Int?
  /// A one-line explanation for a run that did not end `ok`.
  public var detail: String = ""
  /// Two-phase runs: `seed`, `full` or `incremental`; empty otherwise.
  public var phase: String = ""
  /// Two-phase runs: enable → seed set committed and a lookup answers, in seconds.
  public var timeToEnabledSeconds: Double?
  /// Two-phase runs: enable → full set committed, in seconds.
  public var timeToFullSeconds: Double?
  /// Two-phase runs: entries per second written into the host's SQLite store.
  public var hostIngestPerSecond: Double?
  /// Allocation requests during the load (jemalloc's counters); nil without jemalloc.
  public var allocations: Int?
  /// Instructions per entry of the strategy: one run under valgrind, minus the binary's idle
  /// run, over the entries; the same on every row of a strategy, nil when not counted.
  public var instructionsPerEntry: Double?
  /// The format version of the base the run read (1 fixed width, 3 compact); nil for inputs
  /// that are not bases.
  public var baseVersion: Int?
  /// A/B runs (`--against`): `A` for the other build's executables, `B` for this build's; empty
  /// otherwise.
  public var build: String = ""
  /// Two-phase runs: entries in the store after the request.
  public var installedEntries: Int?
  /// Two-phase runs: requests made since the extension was enabled, this one included.
  public var requests: Int?
  /// Two-phase runs: enable → every chunk of the full set committed, in seconds.
  public var timeToAllSeconds: Double?
  /// Two-phase runs: what the system's cap counts (`per-request` or `per-extension`).
  public var capScope: String = ""
  /// Two-phase runs with `--device`: the device profile projected onto.
  public var device: String = ""
  /// The request's projected time on ``device``, in seconds.
  public var deviceProjectedSeconds: Double?
  /// Projected enable → seed set committed on ``device``, in seconds.
  public var deviceTimeToEnabledSeconds: Double?
  /// Projected enable → every chunk committed on ``device``, in seconds.
  public var deviceTimeToAllSeconds: Double?
  /// Spawn to the load's start (exec, dynamic linking, the runtime, arguments, the context), in
  /// seconds: the parent's clock before `posix_spawn` against the child's when it starts
  /// loading; the first entry follows within the base's first block.
  public var startupSeconds: Double?
  /// The CPU time the child had used when its load started (exec → load start, every thread),
  /// in seconds. Waiting for a core is not in it, so it reads the same on a loaded machine: the
  /// gate's startup check reads this, not ``startupSeconds``.
  public var startupCPUSeconds: Double?

  /// `allocations / entries`, when both are known.
  public var allocationsPerEntry: Double? {
    guard let allocations, entries > 0 else { return nil }
    return Double(allocations) / Double(entries)
  }

  public init() {}

  /// A row stamped with the run's environment (`timestamp`, `commit`, `host`, from
  /// ``BenchRunner/environmentFields()``) and the configuration's profile, memory limit and
  /// allocator.
  init(environment: [String: String], configuration: BenchConfiguration) {
    timestamp = environment["timestamp"] ?? ""
    commit = environment["commit"] ?? ""
    host = environment["host"] ?? ""
    profile = configuration.profileName
    memoryLimitBytes = configuration.memoryLimitBytes
    allocator = configuration.allocator.description
  }

  /// Peak RSS over the binary's idle peak, in bytes.
  public var rssOverIdleBytes: Int { peakRSSBytes - idleRSSBytes }
}
