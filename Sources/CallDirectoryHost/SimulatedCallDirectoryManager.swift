import CallDirectoryCore

/// The simulated system seen through the app's ``CallDirectoryManaging`` surface: reloads run the
/// app's extension through `runner`, as iOS runs the extension of the app's bundle.
public struct SimulatedCallDirectoryManager: CallDirectoryManaging {
  let system: SimulatedSystem
  /// The runner of each extension, by bundle identifier.
  let runnerFor: (String) -> SimulatedSystem.Runner

  /// A manager whose reloads run the extension executable `executable`, which reads `container`.
  public init(system: SimulatedSystem, executable: String, container: String) {
    self.system = system
    runnerFor = { _ in .process(executable: executable, container: container) }
  }

  /// A manager for a set split across extensions (`ContainerApp.syncParts`): `BUNDLE.N` runs
  /// `executable` on part N's container (`container/parts/N`), as each of an app's extensions
  /// reads its own part on iOS; any other identifier runs it on `container`.
  public init(system: SimulatedSystem, executable: String, partsOf container: String) {
    self.system = system
    runnerFor = { identifier in
      let suffix = identifier.split(separator: ".").last.flatMap { Int($0) }
      let folder = suffix.map { container + "/parts/\($0)" } ?? container
      return .process(executable: executable, container: folder)
    }
  }

  /// A manager for a set split across extensions named explicitly
  /// (`ContainerApp.syncParts(manager:extensions:…)`): `extensions[N - 1]` runs `executable` on
  /// part N's container; any other identifier runs it on `container`.
  public init(
    system: SimulatedSystem, executable: String, partsOf container: String, extensions: [String]
  ) {
    self.system = system
    runnerFor = { identifier in
      let index = extensions.firstIndex(of: identifier)
      let folder = index.map { container + "/parts/\($0 + 1)" } ?? container
      return .process(executable: executable, container: folder)
    }
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
      return try system.reload(identifier, incremental: incremental, runner: runnerFor(identifier))
    } catch HostError.callDirectory(let error, let detail) {
      return RequestResult(refused: error, detail: detail, incremental: incremental)
    }
  }

  /// Settings has no screen here: the user's switch is `calldir host enable` / `disable` (or
  /// ``SimulatedSystem/enable(_:runner:)``), so there is nothing to open.
  public func openSettings() {}
}
