import CallDirectoryCore
import Foundation

// Safe: the system (one SQLite connection and its settings) is touched by the manager's calls
// only under `serial`, one call at a time, whichever tasks make them; `runnerFor` is a
// `@Sendable` closure over strings.
/// The simulated system seen through the app's ``CallDirectoryManaging`` surface: reloads run the
/// app's extension through `runner`, as iOS runs the extension of the app's bundle.
///
/// It is `Sendable`, as CallKit's manager is: calls from several tasks run one at a time (a
/// reload asked while another of this manager's runs is answered 7, currently loading, as iOS
/// answers a second load), and each throws ``HostError``.
public struct SimulatedCallDirectoryManager: CallDirectoryManaging, @unchecked Sendable {
  let system: SimulatedSystem
  /// The runner of each extension, by bundle identifier.
  let runnerFor: @Sendable (String) -> SimulatedSystem.Runner
  /// Held for each call's length: the system is not for two threads at once.
  private let serial = NSLock()

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

  /// What the calls throw: the simulated system's own error.
  public typealias Failure = HostError

  /// A manager whose reloads run what `runner` gives for each extension's bundle identifier
  /// (a test's misbehaving extension, say).
  public init(
    system: SimulatedSystem, runner: @escaping @Sendable (String) -> SimulatedSystem.Runner
  ) {
    self.system = system
    runnerFor = runner
  }

  /// The extension's state in the store; `unknown` for a bundle id the system has never seen.
  /// - Throws: ``HostError/store(_:)``.
  public func enabledStatus(ofExtension identifier: String) throws(HostError)
    -> ExtensionEnabledStatus
  {
    serial.lock()
    defer { serial.unlock() }
    let state = try HostError.typed { try system.store.state(of: identifier) }
    switch state {
    case .enabled: return .enabled
    case .unknown: return .unknown
    default: return .disabled
    }
  }

  /// A request of the extension. iOS's refusals (6 disabled, 7 currently loading) come back in
  /// the result, as the completion handler receives them.
  /// - Throws: ``HostError`` when the store or the spawner fails.
  public func reloadExtension(_ identifier: String, incremental: Bool) throws(HostError)
    -> RequestResult
  {
    guard serial.try() else {
      return RequestResult(
        refused: .currentlyLoading, detail: "another call of this manager is running",
        incremental: incremental)
    }
    defer { serial.unlock() }
    do {
      return try HostError.typed {
        try system.reload(identifier, incremental: incremental, runner: runnerFor(identifier))
      }
    } catch HostError.callDirectory(let error, let detail) {
      return RequestResult(refused: error, detail: detail, incremental: incremental)
    }
  }

  /// Settings has no screen here: the user's switch is `calldir host enable` / `disable` (or
  /// ``SimulatedSystem/enable(_:runner:)``), so there is nothing to open.
  public func openSettings() throws(HostError) {}
}
