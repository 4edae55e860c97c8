import CallDirectoryApp
import CallDirectoryCore
import CallDirectoryHost
import Datasets
import DirectoryContainer
import Foundation
import ProcessMetrics
import ProcessSpawning

/// One repeat of ``TwoPhaseBench``: a fresh simulated system over the pristine container, then
/// its three phases in order (``enable()``, ``syncFullSet()``, ``syncUpdate()``), each
/// returning its CSV rows. It counts the requests, what each extension holds, and the device's
/// projected clock across them.
final class TwoPhaseRepeat {
  let bench: TwoPhaseBench
  let repeatIndex: Int
  let dataset: TwoPhaseDataset.Files
  let regions: Int
  let executable: String
  let environment: [String: String]
  let idle: Int
  let system: SimulatedSystem
  let app: ContainerApp
  let targets: [(app: ContainerApp, bundleID: String)]
  private(set) var requests = 0
  private var installed: [String: Int] = [:]
  private var deviceClock = 0.0
  /// When enabling began, on the host's clock (the one its requests' commits are read on).
  private var started = MonotonicClock.system.nanoseconds()
  /// Enable → the seed set committed and the seed number answered, seconds.
  private(set) var timeToEnabled = 0.0

  private var configuration: BenchConfiguration { bench.configuration }

  /// Prepares the repeat: a copy of the container as generated (its pristine manifest, its
  /// bases linked; no parts or journal from the repeat before) and a simulated system, both in
  /// `host`.
  init(
    bench: TwoPhaseBench, index repeatIndex: Int, host: String, dataset: TwoPhaseDataset.Files,
    regions: Int, executable: String, environment: [String: String], idle: Int
  ) throws {
    self.bench = bench
    self.repeatIndex = repeatIndex
    self.dataset = dataset
    self.regions = regions
    self.executable = executable
    self.environment = environment
    self.idle = idle
    let configuration = bench.configuration
    let capScope = bench.capScope
    let extensions = bench.extensions
    // The repeat's own copy: the dataset's container is a cache other benches share.
    let container = host + "/container"
    try ContainerWorkingCopy.make(of: dataset.container, at: container)
    system = try SimulatedSystem(hostDirectory: host)
    system.limits.memoryLimitBytes = configuration.memoryLimitBytes
    system.limits.timeoutSeconds = configuration.timeoutSeconds
    system.allocator = configuration.allocator
    system.contract.maximumAllowedEntries = configuration.maximumAllowedEntries
    system.contract.capScope = capScope
    app = ContainerApp(container: container)
    let app = self.app
    targets =
      try extensions.map { count in
        try app.split(into: count).enumerated().map {
          ($1, TwoPhaseBench.bundleID + ".\($0 + 1)")
        }
      } ?? [(app, TwoPhaseBench.bundleID)]
    if let chunkEntries = bench.chunkEntries {
      for target in targets { try target.app.setChunk(chunkEntries) }
    }

  }

  /// A CSV row for one request of `phase` to `bundleID`, counted.
  func record(_ phase: String, _ result: RequestResult, _ bundleID: String) -> RunRecord {
    requests += 1
    var row = RunRecord(environment: environment, configuration: configuration)
    row.strategy = bench.strategyName(regions: regions)
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
    row.capScope = bench.capScope.rawValue
    // What the store holds after this request (every extension together), from what each
    // request did: the rows are written once a sync's requests are all done.
    if result.succeeded {
      let held = installed[bundleID, default: 0]
      installed[bundleID] =
        result.incremental ? held + result.entries - result.removals : result.entries
    }
    row.installedEntries = installed.values.reduce(0, +)
    if let device = bench.device {
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

  /// Phase one: each extension turned on (several extensions: one after the other), then the
  /// seed number looked up.
  /// The simulated system as `app`'s manager, spawning this run's extension.
  private func manager(for app: ContainerApp) -> SimulatedCallDirectoryManager {
    SimulatedCallDirectoryManager(system: system, executable: executable, container: app.container)
  }

  func enable() throws -> [RunRecord] {
    started = MonotonicClock.system.nanoseconds()
    var seedRows: [RunRecord] = []
    for target in targets {
      let seed = try system.enable(
        target.bundleID, runner: .process(executable: executable, container: target.app.container))
      seedRows.append(record("seed", seed, target.bundleID))
    }
    let answered = try system.lookup(dataset.seedNumber)
    timeToEnabled = MonotonicClock.system.seconds(since: started)
    if case .unknown = answered, seedRows.allSatisfy({ $0.status == .ok }) {
      seedRows[0].status = .failed
      seedRows[0].detail = "the seed number is unknown after enabling"
    }
    for index in seedRows.indices {
      seedRows[index].timeToEnabledSeconds = timeToEnabled
      if bench.device != nil { seedRows[index].deviceTimeToEnabledSeconds = deviceClock }
    }
    return seedRows

  }

  /// Phase two (a complete request up to the cap), then the chunks past it, per extension.
  func syncFullSet() async throws -> (
    rows: [RunRecord], phaseTwo: (runs: [RequestResult], timeToFull: Double)
  ) {
    var fullRows: [RunRecord] = []
    var phaseTwoCommits: [UInt64] = []
    var lastCommit = started
    var phaseTwoRuns: [RequestResult] = []
    for target in targets {
      let full = try await target.app.sync(
        manager: manager(for: target.app),
        bundleID: target.bundleID)
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
      phaseTwoCommits.append(first.committedAtNanoseconds ?? MonotonicClock.system.nanoseconds())
      fullRows.append(record("full", first, target.bundleID))
      for chunk in full.dropFirst() {
        var row = record("chunk", chunk, target.bundleID)
        // A chunk the system killed and the app retried smaller, or the cap reached (error
        // 5), is the plan working: the row keeps its error code, and the run goes on.
        if chunk.error?.isLoadingInterrupted == true
          || chunk.error?.isMaximumEntriesExceeded == true
        {
          row.status = .ok
        }
        fullRows.append(row)
      }
      lastCommit = max(
        lastCommit, full.last { $0.succeeded }?.committedAtNanoseconds ?? lastCommit)
    }
    // Enable → every extension's phase two committed (COMMIT returned), not counting the
    // store's checkpoint and the app's bookkeeping that follow it.
    let timeToFull = MonotonicClock.seconds(
      from: started, to: phaseTwoCommits.max() ?? MonotonicClock.system.nanoseconds())
    for index in fullRows.indices where fullRows[index].phase == "full" {
      fullRows[index].timeToEnabledSeconds = timeToEnabled
      fullRows[index].timeToFullSeconds = timeToFull
    }
    fullRows[fullRows.count - 1].timeToAllSeconds = MonotonicClock.seconds(
      from: started, to: lastCommit)
    if bench.device != nil { fullRows[fullRows.count - 1].deviceTimeToAllSeconds = deviceClock }
    return (fullRows, (phaseTwoRuns, timeToFull))

  }

  /// A new version of one region, synced incrementally by the extensions whose part changed.
  func syncUpdate() async throws -> [RunRecord] {
    try await app.stage(
      file: dataset.updatedRegionFile, name: dataset.updatedRegion.name, role: .region,
      region: dataset.updatedRegion.code, priority: dataset.updatedRegion.priority, version: 2)
    if let extensions = bench.extensions { try app.split(into: extensions) }
    var updateRows: [RunRecord] = []
    for target in targets {
      let update = try await target.app.sync(
        manager: manager(for: target.app),
        bundleID: target.bundleID)
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
    return updateRows
  }
}
