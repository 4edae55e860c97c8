import BaseFormat
import CallDirectoryCore
import CallDirectoryHost
import Datasets
import ProcessSpawning

/// Everything one `calldir bench` invocation measures and gates on.
public struct BenchConfiguration: Sendable {
  /// The profile's name, or the path it was loaded from.
  public var profileName: String
  /// The dataset, after flags have overridden the profile's values.
  public var parameters: DatasetParameters
  /// Strategies to run, in this order within each repeat.
  public var strategies: [BenchStrategy] = BenchStrategy.allCases
  /// Runs per strategy.
  public var repeats = 5
  /// Runs per binary on an empty input, for the idle RSS baseline.
  public var idleRepeats = 3
  /// The system's memory limit: a child whose footprint passes it is killed (`killed-memory`).
  public var memoryLimitBytes = SystemLimits.defaultMemoryLimitBytes
  /// The most a gated strategy's peak RSS may exceed its binary's idle peak, in bytes.
  public var rssBudgetBytes = Self.defaultRSSBudgetBytes
  /// 1 MiB of RSS over the same binary's idle peak: what a load may add to a process that is
  /// mostly shared libraries at rest (proc(5)'s VmHWM and RssAnon, measured this way on Linux).
  public static let defaultRSSBudgetBytes = 1024 * 1024
  /// Wall-time limit per run, in seconds (`timed-out`).
  public var timeoutSeconds = 120.0
  /// The system's `maximumAllowedEntries` (raise it to read a base over the cap in one load).
  public var maximumAllowedEntries = SystemLimits.maximumAllowedEntries
  /// The gate's throughput floor, in entries per second: 2GIS's 2,000,000 numbers in 10 s.
  /// An absolute time figure a default gate reads, kept because it is the field's requirement,
  /// not this machine's best: ci-smoke measured 6.2–6.7 M entries/s with six busy loops on two
  /// cores (22–32 M/s quiet), 31 times the floor.
  public var minimumEntriesPerSecond = Self.defaultMinimumEntriesPerSecond
  /// ``minimumEntriesPerSecond``'s default.
  public static let defaultMinimumEntriesPerSecond = 200_000.0
  /// The gate's ceiling on a calldir strategy's median startup CPU time (exec → load start),
  /// seconds: 10 ms, what the system's budget for a whole small reload leaves to starting.
  public var maximumStartupSeconds = Self.defaultMaximumStartupSeconds
  /// 10 ms of CPU: starting must be a small part of a reload the system times. A release
  /// extension uses about 4 ms here (the README's reference run), and six busy processes on
  /// two cores barely move that figure, where they took the wall clock past 25 ms.
  public static let defaultMaximumStartupSeconds = 0.010
  /// The allocator the measured processes run on: jemalloc when installed (the heap column is
  /// then filled), else the system's.
  public var allocator = MeasuredAllocator.automatic()
  /// Where generated datasets are kept.
  public var cacheRoot: String?
  /// The format version of the base calldir's strategies read: the compiler's own (compact,
  /// version 3) unless asked for fixed-width records (version 1).
  public var baseVersion = Int(BaseHeader.compactVersion)
  /// A base a team compiled, read by calldir's strategies instead of a generated dataset
  /// (`--base FILE`).
  public var baseFile: String?
  /// A/B: the folder of another build's measured executables (`--against`); its runs are
  /// build `A`, this build's `B`, interleaved ABBA.
  public var againstDirectory: String?
  /// Which strategies get one run counted under valgrind (``InstructionCounter``).
  public var instructionCounting = InstructionCounting.auto

  /// Creates a configuration for a dataset.
  public init(profileName: String, parameters: DatasetParameters) {
    self.profileName = profileName
    self.parameters = parameters
  }

  /// Checks the values a user can set; the message names the flag.
  /// - Throws: ``BenchError``.
  public func validate() throws(BenchError) {
    guard [Int(BaseHeader.currentVersion), Int(BaseHeader.compactVersion)].contains(baseVersion)
    else {
      throw BenchError(
        "--base-version must be \(BaseHeader.currentVersion) (fixed width) or \(BaseHeader.compactVersion) (compact), got \(baseVersion)"
      )
    }
    if baseFile != nil, let reader = strategies.first(where: \.isBaseline) {
      throw BenchError(
        "--base benches calldir's strategies (mmap, buffered); \(reader.rawValue) reads its article's own format"
      )
    }
    guard repeats >= 1 else { throw BenchError("--repeat must be at least 1, got \(repeats)") }
    guard memoryLimitBytes > 0 else { throw BenchError("--memory-limit must be above 0") }
    guard rssBudgetBytes >= 0 else { throw BenchError("--rss-budget must be 0 or more") }
    guard timeoutSeconds > 0 else { throw BenchError("--timeout must be above 0 seconds") }
    guard maximumAllowedEntries >= 1 else { throw BenchError("--max-entries must be at least 1") }
    guard minimumEntriesPerSecond >= 0 else {
      throw BenchError("--min-entries-per-s must be 0 or more")
    }
    do {
      try parameters.validate()
    } catch {
      throw BenchError(error.description)
    }
  }
}

extension BenchConfiguration {
  /// The dataset form `strategy` reads: calldir's strategies the base of ``baseVersion``.
  public func inputFormat(of strategy: BenchStrategy) -> DatasetFormat {
    guard strategy.inputFormat == .base else { return strategy.inputFormat }
    return baseVersion == Int(BaseHeader.compactVersion) ? .compactBase : .base
  }
}

/// Which strategies' instructions per entry `calldir bench` counts, with one extra run each
/// under valgrind (about 40 times slower than a timed run).
public enum InstructionCounting: String, Sendable, CaseIterable {
  /// calldir's own strategies, when valgrind is installed; none (and a note) otherwise.
  case auto
  /// Every strategy, the articles' readers too (minutes on a 2M dataset); valgrind required.
  case all
  /// None.
  case off
}
