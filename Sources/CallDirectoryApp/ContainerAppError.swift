/// Why the app's call failed: one line naming the file, base or argument and the problem, with
/// cases an app switches on (``kind``), what it concerns (``file``, ``base``, ``code``) and
/// whether trying again can help (``isRetryable``). The container is as it was before the call,
/// or, for a sync, as consistent as after a killed one (each finished request recorded).
///
/// The line names no `calldir` command or flag: an app's user has neither. The command line
/// adds its own hints.
public struct ContainerAppError: Error, CustomStringConvertible, Equatable, Sendable {
  /// What kind of failure it is.
  public enum Kind: Sendable, Equatable, Hashable {
    /// A local file or container that cannot be used (a damaged base, a file that cannot be
    /// read or written): trying again with the same files fails again.
    case failed
    /// The release cannot be used: an index that cannot be read as one, a file whose size or
    /// SHA-256 is not the index's, a release that contradicts itself or has no version. Trying
    /// again fails until the release is published again: tell whoever publishes it.
    case badRelease
    /// An argument the call cannot take (a base name outside the rule, a repeated extension, a
    /// chunk under one entry, a split into fewer than two): the app's own mistake, which no
    /// retry mends.
    case badArgument
    /// An update that would leave fewer than half the entries the container publishes (or
    /// none): refused unless shrinking is allowed (`DirectoryContainer.ShrinkRule`).
    case shrink
    /// The system knows no such extension: the user has not turned it on in Settings
    /// (`CallDirectoryCore.CallDirectoryManaging.openSettings()` shows them where).
    case extensionNotEnabled
    /// The container has no manifest yet: nothing was staged, updated or compiled into it.
    case noManifest
    /// A release's file could not be fetched (the network, a timeout, an HTTP status in
    /// ``code``): what arrived is kept, and the next update resumes.
    case download
    /// The volume has too little free space; the line gives both figures.
    case noSpace
    /// The call directory manager itself failed (CallKit's error, the simulated system's
    /// store); ``underlying`` holds its error.
    case system
    /// The task was cancelled: the call stopped between two files, chunks or requests.
    case cancelled
    /// An update whose release is older than the version the container holds (a stale mirror,
    /// a cached or replayed index): refused unless a downgrade is allowed, so no user is ever
    /// rolled back by accident.
    case downgrade
    /// Another writer (a compile, another update) changed the container while this update
    /// fetched its files, three times in a row: nothing was changed; trying again plans afresh.
    case conflict
  }

  /// The line.
  public let description: String
  /// What kind of failure it is.
  public let kind: Kind
  /// The file the failure concerns (a base, a patch, the manifest), when there is one.
  public let file: String?
  /// The base the failure concerns (its manifest name), when there is one.
  public let base: String?
  /// The HTTP status of a failed download (``Kind/download``), when a server answered.
  public let code: Int?
  /// The manager's own error, for ``Kind/system``.
  public let underlying: (any Error)?

  /// Whether the same call can succeed later without other input: a download (the network
  /// comes back, the part resumes), a full volume once space is freed, the system's own
  /// failure, a cancelled call. A refused file, argument or shrink fails again.
  public var isRetryable: Bool {
    switch kind {
    case .download: code.map { $0 >= 500 || $0 == 408 || $0 == 429 } ?? true
    case .noSpace, .system, .cancelled, .conflict: true
    case .failed, .badRelease, .badArgument, .shrink, .extensionNotEnabled, .noManifest,
      .downgrade:
      false
    }
  }

  /// An error saying `description`, of `kind`: what the library throws, and what an app's test
  /// doubles (a fake release source, a fake manager) throw to exercise the app's handling.
  /// - Parameters:
  ///   - description: the one line, naming the file, base or argument and the problem.
  ///   - kind: what kind of failure it is (``Kind/failed`` unless given).
  ///   - file: the file it concerns, when there is one.
  ///   - base: the base it concerns (its manifest name), when there is one.
  ///   - code: the HTTP status of a failed download, when a server answered.
  ///   - underlying: the manager's own error, for ``Kind/system``.
  public init(
    _ description: String, kind: Kind = .failed, file: String? = nil, base: String? = nil,
    code: Int? = nil, underlying: (any Error)? = nil
  ) {
    self.description = description
    self.kind = kind
    self.file = file
    self.base = base
    self.code = code
    self.underlying = underlying
  }

  public static func == (left: ContainerAppError, right: ContainerAppError) -> Bool {
    left.description == right.description && left.kind == right.kind && left.file == right.file
      && left.base == right.base && left.code == right.code
  }

  /// The error a cancelled call throws.
  static let cancelled = ContainerAppError(
    "cancelled: stopped between two steps; the container is consistent", kind: .cancelled)

  /// Throws ``cancelled`` when the current task has been cancelled.
  static func checkCancellation() throws(ContainerAppError) {
    if Task.isCancelled { throw cancelled }
  }

  /// Runs `body`, handing on a ``ContainerAppError`` as it is and turning any other error into
  /// one: a task's cancellation into ``Kind/cancelled``, the manager's errors into
  /// ``Kind/system``. The public calls' typed throws rest on this.
  static func catchingAsync<Result>(_ body: () async throws -> Result)
    async throws(ContainerAppError) -> Result
  {
    do {
      return try await body()
    } catch let error as ContainerAppError {
      throw error
    } catch is CancellationError {
      throw cancelled
    } catch {
      throw ContainerAppError("the system failed: \(error)", kind: .system, underlying: error)
    }
  }

  /// ``catchingAsync(_:)`` for synchronous work.
  static func catching<Result>(_ body: () throws -> Result) throws(ContainerAppError) -> Result {
    do {
      return try body()
    } catch let error as ContainerAppError {
      throw error
    } catch {
      throw ContainerAppError("\(error)", underlying: error)
    }
  }
}
