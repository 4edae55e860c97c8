import Foundation
import ProcessMetrics
import SystemCalls

/// The disk a compile's sort needs: checked before it starts, measured when the reading ends,
/// and cleaned of what killed compiles left.
enum TemporarySpace {
  /// Sort-run bytes per input byte, with room: a run record is the row's texts plus 30 bytes
  /// of number, rank, order and lengths (directory-4m: 224 MB of TSV made 250 MiB of runs), and
  /// a merge pass writes a group's longer run before it removes the group's.
  static let bytesPerInputByte = 1.5
  /// Sort-run bytes per byte of a gzip input, which expands about four times.
  static let bytesPerGzipByte = 6.0

  /// The sort runs' estimated size for `inputs`, in bytes.
  static func estimate(inputs: [String]) -> Int {
    var total = 0.0
    for path in inputs {
      let size = Double(FolderCalls.regularFileByteCount(path) ?? 0)
      total += size * (path.hasSuffix(".gz") ? bytesPerGzipByte : bytesPerInputByte)
    }
    return Int(total)
  }

  /// Refuses to start when `folder`'s volume has less free space than the runs need.
  /// - Throws: ``CompileError/usage(_:)`` with both figures and the flag to use.
  static func check(inputs: [String], folder: String) throws {
    let needed = estimate(inputs: inputs)
    var probe = folder
    while !FolderCalls.exists(probe, followingLinks: true), probe.contains("/") {
      probe = String(probe[..<probe.lastIndex(of: "/")!])
      if probe.isEmpty { probe = "/" }
    }
    guard let free = FolderCalls.availableByteCount(onVolumeOf: probe.isEmpty ? "." : probe),
      free < needed
    else { return }
    throw CompileError.usage(
      "the sort needs about \(ByteCount.format(needed)) of temporary space and \(folder) has \(ByteCount.format(free)) free; name a folder with room with --temp DIR"
    )
  }

  /// Bytes of the files in `folder` (the sort's runs).
  static func bytes(in folder: String) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.reduce(0) { $0 + (FolderCalls.regularFileByteCount(folder + "/" + $1) ?? 0) }
  }

  /// Removes the `.compile-PID` folders in `folder` whose process is gone: a killed compile's
  /// runs. A live compile's (another container's, in a shared `--temp`) is left alone.
  static func removeAbandoned(in folder: String) {
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    where entry.hasPrefix(".compile-") {
      guard let owner = Int32(entry.dropFirst(".compile-".count)), owner != getpid(),
        !ProcessEnvironment.isRunning(owner)
      else { continue }
      try? FileManager.default.removeItem(atPath: folder + "/" + entry)
    }
  }
}
