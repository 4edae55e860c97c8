import CallDirectoryCore
import Foundation
import ProcessSpawning
import SystemChannel

/// The simulated iOS call directory service: a store in a host folder, extensions with an enabled
/// status, and requests that run an extension (spawned, or in-process for tests) under the
/// system's limits.
///
/// Like Settings: enabling starts a complete load; disabling stops identification and blocking
/// but keeps the data; a reload may be incremental once a complete load has succeeded; a reload
/// of a disabled extension fails with 6, and a second load during a load with 7.
public final class SimulatedSystem {
  /// The host folder (`CallDirectory.db`, `locks/`).
  public let hostDirectory: String
  /// The store.
  public let store: CallDirectoryStore
  /// Limits enforced on spawned extensions.
  public var limits: ChildProcess.Limits
  /// The allocator spawned extensions run on: jemalloc when installed (as the bench measures
  /// them), else the system's.
  public var allocator = MeasuredAllocator.automatic()
  /// The loader's `maximumAllowedEntries`, whether the cap is shared, and what it counts.
  package var contract = CheckingContext.Configuration()
  /// A simulated watchdog: a spawned request that sends more than this many entries (additions
  /// and removals) is killed with error 2, as a device kills a request that runs too long (its
  /// time limit is not published; a device profile turns it into entries). Nil: never.
  public var watchdogEntries: Int?
  /// A test hook: spawned extensions stop at their Nth durable step (`FaultInjection`),
  /// so the journal they write is tested at every step. The host's own `CALLDIR_FAULT_AT` is never
  /// passed on. Nil: off.
  public var extensionFaultAt: Int?
  /// A test hook: the store fails a request's write once it has written this many entry rows,
  /// as a full disk would, so what the extension is told and what the request leaves are
  /// tested. Nil: off.
  public var storeFailsAfterRows: Int?
  /// A test hook: the next requests fail with these raw codes, in order, one each, before any
  /// extension runs (as iOS's completion handler reports an error): any code, the documented
  /// 0-8, the 102 seen in the field, or one nobody has seen.
  public var failsNextRequestsWith: [Int] = []
  /// The database file's name, as on iOS.
  public static let databaseFileName = "CallDirectory.db"
  /// Default wall-time limit of a request, in seconds.
  public static let defaultTimeoutSeconds = 60.0

  /// Opens (creating) the host folder and its store.
  /// - Throws: ``HostError``.
  public init(hostDirectory: String) throws {
    self.hostDirectory = hostDirectory
    do {
      try FileManager.default.createDirectory(
        atPath: hostDirectory, withIntermediateDirectories: true)
    } catch {
      throw HostError.input("cannot create \(hostDirectory): \(error.localizedDescription)")
    }
    store = try CallDirectoryStore(path: hostDirectory + "/" + Self.databaseFileName)
    limits = ChildProcess.Limits(
      memoryLimitBytes: SystemLimits.defaultMemoryLimitBytes,
      timeoutSeconds: Self.defaultTimeoutSeconds)
  }

  /// How a request reaches the extension.
  public enum Runner {
    /// Spawn this executable with `--container DIR --request …` (the real path), then any extra
    /// arguments.
    case process(executable: String, container: String, extraArguments: [String] = [])
    /// Call `body` in this process with the extension's own context, whose frames reach the
    /// request's session in memory: every check, ack and outcome is the spawned path's (tests).
    case inProcess((ChannelContext) -> Void)
  }

  /// Turns the extension on, as the Settings switch does, and runs the complete load that follows.
  /// The switch stays on only when the load succeeds: a failed load leaves the extension
  /// disabled (lookups ignore it), as iOS turns the switch back off.
  /// - Throws: ``HostError/callDirectory(_:detail:)`` with 7 when a load of it is running (the
  ///   state is then unchanged); ``HostError`` when the store or the spawner fails.
  public func enable(_ bundleID: String, runner: Runner) throws -> RequestResult {
    let result = try request(bundleID, incremental: false, enabling: true, runner: runner)
    if !result.succeeded { try store.setState(.disabled, of: bundleID) }
    return result
  }

