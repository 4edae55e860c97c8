import CallDirectoryApp
import CallDirectoryCore
import CallDirectoryHost
import Datasets
import DirectoryContainer
import Foundation
import ProcessMetrics
import ProcessSpawning

/// `calldir bench --two-phase`: per repeat, a fresh simulated system; enable (phase one: the seed
/// set, then a lookup that answers), sync (phase two: the full set), then a new version of one
/// region synced incrementally. One CSV row per phase.
public struct TwoPhaseBench {
  public let configuration: BenchConfiguration
  public let regions: Int
  public let seedEntries: Int
  public let blockingEntries: Int
  /// Compact bases (the compiler's default) or fixed-width ones.
  public let compact: Bool
  /// A container a team compiled, benched instead of a generated one (`--container`).
  public let container: String?
  public let binaryDirectory: String
  public let log: (String) -> Void
  /// What the simulated system's cap counts.
  package var capScope = CheckingContext.CapScope.perRequest
  /// The device the requests are projected onto, if any.
  public var device: DeviceProfile?
  /// Split the set by number range across this many extensions (nil: one).
  public var extensions: Int?
  /// Entries each request past the cap adds (nil: the app's default).
  public var chunkEntries: Int?
  /// Hears where the bench is: the repeats done of ``BenchConfiguration/repeats`` and the step
  /// under way ("run 2 of 3: the full set"), at each step's start and once at the end.
  public var progress: (_ repeatsDone: Int, _ step: String) -> Void = { _, _ in }

  /// The `strategy` column: `two-phase-rREGIONS`, with `-xK` for K extensions.
  func strategyName(regions: Int) -> String {
    "two-phase-r\(regions)" + (extensions.map { "-x\($0)" } ?? "")
  }
  /// The bundle identifier the runs use.
  public static let bundleID = "dev.calldir.bench.directory"

  public init(
    configuration: BenchConfiguration, regions: Int, seedEntries: Int, blockingEntries: Int,
    compact: Bool = true, container: String? = nil,
    binaryDirectory: String = SiblingExecutables.directory(), log: @escaping (String) -> Void
  ) {
    self.compact = compact
    self.container = container
    self.configuration = configuration
    self.regions = regions
    self.seedEntries = seedEntries
    self.blockingEntries = blockingEntries
    self.binaryDirectory = binaryDirectory
    self.log = log
  }

  public func run() async throws -> [RunRecord] {
    try configuration.validate()
    let executable = try BenchRunner(configuration: configuration, binaryDirectory: binaryDirectory)
      .binaryPath(BenchStrategy.extensionBinary)
    let environment = BenchRunner.environmentFields()
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "calldir-two-phase-\(getpid())")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let dataset: TwoPhaseDataset.Files
    var regions = self.regions
    progress(0, "preparing the container")
    if let container {
      (dataset, regions) = try CompiledContainerInput.prepare(
        container, scratch: scratch.path + "/compiled")
      log(
        String(
          format: "container %@: %d regions, %.2f bytes per entry", container, regions,
          dataset.baseBytesPerEntry))
    } else {
      dataset = try TwoPhaseDataset(
        parameters: configuration.parameters, regions: regions, seedEntries: seedEntries,
        blockingEntries: blockingEntries, compact: compact
      ).ensure(cacheRoot: configuration.cacheRoot, log: log)
      log(
        String(
          format: "container: %d regions, %@ bases, %.2f bytes per entry", regions,
          compact ? "compact" : "fixed-width", dataset.baseBytesPerEntry))
    }
    progress(0, "the idle extension")
    let idle = try idlePeak(executable: executable, scratch: scratch.path)
    log("idle extension (empty container): peak RSS \(ByteCount.format(idle))")
    var records: [RunRecord] = []
    for repeatIndex in 1...configuration.repeats {
      let host = scratch.appendingPathComponent("host-\(repeatIndex)").path
      let run = try TwoPhaseRepeat(
        bench: self, index: repeatIndex, host: host, dataset: dataset, regions: regions,
        executable: executable, environment: environment, idle: idle)
      let step = "run \(repeatIndex) of \(configuration.repeats)"
      progress(repeatIndex - 1, step + ": enabling")
      let seedRows = try run.enable()
      progress(repeatIndex - 1, step + ": the full set")
      let (fullRows, phaseTwo) = try await run.syncFullSet()
      progress(repeatIndex - 1, step + ": the update")
      let updateRows = try await run.syncUpdate()
      records += seedRows + fullRows + updateRows
      log(
        String(
          format:
            "run %d/%d: enabled in %.3f s, full (%d entries) in %.3f s (ingest %.3f s, commit %.3f s), all (%d requests, %d entries) in %.3f s, incremental %.3f s; footprint %@ / %@ / %@",
          repeatIndex, configuration.repeats, run.timeToEnabled,
          phaseTwo.runs.map(\.entries).reduce(0, +), phaseTwo.timeToFull,
          phaseTwo.runs.map(\.ingestSeconds).reduce(0, +),
          phaseTwo.runs.map(\.commitSeconds).reduce(0, +), run.requests - updateRows.count,
          fullRows.last?.installedEntries ?? 0, fullRows.last?.timeToAllSeconds ?? 0,
          updateRows.map(\.wallSeconds).reduce(0, +),
          ByteCount.format(seedRows.map(\.footprintPeakBytes).max() ?? 0),
          ByteCount.format(fullRows.map(\.footprintPeakBytes).max() ?? 0),
          ByteCount.format(updateRows.map(\.footprintPeakBytes).max() ?? 0)))
      try? FileManager.default.removeItem(atPath: host)
      // The next repeat starts again from the pristine manifest (version 1 of every base).
    }
    progress(configuration.repeats, "done")
    return records
  }

  /// The extension's peak RSS serving an empty container.
  func idlePeak(executable: String, scratch: String) throws -> Int {
    let container = scratch + "/empty-container"
    try ContainerTransaction(container: container).commit(Manifest())
    var peaks: [Double] = []
    for index in 0..<3 {
      let system = try SimulatedSystem(hostDirectory: scratch + "/idle-host-\(index)")
      system.allocator = configuration.allocator
      let result = try system.enable(
        Self.bundleID, runner: .process(executable: executable, container: container))
      if result.succeeded { peaks.append(Double(result.peakRSSBytes)) }
    }
    return Int(Statistics.median(peaks) ?? 0)
  }
}

