import BaseFormat
import Foundation

/// Writing result files (CSV, SVG) atomically, so an interrupted run never leaves half a file.
public enum ResultFiles {
  /// Writes `text` to `path` through a temporary file, `fsync` and `rename`, creating the folder.
  /// - Throws: ``BenchError`` naming the path.
  public static func writeAtomically(_ text: String, to path: String) throws(BenchError) {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let writer = try AtomicFileWriter(path: path)
      try writer.write(text.utf8)
      try writer.commit()
    } catch let error as BaseFormatError {
      throw BenchError("cannot write \(path): \(error.problemDescription)")
    } catch {
      throw BenchError("cannot write \(path): \(error.localizedDescription)")
    }
  }

  /// `Results/x.csv` → `Results/x.svg`.
  public static func replacingExtension(of path: String, with newExtension: String) -> String {
    URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension(newExtension)
      .relativePath
  }
}
