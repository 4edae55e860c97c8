import Datasets
import DirectoryContainer
import Foundation

/// A repeat's own container: the pristine manifest of a cached (or prepared) container, with
/// its bases hard-linked (copied where the file system cannot link).
///
/// A repeat stages an update and syncs it, which rewrites the manifest and lets the app remove
/// the files of bases it retired. Done on the cached container itself, two benches sharing the
/// cache broke each other ("cannot read …/region-R1.….cdb"), and the cache stayed broken for
/// every later run. A link costs no copy of the data, and removing it leaves the cache's file.
enum ContainerWorkingCopy {
  /// Makes `copy` (replacing what is there) from `container`'s `manifest.pristine`.
  /// - Throws: ``BenchError`` naming the base that is missing or cannot be linked or copied.
  static func make(of container: String, at copy: String) throws {
    let pristine = container + "/" + TwoPhaseDataset.Files.pristineManifestName
    let manifest: Manifest
    do {
      manifest = try Manifest(parsing: String(contentsOfFile: pristine, encoding: .utf8))
    } catch {
      throw BenchError("\(pristine): \(error)")
    }
    try? FileManager.default.removeItem(atPath: copy)
    try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
    for base in manifest.bases {
      let source = container + "/" + base.file
      let target = copy + "/" + base.file
      try FileManager.default.createDirectory(
        atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      do {
        try ContainerFolder.link(source, at: target)
      } catch {
        do {
          try ContainerFolder.copyFile(from: source, to: target)
        } catch {
          throw BenchError("\(container): base \(base.name): \(error.description)")
        }
      }
    }
    try FileManager.default.copyItem(
      atPath: pristine, toPath: copy + "/" + Manifest.fileName)
  }
}
