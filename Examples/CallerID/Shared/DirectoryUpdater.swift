import CallDirectoryApp
import CallDirectoryCore
import CallKitAdapter
import Foundation
import ReleaseDownload

/// The app's work, apart from its screen: where the App Group container is, what the extension
/// holds, and an update (a release's new bases, then a sync). No SwiftUI, no Combine and no
/// BackgroundTasks, so it is type-checked on Linux against the CallKit stand-in
/// (Scripts/typecheck-callkit-adapter.sh) and for iOS 16 (Scripts/typecheck-ios.sh).
///
/// Every call is `async` and stops between files, chunks and requests when its task is
/// cancelled (a background task's expiration): the container is then consistent, and the next
/// update resumes where this one stopped.
struct DirectoryUpdater: Sendable {
  /// The App Group the app and its extension share (both targets' entitlements name it).
  static let appGroup = "group.com.example.callerid"
  /// The Call Directory extension's bundle identifier.
  static let extensionIdentifier = "com.example.callerid.directory"
  /// The background refresh task's identifier (Info.plist's BGTaskSchedulerPermittedIdentifiers).
  static let refreshTaskIdentifier = "com.example.callerid.refresh"

  /// The container folder.
  let container: String
  /// The system's call directory manager.
  let manager = CallKitDirectoryManager()

  /// The container of the App Group, or nil when the app is not entitled to it.
  static func appGroupContainer() -> String? {
    FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup)?.path
  }

  /// What the container holds, what iOS has installed, and whether the user turned the extension
  /// on (Settings › Apps › Phone › Call Blocking & Identification).
  /// - Throws: ``CallDirectoryApp/ContainerAppError``.
  func status() async throws(ContainerAppError) -> DirectoryStatus {
    try await ContainerApp(container: container).status(
      manager: manager, bundleID: Self.extensionIdentifier)
  }

  /// Opens Settings where the user turns the extension on.
  /// - Throws: CallKit's error.
  func openSettings() async throws { try await manager.openSettings() }

  /// Brings the App Group container to the newest version of a `calldir publish` release folder
  /// served at `release` (any static HTTP server) and installs it: patches where the container
  /// holds the base they apply to, whole bases otherwise, each checked by size and SHA-256; an
  /// interrupted download resumes next time (HTTP `Range`). Then syncs: iOS reloads the
  /// extension, once per chunk past the cap. `events` hears each file and request.
  /// - Returns: how each reload ended (none when the extension is off or up to date).
  /// - Throws: ``CallDirectoryApp/ContainerAppError``, whose kind says what to tell the user
  ///   (``userMessage(for:)``).
  func update(fromRelease release: URL, events: @escaping @Sendable (SyncEvent) -> Void)
    async throws(ContainerAppError) -> [CallKitDirectoryManager.ReloadOutcome]
  {
    let app = ContainerApp(container: container)
    try await app.update(from: HTTPReleaseSource(base: release), events: events)
    return try await app.sync(manager: manager, bundleID: Self.extensionIdentifier, events: events)
  }

  /// Stages every base of a compiled container (`calldir compile --out DIR`, shipped in the
  /// app's bundle) into the App Group container, chooses its regions (or keeps the user's), and
  /// syncs (the sync asks for the full set itself).
  /// - Returns: how each reload ended.
  /// - Throws: ``CallDirectoryApp/ContainerAppError`` naming the base or step that failed; the
  ///   container is then as it was before that step.
  func update(fromBundled source: String, events: @escaping @Sendable (SyncEvent) -> Void)
    async throws(ContainerAppError) -> [CallKitDirectoryManager.ReloadOutcome]
  {
    let published = try ContainerApp(container: source).manifest()
    let app = ContainerApp(container: container)
    for base in published.bases where base.state != .retired {
      try await app.stage(
        file: source + "/" + base.file, name: base.name, role: base.role, region: base.region,
        priority: base.priority, version: base.version)
    }
    if try app.manifest().chosenRegions.isEmpty { try await app.chooseAllRegions() }
    return try await app.sync(manager: manager, bundleID: Self.extensionIdentifier, events: events)
  }

  /// What to tell the user about a failed update, in their words (localize these).
  static func userMessage(for error: ContainerAppError) -> String {
    switch error.kind {
    case .download:
      error.isRetryable
        ? "The update could not be downloaded. It continues the next time you are online."
        : "The update server did not have the update. Try again later."
    case .noSpace: "Not enough storage for the update. Free some space and try again."
    case .extensionNotEnabled:
      "Turn on “calldir example” in Settings › Apps › Phone › Call Blocking & Identification."
    case .cancelled: "The update was paused. It continues where it stopped next time."
    case .shrink: "The update would remove most numbers, so it was not installed."
    case .downgrade: "The server offered an older directory than this one, so it was not installed."
    case .conflict: "The directory changed during the update. Try again."
    case .system: "iOS could not update the directory right now. Try again later."
    case .badRelease: "The update on the server is damaged. It is installed once it is fixed."
    case .noManifest, .failed, .badArgument: "The update could not be used (\(error.description))."
    }
  }

  /// What to tell the user about requests iOS refused, or nil when every one succeeded (a stop at
  /// the system's cap is a success: the top priorities are in).
  static func userMessage(for outcomes: [CallKitDirectoryManager.ReloadOutcome]) -> String? {
    guard let failure = outcomes.last?.error, !failure.isMaximumEntriesExceeded else {
      return nil
    }
    return "iOS did not take the update (code \(failure.code)). It is tried again next time."
  }
}
