import CallDirectoryCore
import DirectoryContainer

/// What the container holds and what the system has installed, for a screen or a log: the
/// user's choices, the install progress, the bases, and, for a set split across extensions,
/// each part's range and progress. ``ContainerApp/status()`` reads it; with a manager,
/// ``ContainerApp/status(manager:bundleID:)`` adds each extension's enabled status.
public struct DirectoryStatus: Sendable, Equatable {
  /// One extension's share: the whole container's, or one part's.
  public struct Install: Sendable, Equatable {
    /// The extension's bundle identifier, when the status was read with one.
    public var bundleID: String?
    /// Whether the user has it on in Settings, when a manager was asked.
    public var enabled: ExtensionEnabledStatus?
    /// The numbers this extension holds (a part's range); nil for all of them.
    public var numberRange: Range<Int64>?
    /// Entries the system holds, per the app's records; nil before the extension counted the
    /// set (the first load, up to the system's cap).
    public var installedEntries: Int?
    /// Entries in the full set, when counted.
    public var totalEntries: Int?
    /// Entries staged but not installed: past the cap, or changed since the last sync.
    public var pendingEntries: Int
    /// Entries each incremental request adds.
    public var chunkEntries: Int
    /// Where the system stopped taking entries (error 5), if it did.
    public var capReachedAt: Int?
    /// Bases whose current version the system does not hold yet: after an update, a
    /// recompile, a choice of regions or a failed sync, until the next sync installs them.
    public var pendingBases = PendingBases()
    /// The user's edits the system does not hold yet (see ``UserListsEditor/pending()``).
    public var userListsPending = UserListsChanges()

    /// Whether everything staged is installed: no entry past the cap, no base changed since
    /// the last sync, and no edit of the user's lists pending.
    public var isUpToDate: Bool {
      pendingEntries == 0 && pendingBases.isEmpty && installedEntries != nil
        && userListsPending.isEmpty
    }
  }

  /// Whether the next complete load installs the full set (phase two).
  public var fullSetRequested: Bool
  /// The regions the user chose.
  public var chosenRegions: [String]
  /// The bases, as the manifest records them.
  public var bases: [Manifest.Base]
  /// The container's own extension.
  public var install: Install
  /// The parts of a set split across extensions, in order (empty when it is not split).
  public var parts: [Install]
}

extension DirectoryStatus.Install {
  /// The install progress a manifest records.
  init(_ manifest: Manifest) {
    let progress = manifest.installProgress
    let staged = manifest.bases.filter { $0.state != .retired && $0.state != .installed }
      .reduce(0) { $0 + $1.entries }
    self.init(
      bundleID: nil, enabled: nil, numberRange: manifest.numberRange,
      installedEntries: progress.installedEntries, totalEntries: progress.totalEntries,
      pendingEntries: progress.installedEntries == nil ? staged : progress.pendingEntries,
      chunkEntries: progress.chunkEntries, capReachedAt: progress.capReachedAt,
      pendingBases: manifest.pendingBases)
  }

  /// What is installed, what is pending, and why installing stopped, in one English line.
  public var summary: String {
    guard userListsPending.isEmpty else {
      return directorySummary.replacingNothingPending
        + "; the user's lists: pending at the next sync: \(userListsPending.summary)"
    }
    return directorySummary
  }

  /// ``summary`` for the directory alone.
  var directorySummary: String {
    guard let installed = installedEntries, let total = totalEntries else {
      let line = "installed: up to the system's cap (the extension has not counted the set yet)"
      return pendingBases.isEmpty ? line : line + "; " + Self.describe(pendingBases)
    }
    var line = "installed: the top \(installed) of \(total) entries by priority"
    if installed >= total && pendingBases.isEmpty { return line + "; nothing pending" }
    if installed < total {
      line += "; \(pendingEntries) pending, next chunk \(chunkEntries) entries"
    }
    if !pendingBases.isEmpty { line += "; " + Self.describe(pendingBases) }
    if let cap = capReachedAt, installed >= cap {
      line += "; stopped: the system holds no more than \(cap) entries (error 5)"
    }
    return line
  }
}

extension String {
  /// The line without its "; nothing pending" (something is, in the user's lists).
  fileprivate var replacingNothingPending: String {
    hasSuffix("; nothing pending") ? String(dropLast("; nothing pending".count)) : self
  }
}

