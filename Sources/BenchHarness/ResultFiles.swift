import BaseFormat
import Foundation
import SystemCalls

/// Writing result files (CSV, SVG, JSON, HTML): a regular file is replaced atomically, so an
/// interrupted run never leaves half a file; a FIFO, a device or `/dev/stdout` is written
/// through and never replaced (`SystemCalls.OutputTarget`).
public enum ResultFiles {
  /// The tool's own working folder: a missing folder under it is made, as the dataset cache's
  /// is; a missing folder anywhere else is the user's mistake, and an error.
  public static let workingFolder = ".calldir"

  /// Writes `text` to `path`: through a temporary file, `fsync` and `rename` when `path` is a
  /// regular file or nothing yet, written through when it is a FIFO, a device or a link to one.
  /// - Throws: ``BenchError`` naming the path: its folder does not exist (outside
  ///   ``workingFolder``), it is a folder, or a call failed.
  public static func writeAtomically(_ text: String, to path: String) throws(BenchError) {
    let target = try self.target(path)
    guard case .replace(let regular) = target else {
      do { try target.writeThrough(Array(text.utf8)) } catch {
        throw BenchError("cannot write \(path): \(SystemErrorText.text(error))")
      }
      return
    }
    let folder = URL(fileURLWithPath: regular).deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let writer = try AtomicFileWriter(path: regular)
      try writer.write(text.utf8)
      try writer.commit()
    } catch let error as BaseFormatError {
      throw BenchError("cannot write \(path): \(error.problemDescription)")
    } catch {
      throw BenchError("cannot write \(path): \(error.localizedDescription)")
    }
  }

  /// Checks, before a long run, that ``writeAtomically(_:to:)`` could write `path`: a run of
  /// hours that ends in "the folder does not exist" has wasted them.
  /// - Throws: ``BenchError`` naming the path, as ``writeAtomically(_:to:)`` would.
  public static func checkWritable(_ path: String) throws(BenchError) {
    _ = try target(path)
  }

  /// What writing `path` means (``OutputTarget``), a missing folder made under
  /// ``workingFolder`` only.
  private static func target(_ path: String) throws(BenchError) -> OutputTarget {
    do {
      return try OutputTarget.of(
        path,
        creatingFolder: path.hasPrefix(workingFolder + "/")
          || path.hasPrefix("./" + workingFolder + "/"))
    } catch {
      throw BenchError("cannot write \(error.description)")
    }
  }

  /// `Results/x.csv` → `Results/x.svg`.
  public static func replacingExtension(of path: String, with newExtension: String) -> String {
    URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension(newExtension)
      .relativePath
  }
}
