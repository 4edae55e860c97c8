import BaseFormat
import BenchMeasuring
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
  /// - Throws: ``/BenchMeasuring/BenchError`` naming the path: its folder does not exist (outside
  ///   ``workingFolder``), it is a folder, or a call failed.
  public static func writeAtomically(_ text: String, to path: String) throws(BenchError) {
    _ = try target(path)
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    do {
      if path.hasPrefix(workingFolder + "/") || path.hasPrefix("./" + workingFolder + "/") {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      }
      // The one writer every output option goes through (issue 52, item 1): it decides
      // between replacing and writing through, and refuses a file this command holds open.
      let writer = try AtomicFileWriter(path: path, refusingFilesOpenHere: true)
      try writer.write(text.utf8)
      try writer.commit()
    } catch let error as BaseFormatError {
      if case .refusedOutput(let why) = error.problem { throw BenchError("cannot write \(why)") }
      throw BenchError("cannot write \(path): \(error.problemDescription)")
    } catch {
      throw BenchError("cannot write \(path): \(Self.systemText(of: error))")
    }
  }

  /// Checks, before a long run, that ``writeAtomically(_:to:)`` could write `path`: a run of
  /// hours that ends in "the folder does not exist" has wasted them.
  /// - Throws: ``/BenchMeasuring/BenchError`` naming the path, as ``writeAtomically(_:to:)`` would.
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

  /// The system's own text for a Foundation error ("No space left on device"), not
  /// `NSCocoaErrorDomain`'s code and dictionary (issue 52, item 13).
  public static func systemText(of error: Error) -> String {
    let cocoa = error as NSError
    if cocoa.domain == NSPOSIXErrorDomain { return SystemErrorText.describe(Int32(cocoa.code)) }
    if let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return SystemErrorText.describe(Int32(underlying.code))
    }
    return cocoa.localizedDescription
  }

  /// The chart written beside a CSV when no `--chart` is given: the CSV's path with
  /// `newExtension`, or nil when the CSV is not a regular file (`--out /dev/null` made
  /// `/dev/null.svg`; issue 52, item 13): a FIFO or a device has no "beside".
  public static func sidecarPath(of path: String, with newExtension: String) -> String? {
    guard case .replace? = try? OutputTarget.of(path, creatingFolder: true) else { return nil }
    return replacingExtension(of: path, with: newExtension)
  }

  /// "wrote x.csv and x.svg", or "wrote /dev/stdout" when the CSV is not a regular file and
  /// so has no chart beside it (``sidecarPath(of:with:)``).
  public static func wroteLine(csv: String) -> String {
    sidecarPath(of: csv, with: "svg").map { "wrote \(csv) and \($0)" } ?? "wrote \(csv)"
  }

  /// `Results/x.csv` → `Results/x.svg`.
  public static func replacingExtension(of path: String, with newExtension: String) -> String {
    URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension(newExtension)
      .relativePath
  }
}
