import BaseFormat
import Foundation

/// Generated datasets on disk, outside git: one folder per distinct set of parameters under the
/// cache root (`.calldir/datasets` by default, or `$CALLDIR_CACHE`). A folder is complete once its
/// `dataset.json` exists; it is written last.
public struct DatasetCache: Sendable {
  /// The cache root.
  public let root: URL

  /// A cache at `root`, else `$CALLDIR_CACHE`, else `.calldir/datasets` in the working directory.
  public init(root: String? = nil) {
    let path =
      root ?? ProcessInfo.processInfo.environment["CALLDIR_CACHE"] ?? ".calldir/datasets"
    self.root = URL(fileURLWithPath: path, isDirectory: true)
  }

  /// A dataset's files, ready to read.
  public struct Entry: Sendable {
    /// The folder.
    public let directory: URL
    /// The parameters it was generated from.
    public let parameters: DatasetParameters

    /// The path of the file in `format`.
    public func path(_ format: DatasetFormat) -> String {
      directory.appendingPathComponent(format.fileName).path
    }

    /// The size of the file in `format`, in bytes (0 when missing).
    public func byteCount(_ format: DatasetFormat) -> Int {
      let attributes = try? FileManager.default.attributesOfItem(atPath: path(format))
      return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }
  }

  /// Returns the dataset for `parameters` in `formats`, generating what is missing.
  /// - Parameter log: receives one line per file generated.
  /// - Throws: ``DatasetError`` for invalid parameters or a file that cannot be written.
  public func ensure(
    _ parameters: DatasetParameters, formats: [DatasetFormat], log: (String) -> Void = { _ in }
  ) throws -> Entry {
    try parameters.validate()
    let directory = root.appendingPathComponent(parameters.cacheKey, isDirectory: true)
    let entry = Entry(directory: directory, parameters: parameters)
    let missing = formats.filter { !FileManager.default.fileExists(atPath: entry.path($0)) }
    let marker = directory.appendingPathComponent("dataset.json")
    if missing.isEmpty && FileManager.default.fileExists(atPath: marker.path) { return entry }
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw DatasetError(
        "cannot create the dataset cache \(directory.path): \(error.localizedDescription)")
    }
    let started = Date()
    log("generating \(parameters.entries) entries (\(parameters.cacheKey))")
    let generator = try DatasetGenerator(parameters: parameters)
    for format in missing {
      do {
        try generator.write(format, to: entry.path(format))
      } catch {
        throw DatasetError(error.description)
      }
      log("  wrote \(format.rawValue): \(entry.path(format)) (\(entry.byteCount(format)) bytes)")
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let metadata = try encoder.encode(parameters)
    try metadata.write(to: marker, options: .atomic)
    log(String(format: "  dataset ready in %.1f s", Date().timeIntervalSince(started)))
    return entry
  }
}
