import BaseFormat
import CallDirectoryApp
import CallDirectoryLoader
import Datasets
import Foundation

/// A container for two-phase runs, generated once and cached: the profile's numbers split into
/// `regions` region bases (contiguous number ranges, as area codes are), a seed set of every n-th
/// number (the "most identified", priority above the regions), a blocking list, and a version 2
/// of the first region (a tenth of its numbers gone, as many new, a tenth relabelled) for the
/// incremental phase.
public struct TwoPhaseDataset {
  public let parameters: DatasetParameters
  public let regions: Int
  public let seedEntries: Int
  public let blockingEntries: Int

  public init(parameters: DatasetParameters, regions: Int, seedEntries: Int, blockingEntries: Int) {
    self.parameters = parameters
    self.regions = regions
    self.seedEntries = seedEntries
    self.blockingEntries = blockingEntries
  }

  /// Files of a prepared dataset.
  public struct Files {
    /// The container as generated: copy `manifest.pristine` over the manifest to start afresh.
    public let container: String
    /// Version 2 of the updated region, to stage for the incremental phase.
    public let updatedRegionFile: String
    /// A number of the seed set (for the lookup that proves enabling worked).
    public let seedNumber: Int64
    /// The updated region's name, region code and priority.
    public let updatedRegion: (name: String, code: String, priority: Int)
  }

  /// Regions get priorities 10 to 49, cycling, below the blocking list (90) and the seed set (100).
  static let priorityLevels = 40
  static func regionPriority(_ index: Int) -> Int { 10 + index % priorityLevels }

  var key: String {
    "\(parameters.cacheKey)-twophase3-r\(regions)-s\(seedEntries)-b\(blockingEntries)"
  }

  /// Generates (or reuses) the container under `cacheRoot`.
  public func ensure(cacheRoot: String?, log: (String) -> Void) throws -> Files {
    let root = DatasetCache(root: cacheRoot).root.appendingPathComponent(key).path
    return try write(root: root, container: root + "/container", reuse: true, log: log)
  }

  /// Writes the container at `container` (and the working files under `root`).
  /// - Parameter reuse: keep an existing complete result instead of generating again.
  public func write(root: String, container: String, reuse: Bool, log: (String) -> Void) throws
    -> Files
  {
    guard regions >= 1 else { throw BenchError("--regions must be at least 1") }
    let updated = root + "/region-1.v2.cdb"
    let marker = root + "/ready"
    // The region updated in the incremental phase: the one with the highest priority, so the cap
    // (which drops the lowest priorities first) never hides its changes.
    let updatedIndex = min(regions, Self.priorityLevels) - 1
    func files(seedNumber: Int64) -> Files {
      Files(
        container: container, updatedRegionFile: updated, seedNumber: seedNumber,
        updatedRegion: (
          "region-\(updatedIndex + 1)", "R\(updatedIndex + 1)", Self.regionPriority(updatedIndex)
        ))
    }
    // The marker holds the seed number, so a cached container is reused without generating
    // (and sorting) every number again.
    if reuse, let text = try? String(contentsOfFile: marker, encoding: .utf8),
      let seedNumber = Int64(text.trimmingCharacters(in: .whitespacesAndNewlines))
    {
      return files(seedNumber: seedNumber)
    }
    let generator = try DatasetGenerator(parameters: parameters)
    let numbers = generator.numbers
    guard !numbers.isEmpty else { throw BenchError("two-phase runs need at least one entry") }
    let stride = max(1, numbers.count / max(1, seedEntries))
    log(
      "generating a two-phase container: \(regions) regions, seed \(seedEntries), blocking \(blockingEntries)"
    )
    try? FileManager.default.removeItem(atPath: root)
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    let app = ContainerApp(container: container)
    func writeBase(_ path: String, kind: BaseKind, _ fill: (BaseWriter) throws -> Void) throws {
      let writer = try BaseWriter(path: path, kind: kind)
      try fill(writer)
      try writer.finish()
    }
    // Regions: contiguous slices of the sorted numbers.
    for region in 0..<regions {
      let range = (region * numbers.count / regions)..<((region + 1) * numbers.count / regions)
      let path = root + "/region-\(region + 1).cdb"
      try writeBase(path, kind: .identification) { writer in
        for index in range { try writer.append(numbers[index], label: generator.label(at: index)) }
      }
      try app.stage(
        file: path, name: "region-\(region + 1)", role: .region, region: "R\(region + 1)",
        priority: Self.regionPriority(region), version: 1)
      try FileManager.default.removeItem(atPath: path)
    }
    let seedPath = root + "/seed.cdb"
    try writeBase(seedPath, kind: .identification) { writer in
      var index = 0
      var written = 0
      while index < numbers.count && written < seedEntries {
        try writer.append(numbers[index], label: generator.label(at: index))
        index += stride
        written += 1
      }
    }
    try app.stage(file: seedPath, name: "seed", role: .seed, priority: 100, version: 1)
    var blockingParameters = DatasetParameters(
      entries: blockingEntries, kind: "blocking", plans: ["CN"], labels: .spam,
      seed: parameters.seed ^ 0xB10C)
    blockingParameters.duplicateShare = 0
    let blocking = try DatasetGenerator(parameters: blockingParameters)
    let blockingPath = root + "/blocking.cdb"
    try writeBase(blockingPath, kind: .blocking) { writer in
      for number in blocking.numbers { try writer.append(number) }
    }
    try app.stage(file: blockingPath, name: "spam", role: .blocking, priority: 90, version: 1)
    try app.choose(regions: (1...regions).map { "R\($0)" })
    // Version 2 of the updated region.
    let firstRange =
      (updatedIndex * numbers.count / regions)..<((updatedIndex + 1) * numbers.count / regions)
    try writeBase(updated, kind: .identification) { writer in
      for index in firstRange where index % 10 != 3 {
        let label = index % 10 == 7 ? "Обновлено \(index)" : generator.label(at: index)
        try writer.append(numbers[index], label: label)
        if index % 10 == 5, index + 1 < firstRange.upperBound,
          numbers[index] + 1 < numbers[index + 1]
        {
          try writer.append(numbers[index] + 1, label: "Новый номер")
        }
      }
    }
    try FileManager.default.copyItem(
      atPath: container + "/" + Manifest.fileName, toPath: container + "/manifest.pristine")
    guard FileManager.default.createFile(atPath: marker, contents: Data("\(numbers[0])\n".utf8))
    else {
      throw BenchError("cannot write \(marker)")
    }
    return files(seedNumber: numbers[0])
  }
}
