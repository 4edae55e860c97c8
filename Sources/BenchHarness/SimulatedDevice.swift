import CallDirectoryApp
import CallDirectoryHost

/// The app and the simulated system together, as on a device: the user's Settings switch, and
/// the app's sync through the ``CallDirectoryManaging`` surface.
extension ContainerApp {
  /// The user turns the extension on in Settings: the system runs a complete load; the app then
  /// records what the load installed.
  /// - Throws: ``HostError`` when the system fails; ``ContainerAppError`` when the manifest does.
  public func enable(system: SimulatedSystem, bundleID: String, executable: String) throws
    -> RequestResult
  {
    let result = try system.enable(
      bundleID, runner: .process(executable: executable, container: container))
    if result.succeeded { try markInstalled() }
    return result
  }

  /// ``sync(manager:bundleID:)`` through the simulated system, spawning `executable`.
  public func sync(
    system: SimulatedSystem, bundleID: String, executable: String,
    warn: (String) -> Void = { _ in }
  ) throws -> [RequestResult] {
    try sync(
      manager: SimulatedCallDirectoryManager(
        system: system, executable: executable, container: container),
      bundleID: bundleID, warn: warn)
  }
}
