import BaseFormat
import BenchMeasuring
import BenchReporting
import DirectoryContainer
import Foundation
import ReleaseFormat

/// What a container holds, read from its manifest and its bases (never by guessing from file
/// names: the manifest says which bases are current, so a previous generation's file left in
/// `bases/` is never measured).
public struct DataFigures: Sendable, Equatable {
  /// The current bases (retired ones left out).
  public var bases: [Manifest.Base]
  /// Entries of the seed set.
  public var seedEntries: Int
  /// Entries of every other base: the full set when every region is chosen.
  public var fullEntries: Int
  /// Entries with a label, and the bytes of their labels (UTF-8).
  public var labelledEntries: Int
  public var labelBytes: Int
  /// Bytes of every current base file: what a full install downloads.
  public var totalBytes: Int

  /// The base the strategies bench reads: the largest by entries, the one nearest the memory
  /// limit and the cap.
  public var largestBase: Manifest.Base? { bases.max { $0.entries < $1.entries } }

  /// Mean label bytes over the labelled entries (0 with none).
  public var labelBytesPerEntry: Double {
    labelledEntries > 0 ? Double(labelBytes) / Double(labelledEntries) : 0
  }

  /// Reads the container at `path`: its manifest, then every current base once for its labels.
  /// - Throws: ``/BenchMeasuring/BenchError`` naming the container and what is wrong with it.
  public static func read(container path: String) throws(BenchError) -> DataFigures {
    let manifest: Manifest
    do {
      manifest = try Manifest.read(container: path)
    } catch {
      throw BenchError("\(path): not a container calldir compiled (\(error.description))")
    }
    let bases = manifest.bases.filter { $0.state != .retired }
    guard !bases.isEmpty else { throw BenchError("\(path): the manifest lists no base") }
    var figures = DataFigures(
      bases: bases, seedEntries: 0, fullEntries: 0, labelledEntries: 0, labelBytes: 0,
      totalBytes: 0)
    for base in bases {
      let file = path + "/" + base.file
      do {
        let reader = try BaseFile.reader(path: file)
        figures.totalBytes += UpdateCost.size(of: file)
        while let entry = try reader.next() {
          guard !entry.label.isEmpty else { continue }
          figures.labelledEntries += 1
          figures.labelBytes += entry.label.utf8.count
        }
      } catch {
        throw BenchError("\(error)")
      }
      if base.role == .seed {
        figures.seedEntries += base.entries
      } else {
        figures.fullEntries += base.entries
      }
    }
    return figures
  }
}

/// What a client downloads to go from one container's data to another's: per base, nothing when
/// its hash is unchanged, the patch when one is smaller than the file (what `calldir publish`
/// offers), else the whole file.
public struct UpdateCost: Sendable, Equatable {
  /// Bytes downloaded, and bytes of a full install of the new data.
  public var downloadBytes: Int
  public var fullBytes: Int
  /// Bytes of a full install of the base revision's data: what clients hold now.
  public var heldBytes = 0
  /// Bases changed, patched (a patch was smaller) and new.
  public var changedBases: Int
  public var patchedBases: Int
  public var newBases: Int
  /// What the update changes, base by base (``EntryChanges``).
  public var entries = EntryChanges()

  /// The download as a share of what clients hold now (0…1; the new install's size when they
  /// hold nothing). Against the head's own bases, a directory replaced outright by numbers
  /// with unique labels read 21%, under the 25% budget: the head had grown 266% (issue 65,
  /// item 3).
  public var share: Double {
    let basis = heldBytes > 0 ? heldBytes : fullBytes
    return basis > 0 ? Double(downloadBytes) / Double(basis) : 0
  }

  /// The cost of updating from the container at `old` to the one at `new`, patches made in
  /// `scratch` (removed after).
  /// - Throws: ``/BenchMeasuring/BenchError`` naming a base that cannot be read or patched.
  public static func between(
    old: String, oldBases: [Manifest.Base], new: String, newBases: [Manifest.Base],
    scratch: String
  ) throws(BenchError) -> UpdateCost {
    var cost = UpdateCost(
      downloadBytes: 0, fullBytes: 0, changedBases: 0, patchedBases: 0, newBases: 0)
    try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    for base in oldBases {
      cost.heldBytes += base.byteCount ?? Self.size(of: old + "/" + base.file)
    }
    cost.entries = try EntryChanges.between(
      old: old, oldBases: oldBases, new: new, newBases: newBases)
    for base in newBases {
      let newFile = new + "/" + base.file
      let bytes = base.byteCount ?? Self.size(of: newFile)
      cost.fullBytes += bytes
      guard let previous = oldBases.first(where: { $0.name == base.name }) else {
        cost.newBases += 1
        cost.downloadBytes += bytes
        continue
      }
      guard previous.sha256 != base.sha256 else { continue }
      cost.changedBases += 1
      // A rule base goes whole, as publish sends it (it is its own smallest download).
      let isRules = BaseFile.isRuleBase(at:)
      guard previous.kind == base.kind, !isRules(newFile), !isRules(old + "/" + previous.file)
      else {
        cost.downloadBytes += bytes
        continue
      }
      let patch = scratch + "/\(cost.changedBases).patch"
      do {
        try PatchMaker.make(from: old + "/" + previous.file, to: newFile, patch: patch)
      } catch {
        throw BenchError("patching \(base.name) from the base revision: \(error)")
      }
      let patchBytes = Self.size(of: patch)
      if patchBytes < bytes {
        cost.patchedBases += 1
        cost.downloadBytes += patchBytes
      } else {
        cost.downloadBytes += bytes
      }
    }
    return cost
  }

  static func size(of path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
  }
}
