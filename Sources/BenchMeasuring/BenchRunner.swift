import CallDirectoryHost
import Datasets
import ExtensionReport
import Foundation
import ProcessMetrics
import ProcessSpawning

/// Runs the benchmark: prepares the dataset, measures each binary idle, then runs every strategy
/// `repeats` times, interleaved (repeat 1 of every strategy, then repeat 2, …) so that a noisy
/// moment of the machine does not land on one strategy only.
public struct BenchRunner {
  /// What to run.
  public let configuration: BenchConfiguration
  /// The folder holding `calldir-extension` and `calldir-baselines`.
  public let binaryDirectory: String
  /// Receives progress lines (the CLI prints them on stderr).
  public let log: (String) -> Void
  /// Hears each run start and each phase end (``BenchProgress``): the runs done of the phase's.
  public var progress: (BenchProgress) -> Void = { _ in }

  /// Creates a runner.
  public init(
    configuration: BenchConfiguration, binaryDirectory: String = SiblingExecutables.directory(),
    log: @escaping (String) -> Void = { _ in }
  ) {
    self.configuration = configuration
    self.binaryDirectory = binaryDirectory
    self.log = log
  }

  /// The path of a measured executable.
  /// - Throws: ``BenchError`` when it is not there.
  public func binaryPath(_ name: String) throws(BenchError) -> String {
    let path = binaryDirectory + "/" + name
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw BenchError(
        "cannot find \(name) in \(binaryDirectory); build the package first (swift build -c release)"
      )
    }
    return path
  }

  /// Runs everything and returns one record per run (idle runs included).
  /// - Throws: ``BenchError`` for a missing binary or dataset problem; a child's failure is a
  ///   record with its status, not an error.
  public func run() throws -> [RunRecord] {
    try configuration.validate()
    let strategies = configuration.strategies
    // What is measured: each strategy's executable, and with --against the other build's too
    // (calldir's strategies only: the articles' readers are the same code in both).
    var measured: [Measured] = []
    for strategy in strategies {
      if let against = configuration.againstDirectory, !strategy.isBaseline {
        measured.append(
          Measured(
            strategy: strategy, build: "A",
            binary: try BenchRunner(configuration: configuration, binaryDirectory: against)
              .binaryPath(strategy.binary)))
        measured.append(
          Measured(strategy: strategy, build: "B", binary: try binaryPath(strategy.binary)))
      } else {
        measured.append(
          Measured(strategy: strategy, build: "", binary: try binaryPath(strategy.binary)))
      }
    }
    let formats = Array(Set(strategies.map(configuration.inputFormat(of:)))).sorted {
      $0.rawValue < $1.rawValue
    }
    let dataset: BenchInput
    let empty: BenchInput
    var baseVersion = configuration.baseVersion
    let scratch = NSTemporaryDirectory() + "calldir-bench-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    if let baseFile = configuration.baseFile {
      (dataset, empty, baseVersion) = try BenchInput.base(baseFile, scratch: scratch)
    } else {
      let cache = DatasetCache(root: configuration.cacheRoot)
      do {
        dataset = .dataset(
          try cache.ensure(configuration.parameters, formats: formats, log: log), configuration)
        var emptyParameters = configuration.parameters
        emptyParameters.entries = 0
        empty = .dataset(try cache.ensure(emptyParameters, formats: formats), configuration)
      } catch let error as DatasetError {
        throw BenchError(error.description)
      }
    }
    if configuration.baseFile == nil
      && configuration.parameters.entries >= configuration.maximumAllowedEntries
    {
      log(
        "note: \(configuration.parameters.entries) entries is over the cap of "
          + "\(configuration.maximumAllowedEntries - 1): runs will fail with code 5; "
          + "pass --max-entries \(configuration.parameters.entries + 1) to read it in one load")
    }

    let environment = Self.environmentFields()
    var records: [RunRecord] = []
    var idlePeak: [Measured: Int] = [:]
    let idleRuns = measured.count * configuration.idleRepeats
    var idleDone = 0
    for item in measured {
      var peaks: [Int] = []
      for index in 1...configuration.idleRepeats {
        progress(
          BenchProgress(
            phase: .idle, done: idleDone, total: idleRuns,
            step: "\(item.name), run \(index) of \(configuration.idleRepeats)"))
        idleDone += 1
        var record = try measure(
          item, input: empty, baseVersion: baseVersion, environment: environment)
        record.run = .idle
        record.repeatIndex = index
        records.append(record)
        if record.status == .ok { peaks.append(record.peakRSSBytes) }
      }
      idlePeak[item] = Statistics.median(peaks.map(Double.init)).map { Int($0) } ?? 0
      log("idle \(item.name): peak RSS \(ByteCount.format(idlePeak[item] ?? 0))")
    }
    for index in 0..<records.count {
      let item = measured.first {
        $0.strategy.rawValue == records[index].strategy && $0.build == records[index].build
      }
      records[index].idleRSSBytes = item.flatMap { idlePeak[$0] } ?? 0
    }

    progress(BenchProgress(phase: .idle, done: idleRuns, total: idleRuns, step: "done"))
    let loadRuns = measured.count * configuration.repeats
    var loadDone = 0
    for repeatIndex in 1...configuration.repeats {
      // A and B alternate which goes first (ABBA), so a drift of the machine's speed within a
      // repeat does not favour one build.
      let order = repeatIndex % 2 == 1 ? measured : Self.swappingBuilds(measured)
      for item in order {
        progress(
          BenchProgress(
            phase: .loading, done: loadDone, total: loadRuns,
            step: "\(item.name), run \(repeatIndex) of \(configuration.repeats)"))
        loadDone += 1
        var record = try measure(
          item, input: dataset, baseVersion: baseVersion, environment: environment)
        record.repeatIndex = repeatIndex
        record.idleRSSBytes = idlePeak[item] ?? 0
        records.append(record)
        let rate =
          record.status == .ok
          ? String(format: "%.2f M entries/s", record.entriesPerSecond / 1e6)
          : record.status.rawValue
        log(
          "run \(repeatIndex)/\(configuration.repeats) \(item.name): \(rate), footprint "
            + "\(ByteCount.format(record.footprintPeakBytes)), RSS over idle "
            + "\(ByteCount.format(record.rssOverIdleBytes))")
      }
    }
    progress(BenchProgress(phase: .loading, done: loadRuns, total: loadRuns, step: "done"))
    try countInstructions(
      into: &records, measured: measured, dataset: dataset, empty: empty)
    return records
  }

  /// One executable measured: a strategy, and with `--against` which build (`A` the other
  /// build, `B` this one).
  struct Measured: Hashable {
    let strategy: BenchStrategy
    let build: String
    let binary: String
    var name: String { build.isEmpty ? strategy.rawValue : "\(strategy.rawValue) (\(build))" }
  }

  /// `measured` with each A/B pair in the other order.
  static func swappingBuilds(_ measured: [Measured]) -> [Measured] {
    var swapped = measured
    var index = 0
    while index + 1 < swapped.count {
      if swapped[index].build == "A" && swapped[index + 1].build == "B" {
        swapped.swapAt(index, index + 1)
        index += 2
      } else {
        index += 1
      }
    }
    return swapped
  }

  /// One run of each counted strategy under valgrind, on the dataset and on the empty input:
  /// fills `instructions_per_entry` on the strategy's load rows.
  func countInstructions(
    into records: inout [RunRecord], measured: [Measured], dataset: BenchInput,
    empty: BenchInput
  ) throws {
    let counted = measured.filter {
      configuration.instructionCounting == .all
        || (configuration.instructionCounting == .auto && !$0.strategy.isBaseline)
    }
    guard !counted.isEmpty else { return }
    let counter: InstructionCounter
    switch InstructionCounter.find(scratch: NSTemporaryDirectory() + "calldir-count-\(getpid())")
    {
    case .success(let found): counter = found
    case .failure(let error):
      if configuration.instructionCounting == .all { throw error }
      log("note: instructions per entry not counted: \(error.description)")
      return
    }
    defer { try? FileManager.default.removeItem(atPath: counter.scratch) }
    for (place, item) in counted.enumerated() {
      progress(
        BenchProgress(
          phase: .counting, done: place, total: counted.count, step: "\(item.name) under valgrind"))
      func instructions(_ input: BenchInput) throws -> (Int, Int) {
        let (count, outcome) = try counter.count(
          binary: item.binary,
          arguments: item.strategy.arguments(
            input: input.path(item.strategy), kind: configuration.parameters.kind,
            maximumAllowedEntries: configuration.maximumAllowedEntries),
          environment: childEnvironment(item),
          timeoutSeconds: max(600, configuration.timeoutSeconds * 50))
        let entries = outcome.report.flatMap(LoadReport.init(parsing:))?.entries ?? 0
        return (count, entries)
      }
      let (idle, _) = try instructions(empty)
      let (load, entries) = try instructions(dataset)
      guard entries > 0 else { continue }
      let perEntry = Double(load - idle) / Double(entries)
      log(String(format: "counted %@: %.2f instructions per entry", item.name, perEntry))
      for index in records.indices
      where records[index].strategy == item.strategy.rawValue
        && records[index].build == item.build && records[index].run == .load
      {
        records[index].instructionsPerEntry = perEntry
      }
    }
    progress(
      BenchProgress(phase: .counting, done: counted.count, total: counted.count, step: "done"))
  }

  /// The environment of `item`'s child. A planted regression (`CALLDIR_PLANTED_WORK`, see
  /// `Scripts/gate-trials.py`) is this build's: the other build's runs (A) never get it, so an
  /// A/B run shows whether it is caught.
  func childEnvironment(_ item: Measured) -> [String] {
    var environment = ProcessInfo.processInfo.environment
    if item.build == "A" { environment["CALLDIR_PLANTED_WORK"] = nil }
    return configuration.allocator.childEnvironment(from: environment)
  }

  /// Runs one child and turns its outcome into a record.
  func measure(
    _ item: Measured, input: BenchInput, baseVersion: Int, environment: [String: String]
  ) throws -> RunRecord {
    let strategy = item.strategy
    let binary = item.binary
    let fileBytes = input.byteCount(strategy)
    let input = input.path(strategy)
    let arguments = strategy.arguments(
      input: input, kind: configuration.parameters.kind,
      maximumAllowedEntries: configuration.maximumAllowedEntries)
    let limits = ChildProcess.Limits(
      memoryLimitBytes: configuration.memoryLimitBytes, timeoutSeconds: configuration.timeoutSeconds
    )
    let outcome: ChildProcess.Outcome
    do {
      outcome = try ChildProcess.run(
        executable: binary, arguments: arguments, limits: limits,
        environment: childEnvironment(item))
    } catch {
      throw BenchError("\(error)")
    }
    var record = RunRecord(environment: environment, configuration: configuration)
    record.fileBytes = fileBytes
    record.strategy = strategy.rawValue
    record.binary = strategy.binary
    if !strategy.isBaseline { record.baseVersion = baseVersion }
    record.build = item.build
    Self.fill(&record, from: outcome)
    return record
  }

  /// Copies a child's outcome and report into a record and decides its status.
  static func fill(_ record: inout RunRecord, from outcome: ChildProcess.Outcome) {
    record.wallSeconds = outcome.wallSeconds
    record.userSeconds = outcome.userSeconds
    record.systemSeconds = outcome.systemSeconds
    record.ruMaxRSSBytes = outcome.maxResidentBytes
    record.sampledFootprintPeakBytes = outcome.sampledFootprintPeakBytes
    record.samples = outcome.sampleCount
    record.sampleHz = outcome.sampleRate
    record.exitCode = outcome.exitCode.map(Int.init)
    record.signal = outcome.signal.map(Int.init)
    let report = outcome.report.flatMap(LoadReport.init(parsing:))
    if let report {
      record.entries = report.entries
      record.loadSeconds = Double(report.loadNanoseconds) / 1e9
      record.entriesPerSecond =
        record.loadSeconds > 0 ? Double(report.entries) / record.loadSeconds : 0
      record.childPeakRSSBytes = report.peakResidentBytes
      record.childFootprintBytes = report.anonymousBytes + report.sharedMemoryBytes
      record.rssFileBytes = report.fileBytes
      record.heapPeakBytes = report.heapPeakBytes
      record.allocations = report.allocations
      // What the child found loaded, which is what its figures were measured with.
      record.allocator = report.allocator
      record.errorCode = report.errorCode
      if let start = report.startMonotonicNanoseconds, outcome.spawnedAtNanoseconds > 0,
        start > outcome.spawnedAtNanoseconds
      {
        record.startupSeconds = Double(start - outcome.spawnedAtNanoseconds) / 1e9
      }
      record.startupCPUSeconds = report.startCPUNanoseconds.map { Double($0) / 1e9 }
    }
    record.peakRSSBytes =
      record.childPeakRSSBytes > 0
      ? record.childPeakRSSBytes : max(outcome.maxResidentBytes, outcome.sampledPeakResidentBytes)
    record.footprintPeakBytes = max(record.sampledFootprintPeakBytes, record.childFootprintBytes)
    let stderrLine = outcome.standardError.split(separator: "\n").last.map(String.init) ?? ""
    switch (outcome.killedFor, outcome.signal, outcome.exitCode) {
    case (.memory?, _, _):
      record.status = .killedMemory
      record.detail =
        "footprint \(ByteCount.format(record.sampledFootprintPeakBytes)) passed the limit "
        + ByteCount.format(record.memoryLimitBytes)
    case (.timeout?, _, _):
      record.status = .timedOut
      record.detail = String(format: "killed after %.1f s", outcome.wallSeconds)
    case (nil, let signal?, _):
      record.status = .crashed
      record.detail =
        "signal \(signal) (\(signalName(signal)))" + (stderrLine.isEmpty ? "" : ": \(stderrLine)")
    case (nil, nil, 0?) where report != nil:
      record.status = .ok
    default:
      record.status = .failed
      record.detail =
        report?.message
        ?? (stderrLine.isEmpty ? "exit status \(outcome.exitCode ?? -1), no report" : stderrLine)
    }
  }

  /// Timestamp (ISO 8601, UTC), commit (`git rev-parse --short HEAD`, empty outside a checkout)
  /// and host name, shared by every row of one invocation.
  static func environmentFields() -> [String: String] {
    let formatter = ISO8601DateFormatter()
    var hostBuffer = [CChar](repeating: 0, count: 256)
    // Safe: gethostname writes at most count - 1 bytes into the 256-byte buffer it is lent.
    unsafe gethostname(&hostBuffer, hostBuffer.count - 1)
    let host = String(
      decoding: hostBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return ["timestamp": formatter.string(from: Date()), "commit": gitCommit(), "host": host]
  }

  static func gitCommit() -> String {
    firstLine(ofCommand: ["git", "rev-parse", "--short", "HEAD"]) ?? ""
  }

  /// The first line a command prints on stdout (found through PATH), or nil when it cannot run
  /// or fails.
  static func firstLine(ofCommand arguments: [String]) -> String? {
    ToolOutput.text(of: arguments)?.split(separator: "\n").first.map {
      $0.trimmingCharacters(in: .whitespaces)
    }
  }

}

/// The conventional name of a signal number (`SIGKILL`), or `signal N`.
func signalName(_ signal: Int32) -> String {
  let names: [Int32: String] = [
    SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGILL: "SIGILL", SIGKILL: "SIGKILL",
    SIGSEGV: "SIGSEGV", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP", SIGINT: "SIGINT",
    SIGPIPE: "SIGPIPE",
  ]
  return names[signal] ?? "signal \(signal)"
}
