import CallDirectoryCore
import DirectoryContainer

/// What a sync across several extensions does when one part fails.
public enum PartFailurePolicy: Sendable, Equatable {
  /// Every part is synced; each one's failure is in its result (a part the user has not turned
  /// on does not hold the others back).
  case continueWithOthers
  /// The first failure ends the sync; the parts after it are not synced.
  case stopAtFirstFailure
}

/// How one part's sync ended.
public struct PartSyncResult<Outcome: CallDirectoryReloadOutcome>: Sendable
where Outcome: Sendable {
  /// The part's number, 1-based.
  public var index: Int
  /// The part's extension: `bundleID.N`, or the list's Nth.
  public var bundleID: String
  /// The part's container.
  public var part: ContainerApp
  /// The numbers the part holds.
  public var numberRange: Range<Int64>?
  /// Its requests, in order.
  public var outcomes: [Outcome]
  /// Why the part's sync failed; nil when it ran (a request's own error is in ``outcomes``).
  public var error: ContainerAppError?

  /// Whether the part's sync ran and its last request, if any, succeeded or stopped at the cap.
  public var succeeded: Bool {
    guard error == nil else { return false }
    guard let last = outcomes.last?.error else { return true }
    return last.isMaximumEntriesExceeded
  }
}

extension ContainerApp {
  /// Syncs a set split by number range across `count` extensions (Truecaller ships 4): splits
  /// the container (``split(into:)``), then syncs part N through the extension `bundleID.N`,
  /// each under its own cap, as ``sync(manager:bundleID:maximumRequests:events:)`` syncs one.
  ///
  /// - Parameters:
  ///   - manager: the system's Call Directory manager (CallKit's, through the adapter).
  ///   - bundleID: the first extension's bundle identifier; part N syncs through `bundleID.N`.
  ///   - count: how many extensions (parts) the set is split across.
  ///   - maximumRequests: bounds each part's requests this time; the next sync resumes.
  ///   - policy: whether a part that fails (not turned on, a failed request) stops the rest.
  ///   - events: hears each part's events with its number.
  /// - Returns: each part's result, in order (fewer when the policy stopped early).
  /// - Throws: ``ContainerAppError`` when the split itself fails (fewer than 2 extensions, too
  ///   few entries, a manifest that cannot be written), or ``ContainerAppError/Kind/cancelled``
  ///   between parts; a part's own failure is in its result.
  public func syncParts<Manager: CallDirectoryManaging>(
    manager: Manager, bundleID: String, count: Int,
    policy: PartFailurePolicy = .continueWithOthers,
    maximumRequests: Int = maximumRequestsPerSync,
    events: @Sendable @escaping (_ part: Int, SyncEvent) -> Void = { _, _ in }
  ) async throws(ContainerAppError) -> [PartSyncResult<Manager.ReloadOutcome>]
  where Manager.ReloadOutcome: Sendable {
    guard count <= Self.maximumParts else {
      throw ContainerAppError(
        "a set splits across at most \(Self.maximumParts) extensions, not \(count)",
        kind: .badArgument)
    }
    return try await syncParts(
      manager: manager, extensions: (0..<max(0, count)).map { bundleID + ".\($0 + 1)" },
      policy: policy, maximumRequests: maximumRequests, events: events)
  }

  /// Syncs a set split by number range across the extensions named in `extensions`, in order:
  /// part N syncs through `extensions[N - 1]`, whatever their bundle identifiers are. As
  /// ``syncParts(manager:bundleID:count:policy:maximumRequests:events:)`` does otherwise.
  ///
  /// - Parameters:
  ///   - manager: the system's Call Directory manager (CallKit's, through the adapter).
  ///   - extensions: the parts' extensions' bundle identifiers, one a part, each once.
  ///   - policy: whether a part that fails (not turned on, a failed request) stops the rest.
  ///   - maximumRequests: bounds each part's requests this time; the next sync resumes.
  ///   - events: hears each part's events with its number (1-based).
  /// - Returns: each part's result, in order (fewer when the policy stopped early).
  /// - Throws: ``ContainerAppError``: ``ContainerAppError/Kind/badArgument`` for a list with a
  ///   repeated or empty identifier, or when the split itself fails (fewer than 2 extensions,
  ///   too few entries); ``ContainerAppError/Kind/cancelled`` between parts. A part's own
  ///   failure is in its result.
  public func syncParts<Manager: CallDirectoryManaging>(
    manager: Manager, extensions: [String],
    policy: PartFailurePolicy = .continueWithOthers,
    maximumRequests: Int = maximumRequestsPerSync,
    events: @Sendable @escaping (_ part: Int, SyncEvent) -> Void = { _, _ in }
  ) async throws(ContainerAppError) -> [PartSyncResult<Manager.ReloadOutcome>]
  where Manager.ReloadOutcome: Sendable {
    guard extensions.count <= Self.maximumParts else {
      throw ContainerAppError(
        "a set splits across at most \(Self.maximumParts) extensions, not \(extensions.count)",
        kind: .badArgument)
    }
    if let empty = extensions.firstIndex(where: \.isEmpty) {
      throw ContainerAppError(
        "extension \(empty + 1) of the list has no bundle identifier", kind: .badArgument)
    }
    if Set(extensions).count != extensions.count {
      throw ContainerAppError(
        "each part needs an extension of its own: \(extensions.joined(separator: ", ")) repeats one",
        kind: .badArgument)
    }
    let parts = try split(into: extensions.count)
    var results: [PartSyncResult<Manager.ReloadOutcome>] = []
    for (offset, part) in parts.enumerated() {
      try ContainerAppError.checkCancellation()
      let index = offset + 1
      var result = PartSyncResult<Manager.ReloadOutcome>(
        index: index, bundleID: extensions[offset], part: part,
        numberRange: try part.manifest().numberRange, outcomes: [], error: nil)
      do {
        result.outcomes = try await part.sync(
          manager: manager, bundleID: result.bundleID, maximumRequests: maximumRequests,
          events: { events(index, $0) })
      } catch {
        if error.kind == .cancelled { throw error }
        result.error = error
      }
      results.append(result)
      if !result.succeeded && policy == .stopAtFirstFailure { break }
    }
    return results
  }
}
