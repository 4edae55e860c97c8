import BaseFormat
import DirectoryCompiler
import DirectoryContainer
import Foundation

/// A container for two-phase runs, generated once and cached, made as a user makes one: the
/// profile's numbers written as a raw directory dump (TSV: the numbers split into `regions`
/// regions of contiguous number ranges, as area codes are; a rank that puts every n-th number in
/// the seed set; a blocking list as `spam` rows), then compiled by `calldir compile` with its
/// defaults (compact bases), or fixed-width ones for comparison. A version 2 of one region (a
/// tenth of its numbers gone, as many new, a tenth relabelled) is compiled the same way for the
/// incremental phase. A profile's patterns (`fr-telemarketing`) go in with `--block-patterns`, and
/// its blocking list is then drawn from its own plans, overlapping them.
public struct TwoPhaseDataset {
  public let parameters: DatasetParameters
  public let regions: Int
  public let seedEntries: Int
  public let blockingEntries: Int
  /// Compile compact bases (the compiler's default); false writes fixed-width ones.
  public let compact: Bool

  public init(
    parameters: DatasetParameters, regions: Int, seedEntries: Int, blockingEntries: Int,
    compact: Bool = true
  ) {
    self.parameters = parameters
    self.regions = regions
    self.seedEntries = seedEntries
    self.blockingEntries = blockingEntries
    self.compact = compact
  }

  /// Files of a prepared dataset.
  public struct Files {
    /// The container as generated, never changed by a run: a run works on its own copy of
    /// `manifest.pristine` and the bases it names.
    public let container: String
    /// The manifest as generated, beside the container's own.
    public static let pristineManifestName = "manifest.pristine"
    /// Version 2 of the updated region, to stage for the incremental phase.
    public let updatedRegionFile: String
    /// A number of the seed set (for the lookup that proves enabling worked).
    public let seedNumber: Int64
    /// The updated region's name, region code and priority.
    public let updatedRegion: (name: String, code: String, priority: Int)
    /// The container's bases, in bytes per entry of the full set.
    public let baseBytesPerEntry: Double

    public init(
      container: String, updatedRegionFile: String, seedNumber: Int64,
      updatedRegion: (name: String, code: String, priority: Int), baseBytesPerEntry: Double
    ) {
      self.container = container
      self.updatedRegionFile = updatedRegionFile
      self.seedNumber = seedNumber
      self.updatedRegion = updatedRegion
      self.baseBytesPerEntry = baseBytesPerEntry
    }
  }

  var key: String {
    "\(parameters.cacheKey)-twophase5-r\(regions)-s\(seedEntries)-b\(blockingEntries)-"
      + (compact ? "compact" : "fixed")
  }

  /// Generates (or reuses) the container under `cacheRoot`.
  public func ensure(cacheRoot: String?, log: (String) -> Void) throws -> Files {
    let root = DatasetCache(root: cacheRoot).root.appendingPathComponent(key).path
    return try write(root: root, container: root + "/container", reuse: true, log: log)
  }

  /// The region a generated number belongs to: contiguous slices of the sorted numbers.
  func regionCode(ofIndex index: Int, count: Int) -> String {
    "R\(index * regions / count + 1)"
  }

