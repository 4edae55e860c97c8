import ArgumentParser
import Datasets

/// The dataset flags shared by `bench` and `generate`: a profile plus overrides.
struct DatasetOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "A profile name from Datasets/ or a path to a profile JSON file.",
      discussion: "Profiles: \(DatasetProfile.availableNames().joined(separator: ", "))."),
    completion: .file(extensions: ["json"]), transform: nonEmptyPath)
  var profile: String?

  @Option(
    name: .long, parsing: .unconditional,
    help:
      "Entries in the dataset (overrides the profile): 2000000, 100k, 1.5M; bench sweep takes a list (100k,1M,4M).",
    completion: nil)
  var entries: EntryCounts?

  @Option(name: .long, help: "Seed of the generator (overrides the profile).")
  var seed: UInt64?

  @Option(name: .long, help: "identification or blocking (overrides the profile).")
  var kind: String?

  @Option(
    name: .long, help: "Comma-separated number plans: RU, CN, US, FR (overrides the profile).")
  var plans: String?

  @Option(name: .long, help: "Labels: cyrillic, latin, chinese or spam (overrides the profile).")
  var labels: LabelProfile?

  @Option(
    name: .long, parsing: .unconditional,
    help: "Share of repeated rows in the raw form, 0 to 1 (overrides the profile).",
    transform: finiteNumber(in: 0...1))
  var duplicateShare: Double?

  @Option(
    name: .long,
    help: "Folder for generated datasets (default .calldir/datasets or $CALLDIR_CACHE).",
    transform: nonEmptyPath)
  var cache: String?

  /// The profile with the flags applied.
  /// - Throws: `ValidationError` naming the bad flag or profile.
  /// - Parameters:
  ///   - defaultProfile: the profile used when `--profile` is not given.
  ///   - sweeping: whether a list of entry counts is allowed (the first is used).
  ///   - maximumEntries: the most `--entries` takes: over the generator's own
  ///     (`DatasetParameters.maximumEntries`) only where the dump is written in slices
  ///     (`ChunkedDump`).
  func resolve(
    defaultProfile: String, sweeping: Bool = false, maximumEntries: Int = 100_000_000
  ) throws -> (
    name: String, parameters: DatasetParameters
  ) {
    let name = profile ?? defaultProfile
    let loaded: DatasetProfile
    do {
      loaded = try DatasetProfile.load(name)
    } catch let error as DatasetError {
      throw ValidationError(error.description)
    }
    var parameters = loaded.parameters
    if let entries {
      guard sweeping || entries.values.count == 1 else {
        throw ValidationError(
          "--entries takes one count here; a list sweeps only in calldir bench strategies")
      }
      for value in entries.values where !(1...maximumEntries).contains(value) {
        throw ValidationError("--entries must be from 1 to \(maximumEntries), got \(value)")
      }
      parameters.entries = entries.values[0]
    }
    if let seed { parameters.seed = seed }
    if let kind { parameters.kind = kind }
    if let plans { parameters.plans = plans.split(separator: ",").map(String.init) }
    if let labels { parameters.labels = labels }
    if let duplicateShare { parameters.duplicateShare = duplicateShare }
    do {
      // A size past the generator's own is written in slices (ChunkedDump), each valid alone.
      var checked = parameters
      checked.entries = min(checked.entries, DatasetParameters.maximumEntries)
      try checked.validate()
    } catch {
      throw ValidationError(error.description)
    }
    return (loaded.name, parameters)
  }
}

/// The lists a generated two-phase container holds besides its regions (`generate --format
/// container` and `bench two-phase`).
struct ContainerShapeOptions: ParsableArguments {
  @Option(
    name: .long,
    help: """
      Entries in a generated container's seed set; auto (bench two-phase with --device): as \
      many labelled entries as the device takes within --max-time-to-enabled.
      """)
  var seedEntries: SeedSize = .entries(100_000)

  @Option(
    name: .long, parsing: .unconditional, help: "Entries in a generated container's blocking list.",
    transform: wholeNumber(in: OptionBounds.entries))
  var blockingEntries: Int = 100_000
}

/// `--seed-entries`: a count, or `auto` (sized from a device profile).
enum SeedSize: ExpressibleByArgument, Equatable, CustomStringConvertible {
  case entries(Int)
  case auto

  init?(argument: String) {
    if argument == "auto" {
      self = .auto
    } else if let count = Int(argument), (1...OptionBounds.entries.upperBound).contains(count) {
      self = .entries(count)
    } else {
      return nil
    }
  }

  var description: String {
    switch self {
    case .entries(let count): String(count)
    case .auto: "auto"
    }
  }

  var defaultValueDescription: String { description }

  /// The count, or the entries `device` takes in `seconds` when auto.
  /// - Throws: `ValidationError` for auto without a device, or a device too slow for any entry.
  func count(device: DeviceProfile?, seconds: Double) throws -> Int {
    switch self {
    case .entries(let count): return count
    case .auto:
      guard let device else {
        throw ValidationError("--seed-entries auto needs --device (bench two-phase)")
      }
      let fitting = device.entriesFitting(seconds: seconds, identificationShare: 1)
      guard fitting >= 1 else {
        throw ValidationError(
          "--seed-entries auto: \(device.name) takes no labelled entry within \(seconds) s (request overhead \(device.requestOverheadSeconds) s)"
        )
      }
      return fitting
    }
  }
}
