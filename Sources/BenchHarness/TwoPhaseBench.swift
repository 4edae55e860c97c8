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
  public var capScope = CheckingContext.CapScope.perExtension
  /// The device the requests are projected onto, if any.
  public var device: DeviceProfile?
  /// Split the set by number range across this many extensions (nil: one).
  public var extensions: Int?

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

  public func run() throws -> [RunRecord] {
    try configuration.validate()
    let executable = try BenchRunner(configuration: configuration, binaryDirectory: binaryDirectory)
      .binaryPath(BenchStrategy.extensionBinary)
    let environment = BenchRunner.environmentFields()
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "calldir-two-phase-\(getpid())")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let dataset: TwoPhaseDataset.Files
    var regions = self.regions
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
    let idle = try idlePeak(executable: executable, scratch: scratch.path)
    log("idle extension (empty container): peak RSS \(ByteCount.format(idle))")
    var records: [RunRecord] = []
    for repeatIndex in 1...configuration.repeats {
      let host = scratch.appendingPathComponent("host-\(repeatIndex)").path
      let container = dataset.container
      try? FileManager.default.removeItem(atPath: container + "/" + "manifest.cdm")
      try FileManager.default.copyItem(
        atPath: container + "/manifest.pristine", toPath: container + "/manifest.cdm")
      let system = try SimulatedSystem(hostDirectory: host)
      system.limits.memoryLimitBytes = configuration.memoryLimitBytes
      system.limits.timeoutSeconds = configuration.timeoutSeconds
      system.allocator = configuration.allocator
      system.contract.maximumAllowedEntries = configuration.maximumAllowedEntries
      system.contract.capScope = capScope
      let app = ContainerApp(container: container)
      // Each repeat starts with no parts and no journal from the one before.
      try? FileManager.default.removeItem(atPath: container + "/" + ContainerApp.partsFolder)
      try? FileManager.default.removeItem(atPath: container + "/" + ExtensionJournal.fileName)
      let targets: [(app: ContainerApp, bundleID: String)] =
        try extensions.map { count in
          try app.split(into: count).enumerated().map { ($1, Self.bundleID + ".\($0 + 1)") }
        } ?? [(app, Self.bundleID)]
      var requests = 0
      var installed: [String: Int] = [:]
      var deviceClock = 0.0

      func record(_ phase: String, _ result: RequestResult, _ bundleID: String) -> RunRecord {
        requests += 1
        var row = RunRecord(environment: environment, configuration: configuration)
        row.strategy = strategyName(regions: regions)
        row.binary = BenchStrategy.extensionBinary
        row.repeatIndex = repeatIndex
        row.phase = phase
        row.entries = result.entries
        row.wallSeconds = result.wallSeconds
        row.loadSeconds = result.wallSeconds
        row.entriesPerSecond =
          result.wallSeconds > 0 ? Double(result.entries) / result.wallSeconds : 0
        row.peakRSSBytes = result.peakRSSBytes
        row.idleRSSBytes = idle
        row.footprintPeakBytes = result.footprintPeakBytes
        row.sampledFootprintPeakBytes = result.footprintPeakBytes
        row.hostIngestPerSecond = result.ingestRate
        row.status =
          result.succeeded
          ? .ok : (result.killedFor == .memory ? .killedMemory : .failed)
        row.errorCode = result.error?.code
        row.detail = result.detail
        row.requests = requests
        row.capScope = capScope.rawValue
        // What the store holds after this request (every extension together), from what each
        // request did: the rows are written once a sync's requests are all done.
        if result.succeeded {
          let held = installed[bundleID, default: 0]
          installed[bundleID] =
            result.incremental ? held + result.entries - result.removals : result.entries
        }
        row.installedEntries = installed.values.reduce(0, +)
        if let device {
          // Removals have no published rate: counted at the blocking rate, the faster one.
          let projected = device.projectedSeconds(
            identification: result.identificationEntries,
            blocking: result.blockingEntries + result.removals)
          deviceClock += projected
          row.device = device.name
          row.deviceProjectedSeconds = projected
        }
        return row
      }

      // Phase one: each extension turned on (several extensions: one after the other).
      let started = Date()
      var seedRows: [RunRecord] = []
      for target in targets {
        let seed = try target.app.enable(
          system: system, bundleID: target.bundleID, executable: executable)
        seedRows.append(record("seed", seed, target.bundleID))
      }
      let answered = try system.lookup(dataset.seedNumber)
      let timeToEnabled = Date().timeIntervalSince(started)
      if case .unknown = answered, seedRows.allSatisfy({ $0.status == .ok }) {
        seedRows[0].status = .failed
        seedRows[0].detail = "the seed number is unknown after enabling"
      }
      for index in seedRows.indices {
        seedRows[index].timeToEnabledSeconds = timeToEnabled
        if device != nil { seedRows[index].deviceTimeToEnabledSeconds = deviceClock }
      }
      records += seedRows

      // Phase two (a complete request up to the cap), then the chunks past it, per extension.
      var fullRows: [RunRecord] = []
      var phaseTwoCommits: [Date] = []
      var lastCommit = started
      var phaseTwoRuns: [RequestResult] = []
      for target in targets {
        let full = try target.app.sync(
          system: system, bundleID: target.bundleID, executable: executable)
        guard let first = full.first else {
          var row = record(
            "full", RequestResult(refused: .unknown, detail: "", incremental: false),
            target.bundleID)
          row.status = .failed
          row.detail = "phase two did not run"
          fullRows.append(row)
          continue
        }
        phaseTwoRuns.append(first)
        phaseTwoCommits.append(first.committedAt ?? Date())
        fullRows.append(record("full", first, target.bundleID))
        for chunk in full.dropFirst() {
          var row = record("chunk", chunk, target.bundleID)
          // A chunk the system killed and the app retried smaller, or the cap reached (error
          // 5), is the plan working: the row keeps its error code, and the run goes on.
          if chunk.error?.code == 2 || chunk.error?.code == 5 { row.status = .ok }
          fullRows.append(row)
        }
        lastCommit = max(lastCommit, full.last { $0.succeeded }?.committedAt ?? lastCommit)
      }
      // Enable → every extension's phase two committed (COMMIT returned), not counting the
      // store's checkpoint and the app's bookkeeping that follow it.
      let timeToFull = (phaseTwoCommits.max() ?? Date()).timeIntervalSince(started)
      for index in fullRows.indices where fullRows[index].phase == "full" {
        fullRows[index].timeToEnabledSeconds = timeToEnabled
        fullRows[index].timeToFullSeconds = timeToFull
      }
      fullRows[fullRows.count - 1].timeToAllSeconds = lastCommit.timeIntervalSince(started)
      if device != nil { fullRows[fullRows.count - 1].deviceTimeToAllSeconds = deviceClock }
      records += fullRows

      // A new version of one region, synced incrementally by the extensions whose part changed.
      try app.stage(
        file: dataset.updatedRegionFile, name: dataset.updatedRegion.name, role: .region,
        region: dataset.updatedRegion.code, priority: dataset.updatedRegion.priority, version: 2)
      if let extensions { try app.split(into: extensions) }
      var updateRows: [RunRecord] = []
      for target in targets {
        let update = try target.app.sync(
          system: system, bundleID: target.bundleID, executable: executable)
        guard let first = update.first else { continue }
        var row = record("incremental", first, target.bundleID)
        if update.count > 1 {
          row.status = .failed
          row.detail = "the update took \(update.count) requests"
        }
        if !first.incremental {
          row.status = .failed
          row.detail = "the update was not incremental"
        }
        updateRows.append(row)
      }
      if updateRows.isEmpty {
        var row = record(
          "incremental", RequestResult(refused: .unknown, detail: "", incremental: true), "")
        row.status = .failed
        row.detail = "no extension synced the update"
        updateRows.append(row)
      }
      records += updateRows
      log(
        String(
          format:
            "run %d/%d: enabled in %.3f s, full (%d entries) in %.3f s (ingest %.3f s, commit %.3f s), all (%d requests, %d entries) in %.3f s, incremental %.3f s; footprint %@ / %@ / %@",
          repeatIndex, configuration.repeats, timeToEnabled,
          phaseTwoRuns.map(\.entries).reduce(0, +), timeToFull,
          phaseTwoRuns.map(\.ingestSeconds).reduce(0, +),
          phaseTwoRuns.map(\.commitSeconds).reduce(0, +), requests - updateRows.count,
          fullRows.last?.installedEntries ?? 0, fullRows.last?.timeToAllSeconds ?? 0,
          updateRows.map(\.wallSeconds).reduce(0, +),
          ByteCount.format(seedRows.map(\.footprintPeakBytes).max() ?? 0),
          ByteCount.format(fullRows.map(\.footprintPeakBytes).max() ?? 0),
          ByteCount.format(updateRows.map(\.footprintPeakBytes).max() ?? 0)))
      try? FileManager.default.removeItem(atPath: host)
      // The next repeat starts again from the pristine manifest (version 1 of every base).
    }
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
  static func extensionCount(_ records: [RunRecord]) -> Int {
    guard let first = records.first else { return 0 }
    return records.filter { $0.phase == "full" && $0.repeatIndex == first.repeatIndex }.count
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
          BenchReport.rate(median(ok.map(\.entriesPerSecond))),
          BenchReport.rate(median(ok.compactMap(\.hostIngestPerSecond))),
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

  /// One line per failed check: every phase completed, footprint under the limit, median time
  /// to enabled under `maximumTimeToEnabled` — here, and on the device when the run projected
  /// one (`--device`): a phone that would take longer fails as this machine would.
  public static func gateFailures(_ records: [RunRecord], maximumTimeToEnabled: Double) -> [String]
  {
    var failures: [String] = []
    for run in records where run.status != .ok {
      failures.append(
        "repeat \(run.repeatIndex) \(run.phase): \(run.status.rawValue) (\(run.detail))")
    }
    for run in records where run.footprintPeakBytes > run.memoryLimitBytes {
      failures.append(
        "repeat \(run.repeatIndex) \(run.phase): footprint \(ByteCount.format(run.footprintPeakBytes)) is over the memory limit \(ByteCount.format(run.memoryLimitBytes))"
      )
    }
    if let enabled = Statistics.median(records.compactMap(\.timeToEnabledSeconds).map { $0 }),
      enabled > maximumTimeToEnabled
    {
      failures.append(
        String(
          format: "time to enabled: median %.3f s is over %.3f s", enabled, maximumTimeToEnabled))
    }
    if let projected = Statistics.median(records.compactMap(\.deviceTimeToEnabledSeconds)),
      projected > maximumTimeToEnabled
    {
      let device = records.first { !$0.device.isEmpty }?.device ?? "the device"
      failures.append(
        String(
          format: "time to enabled projected on %@: median %.3f s is over %.3f s", device,
          projected, maximumTimeToEnabled))
    }
    return failures
  }
}
