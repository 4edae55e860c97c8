/// How far the app has got installing a full set larger than one load (issue 11, "past the
/// cap"), kept in the manifest's `install` line so it changes with the manifest, atomically:
///
/// ```
/// install	installed=1999999	target=2999999	chunk=1000000	total=4000000	ack=3
/// ```
///
/// The system holds the **top `installed` entries by priority** of the installed files (the
/// prefix `CallDirectoryLoader`'s cap plan admits). A complete request installs up to the
/// system's cap; each incremental request then grows the prefix to `target`, one chunk at a
/// time, until `total`. Every field is optional; a manifest without the line installs up to the
/// cap, as before.
public struct InstallProgress: Equatable, Sendable {
  /// The largest chunk an incremental request adds by default: urcalab/chao600 (Chile, 11 M
  /// numbers) reloads 1,000,000 numbers per request.
  package static let defaultChunkEntries = 1_000_000
  /// The smallest chunk by default: chao600 halves a failed chunk down to 125,000 (an eighth of
  /// its 1,000,000) and stops there.
  package static let defaultMinimumChunkEntries = 125_000

  /// The prefix the system holds, in entries; nil: up to the cap (a complete load's).
  public var installedEntries: Int?
  /// The prefix the next incremental request installs; nil: up to the cap.
  public var targetEntries: Int?
  /// Entries the next chunk adds (halved when the system kills a request).
  package var chunkEntries = InstallProgress.defaultChunkEntries
  /// The chunk is not halved below this.
  package var minimumChunkEntries = InstallProgress.defaultMinimumChunkEntries
  /// The full set's size (duplicates merged) as the extension last counted it; nil: unknown.
  public var totalEntries: Int?
  /// The system refused to hold more than this many entries (error 5); nil: not seen.
  public var capReachedAt: Int?
  /// The last request in the extension's journal the app has accounted for.
  package var acknowledgedRequest = 0
  /// Set just before the app asks for a request, cleared once it has recorded how it ended: a
  /// journal entry newer than ``acknowledgedRequest`` while this is set may be the app's own
  /// request, whose commit nobody saw, rather than one iOS made.
  package var requestInFlight = false

  package init() {}

  /// Entries chosen but not installed: 0 when everything is in or nothing is known.
  public var pendingEntries: Int {
    guard let installedEntries, let totalEntries else { return 0 }
    return max(0, totalEntries - installedEntries)
  }

  /// Sets the chunk, and its floor (default: an eighth of the chunk, at most 125,000).
  package mutating func setChunk(_ entries: Int, minimum: Int? = nil) {
    chunkEntries = max(1, entries)
    minimumChunkEntries = max(
      1, min(chunkEntries, minimum ?? min(Self.defaultMinimumChunkEntries, chunkEntries / 8)))
  }

  /// Whether the line can be left out (every field at its default).
  var isDefault: Bool { self == InstallProgress() }

  /// The line's fields after `install`.
  var fields: [String] {
    var fields: [String] = []
    func add(_ key: String, _ value: Int?) { if let value { fields.append("\(key)=\(value)") } }
    add("installed", installedEntries)
    add("target", targetEntries)
    add("chunk", chunkEntries)
    add("floor", minimumChunkEntries)
    add("total", totalEntries)
    add("cap", capReachedAt)
    add("ack", acknowledgedRequest)
    if requestInFlight { fields.append("inflight=1") }
    return fields
  }

  /// Parses the fields of an `install` line.
  /// - Throws: ``ManifestError`` naming an unknown key or a value that is not a whole number
  ///   (chunk at least 1, every other value 0 or more).
  init(fields: ArraySlice<String>, line: Int) throws(ManifestError) {
    for field in fields {
      let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let value = Int(parts[1]), value >= 0 else {
        throw ManifestError(line: line, problem: "install fields are key=whole number: '\(field)'")
      }
      switch parts[0] {
      case "installed": installedEntries = value
      case "target": targetEntries = value
      case "chunk":
        guard value >= 1 else {
          throw ManifestError(line: line, problem: "install chunk must be at least 1")
        }
        chunkEntries = value
      case "floor": minimumChunkEntries = value
      case "total": totalEntries = value
      case "cap": capReachedAt = value
      case "ack": acknowledgedRequest = value
      case "inflight": requestInFlight = value != 0
      default:
        throw ManifestError(line: line, problem: "unknown install field '\(parts[0])'")
      }
    }
  }
}
