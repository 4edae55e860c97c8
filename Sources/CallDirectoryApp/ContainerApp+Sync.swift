import CallDirectoryCore
import CallDirectoryLoader
import DirectoryContainer

extension ContainerApp {
  /// The most requests one sync makes: far more than any plan needs (4 M entries in 1 M chunks
  /// halved to 125 k is under 40), so a system that keeps answering oddly cannot loop forever.
  public static let maximumRequestsPerSync = 1000

  /// Sets how many entries each incremental request past the cap adds, and the floor halving
  /// stops at (default: an eighth of the chunk, at most 125,000).
  /// - Throws: ``ContainerAppError`` for a chunk under 1 or a container without manifest.
  package func setChunk(_ entries: Int, minimum: Int? = nil) throws(ContainerAppError) {
    guard entries >= 1, (minimum ?? 1) >= 1 else {
      throw ContainerAppError(
        "a chunk must hold at least 1 entry, got \(entries)", kind: .badArgument)
    }
    try ContainerAppError.catching {
      try change { manifest, _ in manifest.installProgress.setChunk(entries, minimum: minimum) }
    }
  }

  /// Records how a request the app made ended, from the extension's journal: on success the
  /// bases it read become installed, with the prefix it installed and the set's size; either
  /// way the journal's request is acknowledged, so it is never taken for one iOS made.
  /// - Throws: ``ContainerAppError`` when the manifest cannot be written.
  package func recordRequest(succeeded: Bool) throws(ContainerAppError) {
    try ContainerAppError.catching { try recordRequestNow(succeeded: succeeded) }
  }

  /// ``recordRequest(succeeded:)``'s work.
  private func recordRequestNow(succeeded: Bool) throws {
    if succeeded {
      // The user's lists first: a kill before the manifest acknowledges the request leaves it
      // unacknowledged, and the next sync reloads completely rather than trust the copy.
      let journal = try? ExtensionJournal.read(container: container)
      let acknowledged = try manifest().installProgress.acknowledgedRequest
      let fresh = journal.flatMap { $0.sequence > acknowledged ? $0 : nil }
      guard try recordUserListsSent(fresh?.files) else {
        throw ContainerAppError(
          "the user's lists were staged again while a request sent them (two syncs at once?): the next sync reloads completely",
          kind: .conflict)
      }
    }
    try change { manifest, _ in
      let journal = try? ExtensionJournal.read(container: container)
      let wroteJournal = journal.map { $0.sequence > manifest.installProgress.acknowledgedRequest }
      if let journal { manifest.installProgress.acknowledgedRequest = journal.sequence }
      defer {
        manifest.installProgress.targetEntries = nil
        manifest.installProgress.requestInFlight = false
      }
      guard succeeded else { return }
      let target = manifest.installProgress.targetEntries
      if let journal, wroteJournal == true {
        // What the extension read, even if a writer changed the manifest meanwhile.
        manifest.recordInstalled(journal.files.map { ($0.name, $0.file, $0.sha256) })
        manifest.installProgress.installedEntries = journal.entries
        manifest.installProgress.totalEntries = journal.totalEntries
      } else {
        // An extension that keeps no journal: what a load reads now, and the prefix asked for.
        manifest.recordInstalled(
          manifest.selection.map { ($0.name, $0.file, $0.sha256) })
        manifest.installProgress.installedEntries = target
      }
    }
  }

  /// What the app learnt from the extension's journal about requests it did not record.
  enum SystemRequests {
    /// Nothing new.
    case accountedFor
    /// iOS made a complete request (a Settings toggle): the system holds its first chunk.
    case adoptedCompleteRequest
    /// The same, before the app had recorded any install: the user's first switch-on, which is
    /// what the app expected, so no event tells of it (every `enable` then `sync` said "the
    /// system made a complete request on its own", issue 65, item 6).
    case adoptedFirstInstall
    /// A request of the app's own ended without the app recording it (the app was killed): the
    /// system holds the old set or the new one, and only a complete reload makes it known.
    case unknown
  }

