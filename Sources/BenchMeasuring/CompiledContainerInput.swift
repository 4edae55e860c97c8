import BaseFormat
import Datasets
import DirectoryContainer
import Foundation

/// A container a team compiled, prepared for `bench two-phase --container`: a copy in scratch
/// (the runs install from it and change its manifest; the original is never touched), its
/// manifest kept as `manifest.pristine` for each repeat to start from, a number of its seed set
/// for the lookup, and a second version of its first region for the incremental phase (every
/// tenth entry dropped, every seventh relabelled: a realistic update).
enum CompiledContainerInput {
  /// - Throws: ``BenchError`` naming the container and what it lacks.
  static func prepare(_ original: String, scratch: String) throws -> (
    files: TwoPhaseDataset.Files, regions: Int
  ) {
    let manifest: Manifest
    do {
      manifest = asCompiled(try Manifest.read(container: original))
    } catch {
      throw BenchError("\(original): \(error.description)")
    }
    guard let seed = manifest.bases.first(where: { $0.role == .seed }),
      // A list region: the update step relabels one of its entries (a rule base of number
      // ranges has no entry to relabel).
      let region = manifest.bases.first(where: {
        $0.role == .region && $0.region != nil
          && !BaseFile.isRuleBase(at: original + "/" + $0.file)
      })
    else {
      throw BenchError(
        "\(original): two-phase needs a seed base and a region base (calldir compile makes both)")
    }
    let container = scratch + "/container"
    try? FileManager.default.removeItem(atPath: container)
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: original, toPath: container)
    // A container that has been synced holds what its system installed (the full set
    // requested, installed files, progress past the cap): the runs start from it as compiled
    // (each repeat also drops the journal and parts it finds).
    try writeText(
      manifest.encoded(), to: container + "/" + TwoPhaseDataset.Files.pristineManifestName)
    let updated = scratch + "/updated-region.cdb"
    let seedNumber: Int64
    do {
      guard let first = try MappedBaseReader(path: container + "/" + seed.file).next() else {
        throw BenchError("\(original): the seed base \(seed.name) is empty")
      }
      seedNumber = first.number
      let reader = try MappedBaseReader(path: container + "/" + region.file)
      let writer = try BaseWriter(
        path: updated, kind: reader.header.kind, compact: reader.header.isCompact)
      var index = 0
      while let entry = try reader.next() {
        defer { index += 1 }
        if index % 10 == 9 { continue }
        try writer.append(entry.number, label: index % 7 == 3 ? "Updated \(index)" : entry.label)
      }
      try writer.finish()
    } catch let error as BenchError {
      throw error
    } catch let error as BaseFormatError {
      throw BenchError("\(original): \(error.problemDescription)")
    }
    let bytes = manifest.bases.compactMap(\.byteCount).reduce(0, +)
    let entries = manifest.bases.filter { $0.role != .seed }.map(\.entries).reduce(0, +)
    return (
      TwoPhaseDataset.Files(
        container: container, updatedRegionFile: updated, seedNumber: seedNumber,
        updatedRegion: (region.name, region.region!, region.priority),
        baseBytesPerEntry: entries > 0 ? Double(bytes) / Double(entries) : 0),
      manifest.bases.filter { $0.role == .region }.count
    )
  }

  /// The manifest as `calldir compile` leaves it: nothing installed, the full set not yet
  /// requested, no progress, no retired bases; the chosen regions and the range are kept.
  static func asCompiled(_ manifest: Manifest) -> Manifest {
    var compiled = manifest
    compiled.fullSetRequested = false
    compiled.installProgress = InstallProgress()
    compiled.bases = manifest.bases.filter { $0.state != .retired }
    for index in compiled.bases.indices {
      compiled.bases[index].state = .ready
      compiled.bases[index].installedFile = nil
      compiled.bases[index].installedSHA256 = nil
    }
    return compiled
  }

  private static func writeText(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }
}
