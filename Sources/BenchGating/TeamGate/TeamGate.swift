import BenchMeasuring
import BenchReporting
import Datasets
import DirectoryContainer
import Foundation
import ProcessSpawning

/// `calldir gate`: a team's data and calldir's code, each judged its own way in one run.
/// - calldir: the base revision's build (A) against this one (B) on the head's data, interleaved,
///   as `bench ab` does; skipped, and said so, when calldir did not change.
/// - data: the head's container against ``DataBudgets`` (footprint through the simulated
///   system, the seed set's time projected on the device, entries per request, requests past
///   the cap, the update's bytes, label bytes), with the data-dependent counts reported beside
///   their value at the base revision, never gated.
public struct TeamGate {
  /// The head's container, and the same container at the base revision (if any).
  public var data: String
  public var baseData: String?
  /// A folder holding the base revision's calldir-extension (A); nil when calldir did not change.
  public var baseCalldir: String?
  public var settings: GateSettings
  /// This build's executables.
  public var binaryDirectory = SiblingExecutables.directory()
  public var log: (String) -> Void
  /// Hears the step under way ("data: the seed set and the full set").
  public var progress: (String) -> Void = { _ in }

  public init(
    data: String, baseData: String?, baseCalldir: String?, settings: GateSettings,
    log: @escaping (String) -> Void
  ) {
    (self.data, self.baseData, self.baseCalldir, self.settings, self.log) = (
      data, baseData, baseCalldir, settings, log
    )
  }

  /// Runs both halves.
  /// - Throws: ``/BenchMeasuring/BenchError`` when the data cannot be read or a measurement cannot run (not
  ///   when a budget or a threshold is missed: that is in the result).
  public func run() async throws -> TeamGateResult {
    let device: DeviceProfile
    do {
      device = try DeviceProfile.load(settings.budgets.device)
    } catch {
      throw BenchError("\(GateSettings.deviceKey): \(error)")
    }
    progress("reading the data")
    let head = try DataFigures.read(container: data)
    let base = try baseData.map { path throws(BenchError) in try DataFigures.read(container: path) }
    guard let largest = head.largestBase else { throw BenchError("\(data): no base to bench") }
    var result = TeamGateResult(settings: settings, head: head, base: base, largest: largest.name)
    if let baseData, let base {
      progress("data: the update from the base revision")
      result.update = try UpdateCost.between(
        old: baseData, oldBases: base.bases, new: data, newBases: head.bases,
        scratch: NSTemporaryDirectory() + "calldir-gate-patches-\(getpid())")
    }
    progress("data: the seed set and the full set through the simulated system")
    result.load = try await measureLoad(device: device)
    result.skippedCode = try skippedCodeReason()
    if result.skippedCode == nil, let baseCalldir {
      progress("calldir: A/B on \(largest.name)")
      let records = try strategies(
        base: data + "/" + largest.file, against: baseCalldir, repeats: settings.thresholds.repeats
      )
      result.abRecords = records
      let comparison = ABComparison(records)
      result.comparison = comparison
      result.headInstructionsPerEntry =
        records.first {
          $0.build == "B" && $0.strategy == "mmap" && $0.instructionsPerEntry != nil
        }?.instructionsPerEntry
    } else {
      progress("data: instructions per entry of \(largest.name)")
      result.headInstructionsPerEntry = try instructionsPerEntry(base: data + "/" + largest.file)
    }
    if let baseData, let base, let old = base.bases.first(where: { $0.name == largest.name }) {
      progress("data: instructions per entry of \(largest.name) at the base revision")
      result.baseInstructionsPerEntry = try instructionsPerEntry(base: baseData + "/" + old.file)
    }
    return result
  }

  /// Why calldir's A/B does not run, or nil when it does: no base build given, or one whose
  /// extension is this build's, byte for byte.
  func skippedCodeReason() throws(BenchError) -> String? {
    guard let baseCalldir else {
      return "calldir did not change: the base revision runs this calldir (no --base-calldir)"
    }
    let name = BenchStrategy.extensionBinary
    let theirs = baseCalldir + "/" + name
    guard FileManager.default.isExecutableFile(atPath: theirs) else {
      throw BenchError("--base-calldir: no executable \(name) in \(baseCalldir)")
    }
    if let ours = SHA256.hexDigest(ofFile: binaryDirectory + "/" + name),
      ours == SHA256.hexDigest(ofFile: theirs)
    {
      return "calldir did not change: the base revision's \(name) is this one, byte for byte"
    }
    return nil
  }

  /// The seed set, the full set and an update through the simulated system, on the device.
  func measureLoad(device: DeviceProfile) async throws -> LoadFigures {
    var configuration = try placeholderConfiguration()
    configuration.repeats = Self.loadRepeats
    configuration.memoryLimitBytes = settings.budgets.memoryLimitBytes
    var bench = TwoPhaseBench(
      configuration: configuration, regions: 0, seedEntries: 0, blockingEntries: 0,
      container: data, binaryDirectory: binaryDirectory, log: log)
    bench.device = device
    return LoadFigures(try await bench.run())
  }

  /// Repeats of the load: its figures are counts and projections, the footprint the highest.
  static let loadRepeats = 3

  /// One counted run of calldir's mmap strategy on `base`.
  func instructionsPerEntry(base: String) throws -> Double? {
    try strategies(base: base, against: nil, repeats: 1).compactMap(\.instructionsPerEntry).first
  }

  func strategies(base: String, against: String?, repeats: Int) throws -> [RunRecord] {
    var configuration = try placeholderConfiguration()
    configuration.baseFile = base
    configuration.profileName =
      "base:" + BaseSeriesName.of(fileName: (base as NSString).lastPathComponent)
    configuration.strategies = against == nil ? [.mmap] : [.mmap, .buffered]
    configuration.repeats = repeats
    configuration.idleRepeats = against == nil ? 1 : 3
    configuration.memoryLimitBytes = settings.budgets.memoryLimitBytes
    configuration.againstDirectory = against
    try configuration.validate()
    return try BenchRunner(configuration: configuration, binaryDirectory: binaryDirectory, log: log)
      .run()
  }

  /// A configuration whose dataset is never generated: the runs read the team's files.
  func placeholderConfiguration() throws -> BenchConfiguration {
    let parameters: DatasetParameters
    do {
      parameters = try DatasetProfile.load("ci-smoke").parameters
    } catch {
      throw BenchError("\(error)")
    }
    return BenchConfiguration(profileName: "container", parameters: parameters)
  }
}
