import ArgumentParser
import BenchGating
import BenchMeasuring
import BenchReporting
import CallDirectoryCore
import Datasets
import Foundation

/// `calldir bench two-phase`: the seed set, the full set and an incremental update through the
/// simulated system, on containers compiled as a user compiles them.
struct BenchTwoPhaseCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "two-phase",
    abstract: "Measure two-phase loading through the simulated system: seed, full, incremental.",
    discussion: """
      Writes the profile's numbers as a raw dump split into --regions regions, compiles it with \
      the compiler's defaults, and per repeat: enables the extension (the seed set), syncs (the \
      full set, capped at 1,999,999), then stages a new version of one region and syncs \
      incrementally. One CSV row per phase and repeat.

      Exit statuses: 0 done (and, with --gate, every check passed); 1 usage or input error; \
      2 a --gate check failed (one line per failure on stderr).
      """)

  @OptionGroup var options: BenchRunOptions

  @Option(
    name: .long,
    help: """
      Regions the profile's numbers are split into; a comma-separated list (3,27,108) sweeps \
      them, one container each, to show footprint against the number of bases.
      """)
  var regions: String = "3"

  @Flag(name: .long, help: "Compile fixed-width bases instead of the compiler's compact ones.")
  var fixedWidth = false

  @Option(
    name: .long,
    help:
      "Run on a container your team compiled (calldir compile --out DIR) instead of a generated one; it is copied, never changed.",
    completion: .directory, transform: nonEmptyPath)
  var container: String?

  @OptionGroup var shape: ContainerShapeOptions

  @Option(
    name: .customLong("max-time-to-enabled"), parsing: .unconditional,
    help: """
      The most the median time to enabled may take, in seconds (default 1): the seed set's \
      target, and the gate's bar for the time projected on --device. This machine's wall-clock \
      time to enabled is gated only when this option is given (a busy runner took ci-smoke's \
      from 0.12 s to 0.71 s).
      """, transform: finiteNumber(in: OptionBounds.seconds))
  var maxTimeToEnabledOption: Double?

  /// The time-to-enabled bar: the option's, or the default.
  var maxTimeToEnabled: Double {
    maxTimeToEnabledOption ?? TwoPhaseReport.defaultMaximumTimeToEnabled
  }

  @Option(
    name: .long,
    help: """
      The gate, when --regions sweeps several counts: the most the incremental update's lowest \
      footprint over the repeats may grow from the fewest regions to the most (384KiB: flat).
      """)
  var maxFootprintGrowth = ByteSize(bytes: TwoPhaseReport.defaultMaximumFootprintGrowth)

  @Option(
    name: .long,
    help: """
      What the simulated system's cap counts: per-request (iOS 26.1's loader: incremental \
      chunks install all of it) or per-extension (the full set stops at the top 1,999,999 by \
      priority).
      """)
  var capScope: CheckingContext.CapScope = .perRequest

  @Option(
    name: .long, parsing: .unconditional,
    help: """
      Split the set by number range across K extensions, each under its own cap (Truecaller \
      ships 4, Getcontact and Whoscall 3): every phase runs for each in turn.
      """, transform: wholeNumber(in: 2...100))
  var extensions: Int?

  @Option(
    name: .long, parsing: .unconditional,
    help: """
      Entries each request past the cap adds (default 1000000, as chao600 reloads; 1999999 \
      fills every request to the system's cap, the fewest requests).
      """, transform: wholeNumber(in: 1...(SystemLimits.maximumAllowedEntries - 1)))
  var chunkEntries: Int?

  @Option(
    name: .long,
    help: """
      Project every request onto a device (Datasets/devices: \
      \(DeviceProfile.availableNames().joined(separator: ", "))): device_projected_s per \
      request, projected time to enabled and to all.
      """)
  var device: String?

  @Option(
    name: .long, help: "The CSV to write (replaced atomically).",
    completion: .file(extensions: ["csv"]))
  var out: String = "Results/two-phase.csv"

  @Option(
    name: .long,
    help: "The timeline chart to write (default: the CSV's path with .svg).",
    transform: nonEmptyPath)
  var chart: String?

  func validate() throws {
    _ = try nonEmptyPath(out)
    if let extensions, !(2...100).contains(extensions) {
      throw ValidationError("--extensions must be from 2 to 100, got \(extensions)")
    }
    guard maxTimeToEnabled >= 0 else {
      throw ValidationError(
        "--max-time-to-enabled must be 0 seconds or more, got \(maxTimeToEnabled)")
    }
    guard !regionCounts.isEmpty, shape.blockingEntries >= 0 else {
      throw ValidationError(
        "--regions takes whole numbers from 1 to 100000 (3 or 3,27,108), --seed-entries at least 1, --blocking-entries 0 or more; got --regions '\(regions)'"
      )
    }
  }

  /// `--regions` as numbers; empty when any is not a whole number from 1 to 100,000 (as
  /// `generate --regions`: 2^63−1 regions trapped).
  var regionCounts: [Int] {
    let counts = regions.split(separator: ",").map { Int($0.filter { $0 != " " }) }
    guard counts.allSatisfy({ (1...100_000).contains($0 ?? 0) }) else { return [] }
    return counts.compactMap { $0 }
  }

  func run() async throws {
    Interruption.watch([FileManager.default.temporaryDirectory.path])
    // Checked before the runs, not after them.
    for path in [out, chart] { if let path { try ResultFiles.checkWritable(path) } }
    let (name, configuration) = try options.configuration(defaultProfile: "regional-2m")
    // The dataset cache: each dataset's folder, its dump and the containers compiled into it.
    Interruption.watch([DatasetCache(root: configuration.cacheRoot).root.path], depth: 3)
    try configuration.validate()
    options.noticeAllocator(configuration)
    let deviceProfile: DeviceProfile?
    do {
      deviceProfile = try device.map(DeviceProfile.load)
    } catch {
      throw ValidationError("--device: \(error)")
    }
    let seedEntries = try shape.seedEntries.count(device: deviceProfile, seconds: maxTimeToEnabled)
    if shape.seedEntries == .auto, let deviceProfile {
      options.log(
        String(
          format: "seed set sized for %@ (%@): %d labelled entries in %.2f s projected",
          deviceProfile.name, deviceProfile.device, seedEntries,
          deviceProfile.projectedSeconds(identification: seedEntries, blocking: 0)))
    }
    var records: [RunRecord] = []
    let counts = container == nil ? regionCounts : [0]
    let display = options.display(command: "bench two-phase")
    // Runs done of every region count's repeats, the step under way after the region count.
    let total = counts.count * configuration.repeats
    defer { display.finish() }
    for (place, regionCount) in counts.enumerated() {
      var bench = TwoPhaseBench(
        configuration: configuration, regions: regionCount, seedEntries: seedEntries,
        blockingEntries: shape.blockingEntries, compact: !fixedWidth, container: container,
        log: options.log)
      bench.capScope = capScope
      bench.device = deviceProfile
      bench.extensions = extensions
      bench.chunkEntries = chunkEntries
      let before = place * configuration.repeats
      bench.progress = { done, step in
        display.update(
          phase: "measuring", done: before + done, total: total, unit: "runs",
          detail: container == nil ? "\(regionCount) regions, \(step)" : step)
      }
      records += try await bench.run()
    }
    // The progress line cleared before the report (the defer covers a throw).
    display.finish()
    try ResultFiles.writeAtomically(RunRecord.csv(records), to: out)
    let fullEntries = records.filter { $0.phase == "full" }.map(\.entries).max() ?? 0
    let title =
      container.map {
        "\($0) two-phase: \(fullEntries) entries in the full set, \(records.first?.strategy.dropFirst("two-phase-r".count) ?? "?") regions, \(configuration.repeats) repeats"
      }
      ?? "\(name) two-phase: \(configuration.parameters.entries) region entries in \(regions) regions, seed \(seedEntries), blocking \(shape.blockingEntries), \(configuration.repeats) repeats"
    print(TwoPhaseReport.render(records, title: title), terminator: "")
    let chartPath = chart ?? ResultFiles.sidecarPath(of: out, with: "svg")
    if let chartPath {
      try ResultFiles.writeAtomically(
        TwoPhaseChart.svg(
          records: records, title: "calldir bench two-phase: \(container ?? name)",
          targetSeconds: maxTimeToEnabled),
        to: chartPath)
    }
    print("\nwrote \(out)" + (chartPath.map { " and \($0)" } ?? " (no chart beside it)"))
    try options.finishGate(
      TwoPhaseReport.evaluate(
        records, maximumTimeToEnabled: maxTimeToEnabled,
        gatesWallClock: maxTimeToEnabledOption != nil,
        maximumFootprintGrowth: maxFootprintGrowth.bytes),
      passed: "gate passed: every phase completed within the memory limit"
        + (maxTimeToEnabledOption != nil || device != nil ? ", enabled in time" : "")
        + (TwoPhaseReport.incrementalFootprintGrowth(records) == nil
          ? "" : ", incremental footprint flat across regions"))
  }
}