  /// Turns the extension off: lookups ignore it; its entries stay in the store.
  public func disable(_ bundleID: String) throws {
    guard try store.state(of: bundleID) != .unknown else {
      throw HostError.input("no extension \(bundleID): nothing to turn off")
    }
    try store.setState(.disabled, of: bundleID)
  }

  /// `CXCallDirectoryManager.reloadExtension`: a new request, incremental when asked for and a
  /// complete load has already succeeded.
  public func reload(_ bundleID: String, incremental: Bool, runner: Runner) throws -> RequestResult
  {
    guard try store.state(of: bundleID) == .enabled else {
      throw HostError.callDirectory(
        .extensionDisabled, detail: "\(bundleID) is not enabled in Settings")
    }
    let allowed = try incremental && hasCompletedCompleteLoad(bundleID)
    return try request(bundleID, incremental: allowed, runner: runner)
  }

  /// Whether a complete (not incremental) request of the extension has succeeded.
  public func hasCompletedCompleteLoad(_ bundleID: String) throws -> Bool {
    let id = try store.extensionID(bundleID)
    return try store.database.integer(
      "SELECT count(*) FROM CalldirRequest WHERE extension_id = ? AND incremental = 0 AND outcome = 'completed'",
      [id]) ?? 0 > 0
  }

  /// What an incoming call from `number` would show.
  public func lookup(_ number: Int64) throws -> LookupResult { try store.lookup(number) }

  /// Runs one request; `enabling` turns the extension on in the request's own commit.
  private func request(
    _ bundleID: String, incremental: Bool, enabling: Bool = false, runner: Runner
  ) throws -> RequestResult {
    guard let lock = try ExtensionLock(hostDirectory: hostDirectory, bundleID: bundleID) else {
      throw HostError.callDirectory(.currentlyLoading, detail: "\(bundleID) is already loading")
    }
    defer { withExtendedLifetime(lock) {} }
    if !failsNextRequestsWith.isEmpty {
      let code = failsNextRequestsWith.removeFirst()
      let refused = RequestResult(
        refused: CallDirectoryError(code: code), detail: "failed with code \(code) (test hook)",
        incremental: incremental)
      try store.logRequest(
        extensionID: try store.extensionID(bundleID), started: Date(), incremental: incremental,
        outcome: "failed", errorCode: code, entries: 0, detail: refused.detail)
      return refused
    }
    let started = Date()
    let transaction = try store.beginRequest(bundleID: bundleID, incremental: incremental)
    if enabling { transaction.stateOnCommit = .enabled }
    transaction.failsAfterRows = storeFailsAfterRows
    // Under a cap per extension an incremental request starts from what the extension holds.
    let held =
      incremental && contract.capScope == .perExtension
      ? try store.counts(of: bundleID) : .init(identification: 0, blocking: 0)
    let ingest = RequestIngest(
      transaction: transaction, configuration: contract,
      held: (held.identification, held.blocking))
    var result: RequestResult
    switch runner {
    case .process(let executable, let container, let extraArguments):
      let arguments =
        [
          "--container", container, "--request", incremental ? "incremental" : "complete",
          "--max-entries", String(contract.maximumAllowedEntries),
        ] + extraArguments
      result = try ChildRequest(
        executable: executable, arguments: arguments, limits: limits, allocator: allocator,
        watchdogEntries: watchdogEntries, extensionFaultAt: extensionFaultAt
      )
      .run(ingest: ingest)
    case .inProcess(let body):
      // The spawned path without the process: the extension's own context, its frames carried
      // in memory to the same session.
      let start = limits.clock.nanoseconds()
      let session = RequestSession(ingest: ingest, watchdogEntries: nil, clock: limits.clock)
      body(ChannelContext(isIncremental: incremental, transport: InMemoryTransport(session)))
      result = session.result(.inProcess, wallSeconds: session.seconds(since: start))
    }
    let id = try store.extensionID(bundleID)
    try store.logRequest(
      extensionID: id, started: started, incremental: incremental,
      outcome: result.succeeded ? "completed" : "failed", errorCode: result.error?.code,
      entries: result.entries, detail: result.detail)
    store.checkpoint()
    return result
  }
}
