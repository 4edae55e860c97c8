import CallDirectoryApp
import CallDirectoryCore
import CallKitAdapter
import DirectoryContainer
import Foundation
import ReleaseDownload

/// The app's work, apart from its screen: where the App Group container is, what the extension
/// holds, and an update (stage the new bases, then sync). No SwiftUI and no Combine, so it is
/// type-checked on Linux against the CallKit stand-in (Scripts/typecheck-callkit-adapter.sh).
///
/// Blocking calls (staging hashes every base, a sync waits for iOS): call them off the main
/// thread.
struct DirectoryUpdater: Sendable {
  /// The App Group the app and its extension share (both targets' entitlements name it).
  static let appGroup = "group.com.example.callerid"
  /// The Call Directory extension's bundle identifier.
  static let extensionIdentifier = "com.example.callerid.directory"

  /// What the screen shows.
  struct Counts: Equatable, Sendable {
    /// Entries iOS holds, per the app's records (nil before the first sync).
    var installed: Int?
    /// Entries staged but not yet installed (past the cap, or never synced).
    var pending: Int
    /// Bases in the container.
    var bases: Int
  }

  /// One step of an update, for the progress bar: `done` of `total` steps, and what is happening.
  struct Progress: Equatable, Sendable {
    var done: Int
    var total: Int
    var step: String
  }

  /// The container folder.
  let container: String

  /// The container of the App Group, or nil when the app is not entitled to it.
  static func appGroupContainer() -> String? {
    FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup)?.path
  }

  /// Whether the user turned the extension on (Settings › Phone › Call Blocking &
  /// Identification).
  /// - Throws: CallKit's error.
  func extensionStatus() throws -> ExtensionEnabledStatus {
    try CallKitDirectoryManager().enabledStatus(ofExtension: Self.extensionIdentifier)
  }

  /// The counts the container records.
  /// - Throws: ``CallDirectoryApp/ContainerAppError`` when the manifest cannot be read.
  func counts() throws -> Counts {
    let manifest = try ContainerApp(container: container).manifest()
    let progress = manifest.installProgress
    let staged = manifest.bases.filter { $0.state != .retired }.reduce(0) { $0 + $1.entries }
    return Counts(
      installed: progress.installedEntries,
      pending: progress.installedEntries == nil ? staged : progress.pendingEntries,
      bases: manifest.bases.count)
  }

  /// Brings the App Group container to the newest version of a `calldir publish` release
  /// folder served at `release` (any static HTTP server): patches where the container holds the
  /// base they apply to, whole bases otherwise, each checked by size and SHA-256; an interrupted
  /// download resumes on the next call (HTTP `Range`); a refused file (an HTTP error, a wrong
  /// hash) changes nothing. Then syncs, as ``update(from:progress:)`` does.
  /// - Returns: how each reload ended (none when the extension is off: see
  ///   ``extensionStatus()``).
  /// - Throws: ``CallDirectoryApp/ContainerAppError`` naming the file or step that failed; the
  ///   container is then as it was before that step.
  func update(
    fromRelease release: URL, progress: (Progress) -> Void
  ) throws -> [CallKitDirectoryManager.ReloadOutcome] {
    let app = ContainerApp(container: container)
    progress(Progress(done: 0, total: 2, step: "Downloading"))
    try app.update(from: HTTPReleaseSource(base: release)) { step in
      progress(Progress(done: 0, total: 2, step: step))
    }
    try app.requestFullSet()
    progress(Progress(done: 1, total: 2, step: "Installing"))
    let outcomes = try app.sync(
      manager: CallKitDirectoryManager(), bundleID: Self.extensionIdentifier)
    progress(Progress(done: 2, total: 2, step: "Done"))
    return outcomes
  }

  /// Stages every base of a compiled container (`calldir compile --out DIR`, shipped in the
  /// app's bundle or unpacked from a download) into the App Group container, chooses its
  /// regions, asks for the full set, and syncs: iOS reloads the extension, once per chunk past
  /// the cap.
  /// - Parameters:
  ///   - source: the compiled container's folder.
  ///   - progress: called after each step.
  /// - Returns: how each reload ended.
  /// - Throws: ``CallDirectoryApp/ContainerAppError`` naming the base or step that failed; the
  ///   container is then as it was before that step.
  func update(
    from source: String, progress: (Progress) -> Void
  ) throws -> [CallKitDirectoryManager.ReloadOutcome] {
    let published = try ContainerApp(container: source).manifest()
    let bases = published.bases.filter { $0.state != .retired }
    let app = ContainerApp(container: container)
    let total = bases.count + 1
    for (index, base) in bases.enumerated() {
      progress(Progress(done: index, total: total, step: "Verifying \(base.name)"))
      try app.stage(
        file: source + "/" + base.file, name: base.name, role: base.role, region: base.region,
        priority: base.priority, version: base.version)
    }
    let regions = Set(bases.compactMap(\.region))
    let chosen = try app.manifest().chosenRegions.filter(regions.contains)
    try app.choose(regions: chosen.isEmpty ? regions.sorted() : chosen)
    try app.requestFullSet()
    progress(Progress(done: bases.count, total: total, step: "Installing"))
    let outcomes = try app.sync(
      manager: CallKitDirectoryManager(), bundleID: Self.extensionIdentifier)
    progress(Progress(done: total, total: total, step: "Done"))
    return outcomes
  }
}