  /// Writes the container at `container` (and the working files under `root`).
  /// - Parameter reuse: keep an existing complete result instead of generating again.
  public func write(root: String, container: String, reuse: Bool, log: (String) -> Void) throws
    -> Files
  {
    guard regions >= 1 else { throw DatasetError("--regions must be at least 1") }
    let marker = root + "/ready"
    // The region updated in the incremental phase: the first one.
    let updatedCode = "R1"
    let pristine = container + "/" + Files.pristineManifestName
    func pristineManifest() throws -> Manifest {
      try Manifest(parsing: String(contentsOfFile: pristine, encoding: .utf8))
    }
    func files(seedNumber: Int64) throws -> Files {
      let manifest = try pristineManifest()
      let update = root + "/update"
      guard
        let updated = try Manifest.read(container: update).bases.first(where: {
          $0.name == "region-\(updatedCode)"
        })
      else {
        throw DatasetError("\(update) holds no region-\(updatedCode)")
      }
      let bytes = manifest.bases.reduce(0) { total, base in
        total
          + ((try? FileManager.default.attributesOfItem(atPath: container + "/" + base.file)[.size]
            as? Int) ?? 0)
      }
      let entries = manifest.bases.filter { $0.role != .seed }.reduce(0) { $0 + $1.entries }
      return Files(
        container: container, updatedRegionFile: update + "/" + updated.file,
        seedNumber: seedNumber,
        updatedRegion: ("region-\(updatedCode)", updatedCode, CompileOptions.regionPriority),
        baseBytesPerEntry: entries > 0 ? Double(bytes) / Double(entries) : 0)
    }
    // The marker holds the seed number, so a cached container is reused without generating
    // (and compiling) every number again.
    // A cache missing a base (an older bench changed it in place, or it was cut short) is
    // generated again rather than failing every run.
    if reuse, let text = try? String(contentsOfFile: marker, encoding: .utf8),
      let seedNumber = Int64(text.trimmingCharacters(in: .whitespacesAndNewlines)),
      let manifest = try? pristineManifest(),
      let update = try? Manifest.read(container: root + "/update"),
      manifest.bases.allSatisfy({
        FileManager.default.fileExists(atPath: container + "/" + $0.file)
      }),
      update.bases.allSatisfy({
        FileManager.default.fileExists(atPath: root + "/update/" + $0.file)
      })
    {
      return try files(seedNumber: seedNumber)
    }
    let generator = try DatasetGenerator(parameters: parameters)
    let numbers = generator.numbers
    guard !numbers.isEmpty else { throw DatasetError("two-phase runs need at least one entry") }
    let stride = max(1, numbers.count / max(1, seedEntries))
    log(
      "compiling a two-phase container (\(compact ? "compact" : "fixed-width") bases): \(regions) regions, seed \(seedEntries), blocking \(blockingEntries)"
    )
    try? FileManager.default.removeItem(atPath: root)
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    // Beside patterns, the blocking list is drawn from the profile's own plans, so that it
    // overlaps the patterns' ranges as a reported-numbers list does (each number given once).
    var blockingParameters = DatasetParameters(
      entries: blockingEntries, kind: "blocking",
      plans: parameters.patterns.isEmpty ? ["CN"] : parameters.plans, labels: .spam,
      seed: parameters.seed ^ 0xB10C)
    blockingParameters.duplicateShare = 0
    let blocking = try DatasetGenerator(parameters: blockingParameters)

    // Version 1: every region, ranked so that every n-th number is in the seed set.
    let dump = root + "/dump.tsv"
    try writeDump(dump) { emit in
      for (index, number) in numbers.enumerated() {
        let rank = index % stride == 0 && index / stride < seedEntries ? 2 : 1
        emit(
          number, generator.label(at: index), regionCode(ofIndex: index, count: numbers.count),
          rank, "")
      }
      for number in blocking.numbers { emit(number, "spam", "", 0, "spam") }
    }
    var patternFiles: [String] = []
    if !parameters.patterns.isEmpty {
      let patternFile = root + "/patterns.tsv"
      let lines = parameters.patterns.map { $0 + "\t" + Self.patternCategory + "\n" }
      try Data(("pattern\tcategory\n" + lines.joined()).utf8).write(
        to: URL(fileURLWithPath: patternFile))
      patternFiles.append(patternFile)
    }
    try compile(
      dump, into: container, seedSize: seedEntries, version: 1, blockPatterns: patternFiles)
    // Version 2 of the first region, compiled alone.
    let updateDump = root + "/update.tsv"
    try writeDump(updateDump) { emit in
      for index in numbers.indices where regionCode(ofIndex: index, count: numbers.count) == "R1" {
        guard index % 10 != 3 else { continue }
        let label = index % 10 == 7 ? "Обновлено \(index)" : generator.label(at: index)
        emit(numbers[index], label, updatedCode, 1, "")
        if index % 10 == 5, index + 1 < numbers.count, numbers[index] + 1 < numbers[index + 1] {
          emit(numbers[index] + 1, "Новый номер", updatedCode, 1, "")
        }
      }
    }
    try compile(updateDump, into: root + "/update", seedSize: 0, version: 2)
    try FileManager.default.removeItem(atPath: dump)
    try FileManager.default.removeItem(atPath: updateDump)
    try FileManager.default.copyItem(
      atPath: container + "/" + Manifest.fileName, toPath: pristine)
    guard FileManager.default.createFile(atPath: marker, contents: Data("\(numbers[0])\n".utf8))
    else {
      throw DatasetError("cannot write \(marker)")
    }
    return try files(seedNumber: numbers[0])
  }

  /// The category of the profile's patterns in the container (`patterns.tsv`).
  public static let patternCategory = "telemarketing"

  /// Writes a raw dump: `number, label, region, rank, category` rows after a header.
  private func writeDump(
    _ path: String, _ rows: ((Int64, String, String, Int, String) -> Void) -> Void
  ) throws {
    let file = try AtomicFileWriter(path: path)
    try file.write(Array("number\tlabel\tregion\trank\tcategory\n".utf8))
    var failure: Error?
    var buffer: [UInt8] = []
    rows { number, label, region, rank, category in
      guard failure == nil else { return }
      buffer.append(contentsOf: "+\(number)\t\(label)\t\(region)\t\(rank)\t\(category)\n".utf8)
      if buffer.count >= 1 << 20 {
        do { try file.write(buffer) } catch { failure = error }
        buffer.removeAll(keepingCapacity: true)
      }
    }
    if let failure { throw failure }
    try file.write(buffer)
    try file.commit()
  }

  /// Runs the compiler on a dump, as `calldir compile` does, with this dataset's base format.
  private func compile(
    _ dump: String, into container: String, seedSize: Int, version: Int,
    blockPatterns: [String] = []
  ) throws {
    var options = CompileOptions(inputs: [(dump, .tsv)], output: container)
    options.blockPatternFiles = blockPatterns
    // International numbers: the country only matters for national forms, which the dump has none of.
    options.country = "RU"
    options.seedSize = seedSize
    options.compact = compact
    options.version = version
    let report = try Compiler(options: options).run()
    guard report.rejectedCount == 0 else {
      throw DatasetError("the generated dump had \(report.rejectedCount) rejected rows")
    }
  }
}