  /// Takes in requests the app did not make or did not record, from the extension's journal.
  func adoptSystemRequests() throws -> SystemRequests {
    // Most syncs find nothing new: they leave the manifest untouched, not rewritten.
    let current = try manifest().installProgress
    let journal: ExtensionJournal?
    do {
      journal = try ExtensionJournal.read(container: container)
    } catch {
      // A journal that cannot be read hides what the system did: a complete reload shows it.
      return .unknown
    }
    if (journal?.sequence ?? 0) <= current.acknowledgedRequest, !current.requestInFlight,
      current.targetEntries == nil
    {
      return .accountedFor
    }
    return try change { manifest, _ in
      let inFlight = manifest.installProgress.requestInFlight
      manifest.installProgress.requestInFlight = false
      manifest.installProgress.targetEntries = nil
      guard let journal, journal.sequence > manifest.installProgress.acknowledgedRequest
      else { return .accountedFor }
      manifest.installProgress.acknowledgedRequest = journal.sequence
      // The app's own request, whose end it never recorded: committed or not, nobody knows.
      if journal.incremental || inFlight { return .unknown }
      // A request the system never confirmed (its system died, or iOS expired it) may have
      // left the old set in place: only a complete reload makes what it holds known.
      if !journal.committed { return .unknown }
      // A confirmed complete request the app did not make is iOS's own (a Settings toggle).
      // It sent the staged lists, or lists the app no longer has (then only a complete reload
      // tells what the system holds).
      guard try recordUserListsSent(journal.files) else { return .unknown }
      manifest.recordInstalled(journal.files.map { ($0.name, $0.file, $0.sha256) })
      let firstInstall = manifest.installProgress.installedEntries == nil
      manifest.installProgress.installedEntries = journal.entries
      manifest.installProgress.totalEntries = journal.totalEntries
      return firstInstall ? .adoptedFirstInstall : .adoptedCompleteRequest
    }
  }

  /// Brings the system up to date, as the app does after a download, a region change, or when it
  /// next runs: only when the extension is enabled.
  ///
  /// 1. Requests iOS made on its own (a Settings toggle reinstalls the first chunk only) are
  ///    taken from the extension's journal.
  /// 2. Phase two: the full set with a complete reload, up to the system's cap. Installed files
  ///    are checked first, by the hash recorded with their stamps or by hashing them again
  ///    (`HashStamps`): one that no longer matches what was installed
  ///    (changed in place, or gone) cannot be the old side of a difference, so a complete reload replaces what the
  ///    system holds instead (``SyncEvent/installedBasesChanged(_:)``).
  /// 3. In one extension's part of a set split by number range, changes that leave the part's
  ///    entries as they are are taken as installed without a request
  ///    (``SyncEvent/changesTakenWithoutRequest(count:)``).
  /// 4. Incremental reloads: what changed, then the rest of the full set past the cap, one chunk
  ///    (`DirectoryContainer.InstallProgress.chunkEntries`) per request, highest priorities
  ///    first. A request the system kills (error 2) is retried with half the chunk, down to
  ///    its floor (`DirectoryContainer.InstallProgress.minimumChunkEntries`); error 5 means the
  ///    system holds no more: what is in (the top priorities) stays, the rest is reported pending.
  ///
  /// Each request is recorded in the manifest before the next begins, and the task's
  /// cancellation is checked between requests: a cancelled sync (an app whose background time
  /// expires) leaves the container and the journal as a killed one would, and the next sync
  /// resumes. The request under way is waited for: iOS offers no way to stop it.
  ///
  /// - Parameters:
  ///   - manager: the system's Call Directory manager (CallKit's, through the adapter).
  ///   - bundleID: the extension's bundle identifier.
  ///   - maximumRequests: bounds this sync's requests (an app given a little background time
  ///     makes one or two); the next sync resumes.
  ///   - events: hears each request and what was mended, as it happens.
  /// - Returns: how each request ended, in order (none when the extension is disabled or up to
  ///   date).
  /// - Throws: ``ContainerAppError``: ``ContainerAppError/Kind/extensionNotEnabled`` when the
  ///   system knows no such extension, ``ContainerAppError/Kind/noManifest``,
  ///   ``ContainerAppError/Kind/cancelled``, ``ContainerAppError/Kind/system`` when `manager`
  ///   itself fails (its error in ``ContainerAppError/underlying``), or the manifest's own.
  public func sync<Manager: CallDirectoryManaging>(
    manager: Manager, bundleID: String, maximumRequests: Int = maximumRequestsPerSync,
    events: @Sendable (SyncEvent) -> Void = { _ in }
  ) async throws(ContainerAppError) -> [Manager.ReloadOutcome] {
    guard maximumRequests > 0 else { return [] }
    let results = try await ContainerAppError.catchingAsync {
      try await syncEnabled(
        manager: manager, bundleID: bundleID, maximumRequests: maximumRequests, events: events)
    }
    // The bases' block indexes, for the next edit's request and the SMS filter's lookups (a
    // pass over each new base, once; the request after it reads a few blocks instead).
    if results.contains(where: { $0.error == nil }) {
      let container = self.container
      _ = try? await BlockingWork.run { _ in DirectoryLookup.storeIndexes(container: container) }
    }
    return results
  }

