import BaseFormat
import Datasets
import Foundation

/// What the strategies read in one bench run: a generated dataset (each strategy its own
/// format), or a base a team compiled (`--base FILE`, read by calldir's strategies).
struct BenchInput {
  /// The file `strategy` reads.
  let path: (BenchStrategy) -> String

  /// A generated dataset's files, in the forms `configuration` gives each strategy.
  static func dataset(_ entry: DatasetCache.Entry, _ configuration: BenchConfiguration)
    -> BenchInput
  {
    BenchInput { entry.path(configuration.inputFormat(of: $0)) }
  }

  /// One file, whatever the strategy.
  static func file(_ path: String) -> BenchInput { BenchInput { _ in path } }

  /// The size of what `strategy` reads, in bytes (0 when it cannot be read).
  func byteCount(_ strategy: BenchStrategy) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path(strategy)))?[.size] as? Int) ?? 0
  }

  /// `--base FILE` and its empty counterpart for the idle runs: a base of the same kind and
  /// version with no entries, written into `scratch`.
  /// - Returns: the inputs and the file's format version.
  /// - Throws: ``BenchError`` naming the file when it is not a readable base.
  static func base(_ path: String, scratch: String) throws(BenchError) -> (
    load: BenchInput, idle: BenchInput, version: Int
  ) {
    let header: BaseHeader
    do {
      header = try BaseHeader.read(path: path)
    } catch {
      throw BenchError("\(path): \(error.problemDescription)")
    }
    let empty = scratch + "/empty.cdb"
    do {
      try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
      let writer = try BaseWriter(path: empty, kind: header.kind, compact: header.isCompact)
      try writer.finish()
    } catch {
      throw BenchError("cannot write an empty base in \(scratch): \(error)")
    }
    return (.file(path), .file(empty), Int(header.version))
  }
}