extension DirectoryStatus.Install {
  /// "pending at the next sync: 1 base changed (3 entries, diffed), 1 added (+5), 1 removed
  /// (−2)": what a sync will do, from the manifest.
  static func describe(_ pending: PendingBases) -> String {
    var parts: [String] = []
    func bases(_ count: Int) -> String { count == 1 ? "1 base" : "\(count) bases" }
    if !pending.changed.isEmpty {
      parts.append(
        "\(bases(pending.changed.count)) changed (\(pending.entriesInChanged) entries, diffed then)"
      )
    }
    if !pending.added.isEmpty {
      parts.append("\(bases(pending.added.count)) added (up to +\(pending.entriesToAdd) entries)")
    }
    if !pending.removed.isEmpty {
      parts.append(
        "\(bases(pending.removed.count)) removed (about −\(pending.entriesToRemove) entries)")
    }
    return "pending at the next sync: " + parts.joined(separator: ", ")
  }
}

extension ContainerApp {
  /// The most extensions a set is split across: far past the 4 Truecaller ships (the most seen
  /// in the field), and a bound on the parts a status looks for.
  public static let maximumParts = 100

  /// The parts a split made (``split(into:)``), in order: part 1, 2, … while each has a
  /// manifest.
  public func existingParts() -> [ContainerApp] {
    var parts: [ContainerApp] = []
    for index in 1...Self.maximumParts {
      let part = part(index)
      guard ContainerFolder.exists(part.container + "/" + Manifest.fileName) else { break }
      parts.append(part)
    }
    return parts
  }

  /// The container's status as its manifests record it.
  /// - Throws: ``ContainerAppError`` when a manifest cannot be read (a new container has an
  ///   empty status).
  public func status() throws(ContainerAppError) -> DirectoryStatus {
    let manifest = try manifest()
    var parts: [DirectoryStatus.Install] = []
    for part in existingParts() { parts.append(DirectoryStatus.Install(try part.manifest())) }
    var install = DirectoryStatus.Install(manifest)
    install.userListsPending = try userListsPendingNow()
    return DirectoryStatus(
      fullSetRequested: manifest.fullSetRequested, chosenRegions: manifest.chosenRegions,
      bases: manifest.bases, install: install, parts: parts)
  }

  /// ``status()``, with each extension's enabled status asked of `manager`: `bundleID` for the
  /// container's own, `bundleID.N` for part N (as ``syncParts(manager:bundleID:count:policy:maximumRequests:events:)``
  /// names them).
  ///
  /// A container with no manifest yet (the app's first launch, before its first update) is no
  /// error here: its status holds no bases, and the switch's state is still asked, so the app
  /// can offer Open Settings at once. An app whose status failed there showed "checking" for
  /// ever, with no way to the switch (issue 52, item 3).
  /// - Throws: ``ContainerAppError``: a manifest that cannot be read, or the manager's failure
  ///   (``ContainerAppError/Kind/system``).
  public func status(manager: some CallDirectoryManaging, bundleID: String)
    async throws(ContainerAppError) -> DirectoryStatus
  {
    try await status(
      manager: manager, bundleID: bundleID,
      partExtensions: existingParts().indices.map { bundleID + ".\($0 + 1)" })
  }

  /// ``status()``, with each extension's enabled status asked of `manager`: `bundleID` for the
  /// container's own, `partExtensions[N - 1]` for part N (as
  /// ``syncParts(manager:extensions:policy:maximumRequests:events:)`` names them). A part past
  /// the list's end is asked nothing.
  /// - Throws: ``ContainerAppError`` as ``status(manager:bundleID:)`` does.
  public func status(
    manager: some CallDirectoryManaging, bundleID: String, partExtensions: [String]
  ) async throws(ContainerAppError) -> DirectoryStatus {
    var status: DirectoryStatus
    do {
      status = try self.status()
    } catch  where error.kind == .noManifest {
      status = DirectoryStatus(
        fullSetRequested: false, chosenRegions: [], bases: [],
        install: DirectoryStatus.Install(Manifest()), parts: [])
    }
    try await ContainerAppError.catchingAsync {
      status.install.bundleID = bundleID
      status.install.enabled = try await manager.enabledStatus(ofExtension: bundleID)
      for index in status.parts.indices where index < partExtensions.count {
        let partID = partExtensions[index]
        status.parts[index].bundleID = partID
        status.parts[index].enabled = try await manager.enabledStatus(ofExtension: partID)
      }
    }
    return status
  }
}
