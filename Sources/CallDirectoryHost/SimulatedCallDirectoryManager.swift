import CallDirectoryCore

/// The simulated system seen through the app's ``CallDirectoryManaging`` surface: reloads run the
/// app's extension through `runner`, as iOS runs the extension of the app's bundle.
public struct SimulatedCallDirectoryManager: CallDirectoryManaging {
  let system: SimulatedSystem
  let runner: SimulatedSystem.Runner

  /// A manager whose reloads run the extension executable `executable`, which reads `container`.
  public init(system: SimulatedSystem, executable: String, container: String) {
    (self.system, runner) = (system, .process(executable: executable, container: container))
  }

  /// The extension's state in the store; `unknown` for a bundle id the system has never seen.
  /// - Throws: ``HostError/store(_:)``.
  public func enabledStatus(ofExtension identifier: String) throws -> ExtensionEnabledStatus {
    switch try system.store.state(of: identifier) {
    case .enabled: .enabled
    case .unknown: .unknown
    default: .disabled
    }
  }

  /// A request of the extension. iOS's refusals (6 disabled, 7 currently loading) come back in
  /// the result, as the completion handler receives them.
  /// - Throws: ``HostError`` when the store or the spawner fails.
  public func reloadExtension(_ identifier: String, incremental: Bool) throws -> RequestResult {
    do {
      return try system.reload(identifier, incremental: incremental, runner: runner)
    } catch HostError.callDirectory(let error, let detail) {
      return RequestResult(refused: error, detail: detail, incremental: incremental)
    }
  }
}