/// The two-phase report: a table per phase, and the gate.
public enum TwoPhaseReport {
  /// The default time-to-enabled target, in seconds (`bench two-phase --gate`, and the line
  /// `calldir chart` draws): the seed set is there so that enabling feels instant.
  public static let defaultMaximumTimeToEnabled = 1.0

  /// How many extensions a run synced: one `full` row per extension in each repeat.
  public static func extensionCount(_ records: [RunRecord]) -> Int {
    guard let first = records.first else { return 0 }
    // One container's (a sweep of --regions 3,300 is one extension and two containers).
    return records.filter {
      $0.phase == "full" && $0.repeatIndex == first.repeatIndex && $0.strategy == first.strategy
    }.count
  }

  /// A row per container (`two-phase-rK`, one per `--regions` value) and phase.
  public static func render(_ records: [RunRecord], title: String) -> String {
    var lines = [title, ""]
    var rows: [[String]] = []
    var strategies: [String] = []
    for record in records where !strategies.contains(record.strategy) {
      strategies.append(record.strategy)
    }
    for strategy in strategies {
      for phase in ["seed", "full", "chunk", "incremental"] {
        let runs = records.filter { $0.strategy == strategy && $0.phase == phase }
        guard !runs.isEmpty else { continue }
        let ok = runs.filter { $0.status == .ok }
        func median(_ values: [Double]) -> Double? { Statistics.median(values) }
        let wall = ok.map(\.wallSeconds)
        rows.append([
          strategy, phase, "\(ok.count)/\(runs.count)", ok.first.map { String($0.entries) } ?? "–",
          median(wall).map { String(format: "%.3f", $0) } ?? "–",
          wall.min().map { String(format: "%.3f", $0) } ?? "–",
          wall.max().map { String(format: "%.3f", $0) } ?? "–",
          CountText.rate(median(ok.map(\.entriesPerSecond))),
          CountText.rate(median(ok.compactMap(\.hostIngestPerSecond))),
          BenchReport.bytes(median(runs.map { Double($0.footprintPeakBytes) }).map { Int($0) }),
          BenchReport.bytes(runs.map(\.footprintPeakBytes).max()),
          BenchReport.bytes(median(ok.map { Double($0.rssOverIdleBytes) }).map { Int($0) }),
        ])
      }
    }
    lines += BenchReport.table(
      header: [
        "container", "phase", "runs", "entries", "wall s median", "min", "max", "entries/s",
        "ingest/s",
        "footprint median", "max", "RSS over idle",
      ], rows: rows)
    let enabled = Statistics.median(
      records.filter { $0.phase == "seed" }.compactMap(\.timeToEnabledSeconds))
    let full = Statistics.median(
      records.filter { $0.phase == "full" }.compactMap(\.timeToFullSeconds))
    lines.append("")
    lines.append(
      "time to enabled (enable → seed set committed, lookup answers): median "
        + (enabled.map { String(format: "%.3f s", $0) } ?? "–"))
    lines.append(
      "time to full (enable → full set committed): median "
        + (full.map { String(format: "%.3f s", $0) } ?? "–"))
    func medianSeconds(_ values: [Double]) -> String {
      Statistics.median(values).map { String(format: "%.3f s", $0) } ?? "–"
    }
    let lastRows = records.filter { $0.timeToAllSeconds != nil }
    // Past the cap or over several extensions, everything is in only after more requests than
    // the full set's one.
    let extensions = extensionCount(records)
    if records.contains(where: { $0.phase == "chunk" }) || extensions > 1 {
      let installed = Statistics.median(
        lastRows.compactMap { $0.installedEntries.map(Double.init) })
      lines.append(
        "time to all (enable → every chunk and extension committed): median \(medianSeconds(lastRows.compactMap(\.timeToAllSeconds))), "
          + "\(installed.map { String(Int($0)) } ?? "–") entries installed in \(lastRows.first?.requests ?? 0) requests (cap \(records.first?.capScope ?? "?")\(extensions > 1 ? ", \(extensions) extensions" : ""))"
      )
    }
    if let device = records.first(where: { !$0.device.isEmpty })?.device {
      lines.append(
        "projected on \(device): time to enabled \(medianSeconds(records.compactMap(\.deviceTimeToEnabledSeconds))), "
          + "time to all \(medianSeconds(records.compactMap(\.deviceTimeToAllSeconds))) (device rates, request by request)"
      )
    }
    for run in records where run.status != .ok {
      lines.append(
        "  repeat \(run.repeatIndex) \(run.phase): \(run.status.rawValue): \(run.detail)")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