  /// ``sync(manager:bundleID:maximumRequests:events:)``'s work, throwing what it meets.
  private func syncEnabled<Manager: CallDirectoryManaging>(
    manager: Manager, bundleID: String, maximumRequests: Int,
    events: @Sendable (SyncEvent) -> Void
  ) async throws -> [Manager.ReloadOutcome] {
    switch try await manager.enabledStatus(ofExtension: bundleID) {
    case .enabled: break
    case .disabled: return []
    case .unknown:
      throw ContainerAppError(
        "the system knows no extension \(bundleID): it must be turned on in Settings first",
        kind: .extensionNotEnabled)
    }
    guard ContainerFolder.exists(container + "/" + Manifest.fileName) else {
      throw Self.noManifest(container)
    }
    var results: [Manager.ReloadOutcome] = []
    let limit = min(maximumRequests, Self.maximumRequestsPerSync)
    func reload(
      incremental: Bool, preparing: (inout Manifest) -> Void = { _ in }
    ) async throws -> Manager.ReloadOutcome {
      try ContainerAppError.checkCancellation()
      let target = try change { manifest, _ in
        preparing(&manifest)
        manifest.installProgress.requestInFlight = true
        return manifest.installProgress.targetEntries
      }
      let number = results.count + 1
      events(.requestStarted(number: number, incremental: incremental, targetEntries: target))
      let result = try await manager.reloadExtension(bundleID, incremental: incremental)
      try recordRequest(succeeded: result.error == nil)
      results.append(result)
      events(.requestFinished(number: number, error: result.error))
      return result
    }
    let userListsStage = try stageUserLists()
    let systemRequests = try adoptSystemRequests()
    if systemRequests == .adoptedCompleteRequest { events(.systemRequestAdopted) }
    let manifest = try self.manifest()
    if !manifest.fullSetRequested {
      if try await reload(incremental: false, preparing: { $0.fullSetRequested = true }).error
        != nil
      {
        try requestFullSet(false)
        return results
      }
    } else {
      let damaged = try await checkInstalledBases(manifest).damaged
      if !damaged.isEmpty {
        events(.installedBasesChanged(damaged))
      } else if systemRequests == .unknown {
        events(.lastRequestUnknown)
      }
      if userListsStage.resuming, damaged.isEmpty, systemRequests != .unknown {
        events(.blockingResumed)
      }
      if !damaged.isEmpty || systemRequests == .unknown || userListsStage.resuming {
        if try await reload(incremental: false).error != nil { return results }
      }
    }
    let taken = try recordChangesThePartDoesNotSee()
    if taken > 0 { events(.changesTakenWithoutRequest(count: taken)) }
    // Step 4: incremental requests until the system holds the current files' full set (or all
    // it will take).
    while results.count < limit {
      let manifest = try self.manifest()
      let target: Int?
      switch Self.nextRequest(manifest, userListsPending: try stageUserLists().pending) {
      case .none: return results
      case .upToTheCap: target = nil
      case .prefix(let entries): target = entries
      }
      guard
        let error = try await reload(
          incremental: true, preparing: { $0.installProgress.targetEntries = target }
        ).error
      else { continue }
      let progress = manifest.installProgress
      switch Self.answer(to: error, progress) {
      case .retrySmaller:
        let halved = max(progress.minimumChunkEntries, progress.chunkEntries / 2)
        try change { manifest, _ in manifest.installProgress.chunkEntries = halved }
        events(.chunkHalved(entries: halved))
      case .stopAtCap:
        let held = progress.installedEntries ?? 0
        try change { manifest, _ in manifest.installProgress.capReachedAt = held }
        events(.stoppedAtCap(held: held, pending: progress.pendingEntries))
        return results
      case .later:
        events(.alreadyLoading)
        return results
      case .surface:
        return results  // the request's error is in the results: the app shows it
      }
    }
    return results
  }

