import CallDirectoryApp
import CallDirectoryCore
import CallKitAdapter
import DirectoryContainer
import Foundation

/// The user's own lists, as the screen edits them: each edit is written to the App Group
/// container, then one sync sends it (one small incremental request; a request that fails is
/// sent again by the next sync, so no edit is lost). No SwiftUI: type-checked on Linux.
extension DirectoryUpdater {
  /// The country national numbers are read in: the phone's region (`06 12 34 56 78` in France).
  static var country: String? { Locale.current.region?.identifier }

  private var lists: UserListsEditor {
    ContainerApp(container: container).userLists(country: Self.country)
  }

  /// Blocks a number typed or pasted in any written form, then syncs.
  /// - Throws: ``CallDirectoryApp/ContainerAppError`` (`.badArgument` for a number that does not
  ///   read: say so beside the field).
  func block(_ written: String) async throws(ContainerAppError) -> [CallKitDirectoryManager
    .ReloadOutcome]
  {
    try await lists.block(written)
    return try await sync()
  }

  /// Allows a number: never blocked, whatever blocks it. Then syncs.
  func allow(_ written: String) async throws(ContainerAppError) -> [CallKitDirectoryManager
    .ReloadOutcome]
  {
    try await lists.allow(written)
    return try await sync()
  }

  /// Takes a number off the user's lists, then syncs.
  func remove(_ number: Int64) async throws(ContainerAppError) -> [CallKitDirectoryManager
    .ReloadOutcome]
  {
    try await lists.unblock("+\(number)")
    return try await sync()
  }

  /// Pauses blocking for an hour (labels stay), then syncs: one `removeAllBlockingEntries`.
  func pauseForAnHour() async throws(ContainerAppError) -> [CallKitDirectoryManager
    .ReloadOutcome]
  {
    try await lists.pause(for: 3_600)
    return try await sync()
  }

  /// Ends the pause, then syncs (a complete reload brings the blocking entries back).
  func resume() async throws(ContainerAppError) -> [CallKitDirectoryManager.ReloadOutcome] {
    try await lists.resume()
    return try await sync()
  }

  /// The user's lists, and what the system does not hold yet.
  func userEntries() async throws(ContainerAppError) -> (UserLists, UserListsChanges) {
    (try await lists.entries(), try await lists.pending())
  }

  private func sync() async throws(ContainerAppError) -> [CallKitDirectoryManager.ReloadOutcome] {
    try await ContainerApp(container: container).sync(
      manager: manager, bundleID: Self.extensionIdentifier)
  }
}
