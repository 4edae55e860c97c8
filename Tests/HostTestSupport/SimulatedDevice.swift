import CallDirectoryApp
import CallDirectoryHost

/// The app and the simulated system together, as on a device: the user's Settings switch, and
/// the app's sync through the `CallDirectoryManaging` surface.
extension ContainerApp {
  /// The user turns the extension on in Settings: the system runs a complete load. As on iOS
  /// the app is not told: it learns what the load installed from the extension's journal when
  /// it next syncs.
  /// - Throws: `HostError` when the system fails.
  public func enable(system: SimulatedSystem, bundleID: String, executable: String) throws
    -> RequestResult
  {
    try system.enable(bundleID, runner: .process(executable: executable, container: container))
  }

  /// `sync(manager:bundleID:maximumRequests:events:)` through the simulated system, spawning
  /// `executable`.
  /// - Throws: `ContainerAppError`, as that sync does.
  public func sync(
    system: SimulatedSystem, bundleID: String, executable: String,
    maximumRequests: Int = ContainerApp.maximumRequestsPerSync,
    events: @Sendable (SyncEvent) -> Void = { _ in }
  ) async throws(ContainerAppError) -> [RequestResult] {
    try await sync(
      manager: SimulatedCallDirectoryManager(
        system: system, executable: executable, container: container),
      bundleID: bundleID, maximumRequests: maximumRequests, events: events)
  }
}