  /// What a sync does when a request fails, by iOS's code: every code has an answer, and one
  /// nobody has documented (the 102 seen in the field, or any other) is surfaced, never trapped.
  public enum FailureAnswer: Equatable, Sendable {
    /// Error 2 (the system killed the request) while the chunk can shrink: halve it and retry.
    case retrySmaller
    /// Error 5: the system holds no more; what is in (the top priorities) stays.
    case stopAtCap
    /// Error 7: a load is already running; this sync stops and the next one goes on.
    case later
    /// Anything else (0, 1, 3, 4, 6, 8, error 2 at the smallest chunk, any other code): the sync
    /// stops with the request's error in its results for the app to show; the manifest records
    /// nothing, so the next sync tries again from what the system held.
    case surface
  }

  /// The answer to a failed incremental request.
  public static func answer(to error: CallDirectoryError, _ progress: InstallProgress)
    -> FailureAnswer
  {
    switch error {
    case .loadingInterrupted where progress.chunkEntries > progress.minimumChunkEntries:
      .retrySmaller
    case .maximumEntriesExceeded: .stopAtCap
    case .currentlyLoading: .later
    default: .surface
    }
  }

  /// What the next incremental request installs.
  enum NextRequest: Equatable {
    /// Nothing: the current files are installed and the whole set is in (or all the system
    /// takes).
    case none
    /// The changes, up to the cap (a manifest with no progress recorded yet).
    case upToTheCap
    /// The top entries of the current files, this many.
    case prefix(Int)
  }

  /// The next incremental request: the next chunk past what is installed, or the same prefix
  /// when only the files changed.
  /// An edit of the user's lists alone (`userListsPending`) is one request of the same prefix.
  static func nextRequest(_ manifest: Manifest, userListsPending: Bool = false) -> NextRequest {
    let filesUpToDate = manifest.pendingBases.isEmpty
    let progress = manifest.installProgress
    guard let installed = progress.installedEntries, let total = progress.totalEntries else {
      return filesUpToDate && !userListsPending ? .none : .upToTheCap
    }
    let (grown, overflowed) = installed.addingReportingOverflow(progress.chunkEntries)
    let next = min(overflowed ? Int.max : grown, progress.capReachedAt ?? Int.max)
    // New files: their set's size is not known until the extension counts it, so the request
    // sends the changes and grows the prefix by a chunk at most (everything, when it fits).
    guard filesUpToDate else { return .prefix(max(installed, next)) }
    if min(next, total) > installed { return .prefix(min(next, total)) }
    return userListsPending ? .prefix(installed) : .none
  }
}

extension Manifest {
  /// Records that the system holds `files` (base name, file, SHA-256): those bases become
  /// installed from that file; every other base is no longer held, and a retired base leaves
  /// once the system holds none of it.
  mutating func recordInstalled(_ files: [(name: String, file: String, sha256: String)]) {
    let held = Dictionary(files.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    for index in bases.indices {
      if let file = held[bases[index].name] {
        bases[index].installedFile = file.file
        bases[index].installedSHA256 = file.sha256
        if bases[index].file == file.file, bases[index].state != .retired {
          bases[index].state = .installed
        }
      } else {
        bases[index].installedFile = nil
        bases[index].installedSHA256 = nil
        if bases[index].state == .installed { bases[index].state = .ready }
      }
    }
    bases.removeAll { $0.state == .retired && $0.installedFile == nil }
  }
}
