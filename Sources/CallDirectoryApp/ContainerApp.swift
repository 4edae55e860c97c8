import BaseFormat
import CallDirectoryCore
import CallDirectoryLoader
import DirectoryContainer
import SystemCalls
import SystemPackage

/// The app's side of the App Group container (2GIS's steps 1–8, scriptable): stage downloaded
/// bases (copied atomically, SHA-256 recorded, then verified whole → ready), choose regions,
/// request the full set, trigger reloads, and mark bases installed once the system took them.
/// Bases are kept after install: disabling and enabling the extension reinstalls from them.
///
/// A value naming a folder, so it is `Sendable`: tasks may share it. Writers in several
/// processes (the app, its extension's journal) are ordered by the container's transaction, so
/// two tasks changing one container at once are too. Long calls are `async` and stop between
/// steps when their task is cancelled; their typed errors say what failed
/// (``ContainerAppError``).
public struct ContainerApp: Sendable, Hashable {
  /// The container folder.
  public let container: String

  public init(container: String) { self.container = container }

  /// The app's half over the container at `container` (a `FilePath`, as swift-system and an
  /// App Group's `containerURL(…).path` give it).
  public init(container: FilePath) { self.container = container.string }

  /// The manifest, or an empty one when the container is new.
  /// - Throws: ``ContainerAppError`` when a manifest exists but cannot be read.
  public func manifest() throws(ContainerAppError) -> Manifest {
    guard ContainerFolder.exists(container + "/" + Manifest.fileName) else {
      return Manifest()
    }
    do {
      return try Manifest.read(container: container)
    } catch {
      throw ContainerAppError(error.description, file: container + "/" + Manifest.fileName)
    }
  }

  /// The error for a container that has no manifest yet.
  static func noManifest(_ container: String) -> ContainerAppError {
    ContainerAppError(
      "\(container) has no \(Manifest.fileName): no bases have been staged, updated or compiled into it yet",
      kind: .noManifest)
  }

  /// Changes the manifest as one transaction (`DirectoryContainer.ContainerTransaction`): other
  /// writers wait, and the change is live only once `body` returns and the manifest is renamed
  /// into place. A container without a manifest is an error unless `creating`.
  /// - Throws: ``ContainerAppError``; what `body` throws. The container is then as it was.
  @discardableResult
  func change<Result>(
    creating: Bool = false, _ body: (inout Manifest, ContainerTransaction) throws -> Result
  ) throws -> Result {
    let transaction: ContainerTransaction
    do {
      transaction = try ContainerTransaction(container: container)
    } catch {
      throw ContainerAppError(error.description)
    }
    transaction.recordsHashStamps = true
    guard var manifest = transaction.current ?? (creating ? Manifest() : nil) else {
      throw Self.noManifest(container)
    }
    let result = try body(&manifest, transaction)
    do {
      try transaction.commit(manifest)
    } catch {
      throw ContainerAppError(error.description)
    }
    return result
  }

  /// Stages a base: copies `file` into the container, reads the copy whole to verify it (what is
  /// verified is what is installed: the source may change meanwhile) and hashes it, then moves it
  /// into `bases/` under its hash and records it ready, in one transaction. A new version of an
  /// installed base keeps the installed file, so an incremental load can send the difference.
  ///
  /// In an existing container the copy, the check and the hash happen before the writers' lock
  /// is taken: the lock covers the rename and the manifest's, so an app suspended in the
  /// middle holds no lock for long (iOS ends a suspended app that holds a file lock in a shared
  /// container: 0xDEAD10CC).
  ///
  /// The work runs on the library's own threads (a Dispatch queue), not Swift's cooperative
  /// pool. The task's cancellation is read between chunks of the copy and the hash and between
  /// the steps, the last time before the lock: a cancelled stage stops within a chunk and
  /// leaves the container as it was.
  /// - Returns: the base's manifest entry.
  /// - Throws: ``ContainerAppError`` naming the file and the problem (``ContainerAppError/file``,
  ///   ``ContainerAppError/base``); the container is then as it was.
  @discardableResult
  public func stage(
    file: FilePath, name: String, role: Manifest.Role, region: String? = nil, priority: Int,
    version: Int
  ) async throws(ContainerAppError) -> Manifest.Base {
    try await stage(
      file: file.string, name: name, role: role, region: region, priority: priority,
      version: version)
  }

  /// `stage(file:name:role:region:priority:version:)` with the file's path as a string.
  /// - Throws: ``ContainerAppError`` as that one does.
  @discardableResult
  public func stage(
    file: String, name: String, role: Manifest.Role, region: String? = nil, priority: Int,
    version: Int
  ) async throws(ContainerAppError) -> Manifest.Base {
    let app = self
    return try await BlockingWork.run { signal throws(ContainerAppError) in
      try ContainerAppError.catching {
        try app.stageNow(
          file: file, name: name, role: role, region: region, priority: priority,
          version: version, signal: signal)
      }
    }
  }

  /// ``stage(file:name:role:region:priority:version:)``'s work.
  private func stageNow(
    file: String, name: String, role: Manifest.Role, region: String?, priority: Int,
    version: Int, signal: StopSignal
  ) throws -> Manifest.Base {
    guard BaseNaming.isValidName(name) else {
      throw ContainerAppError(
        "base name '\(name)' must be \(BaseNaming.nameRule)", kind: .badArgument)
    }
    if role == .region && region == nil {
      throw ContainerAppError("a region base needs its region", kind: .badArgument)
    }
    if let region, !BaseNaming.isValidRegion(region) {
      throw ContainerAppError(
        "region \(region.debugDescription) must not hold a tab, a comma, a line break, a bidirectional control or a character that shows nothing",
        kind: .badArgument)
    }
    // A new container is made by the transaction (and removed again if the stage fails), so
    // its copy is made under the lock; an existing one's before it.
    let unlocked = ContainerFolder.exists(container)
    var prepared: StagedCopy?
    if unlocked {
      prepared = try Self.stagedCopy(
        of: file, at: ContainerTransaction.stagingPath(in: container, name), role: role,
        signal: signal)
    }
    defer { if let prepared { FolderCalls.removeFile(prepared.path) } }
    try signal.check()
    return try change(creating: true) { manifest, transaction in
      let copy: StagedCopy
      if let prepared {
        copy = prepared
      } else {
        copy = try Self.stagedCopy(
          of: file, at: container + "/.stage-\(ProcessEnvironment.processID).cdb", role: role,
          signal: signal)
      }
      defer { if prepared == nil { FolderCalls.removeFile(copy.path) } }
      let header = copy.header
      let adopted: ContainerTransaction.AdoptedFile
      do throws(ContainerError) {
        adopted = try transaction.adopt(copy.path, name: name, sha256: copy.sha256)
      } catch {
        throw ContainerAppError(error.description)
      }
      let previous = manifest.bases.firstIndex { $0.name == name }
      let installed = previous.flatMap { manifest.bases[$0].installedFile }
      let base = Manifest.Base(
        name: name, role: role, kind: header.kind, region: region, priority: priority,
        version: version, entries: header.entryCount, sha256: adopted.sha256,
        state: installed == adopted.file ? .installed : .ready, file: adopted.file,
        installedFile: installed, byteCount: adopted.byteCount,
        installedSHA256: previous.flatMap { manifest.bases[$0].expectedInstalledSHA256 })
      if let previous { manifest.bases[previous] = base } else { manifest.bases.append(base) }
      return base
    }
  }

  /// A base copied into the container, verified whole and hashed, ready to adopt.
  struct StagedCopy {
    var path: String
    var header: BaseHeader
    var sha256: String
  }

  /// Copies `file` to `path`, reads the copy whole to verify it and hashes it.
  /// - Throws: ``ContainerAppError`` naming `file`; the copy is removed then.
  static func stagedCopy(
    of file: String, at path: String, role: Manifest.Role, signal: StopSignal = StopSignal()
  ) throws -> StagedCopy {
    let sha256: String
    do {
      // Hashed as it is written: the copy is then read once more, to verify it, not twice.
      sha256 = try ContainerFolder.copyFile(from: file, to: path) { signal.isStopped }
    } catch {
      try signal.check()
      throw ContainerAppError(error.description)
    }
    return try verifiedStaged(at: path, from: file, sha256: sha256, role: role, signal: signal)
  }

  /// Moves the scratch file `file` (a base a patch chain made, whose SHA-256 the apply proved
  /// to be `sha256`) to `path` on the same volume: no copy, no second hash; the base is read
  /// once, to verify it. Nil when it cannot be moved (another volume): copy it then.
  /// - Throws: ``ContainerAppError`` naming `file`; the moved file is removed then.
  static func stagedMove(
    of file: String, at path: String, sha256: String, role: Manifest.Role,
    signal: StopSignal = StopSignal()
  ) throws -> StagedCopy? {
    guard FolderCalls.move(file, to: path) else { return nil }
    DurableStep.syncFolder(String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]))
    return try verifiedStaged(at: path, from: file, sha256: sha256, role: role, signal: signal)
  }

  /// Reads the staged base at `path` whole to verify it (blocks' checksums, labels, a blocking
  /// list's kind).
  /// - Throws: ``ContainerAppError`` naming `file`; the staged file is removed then.
  private static func verifiedStaged(
    at path: String, from file: String, sha256: String, role: Manifest.Role, signal: StopSignal
  ) throws -> StagedCopy {
    do {
      try signal.check()
      let verified: BaseHeader?
      do throws(BaseFormatError) {
        verified = try BaseFile.verify(path: path, shouldStop: { signal.isStopped })
      } catch {
        throw ContainerAppError("\(file): \(error.problemDescription)", file: file)
      }
      guard let header = verified else { throw ContainerAppError.cancelled }
      if role == .blocking && header.kind != .blocking {
        throw ContainerAppError(
          "\(file): a blocking list must be a blocking base, this one is \(header.kind)",
          file: file)
      }
      try signal.check()
      return StagedCopy(path: path, header: header, sha256: sha256)
    } catch {
      FolderCalls.removeFile(path)
      throw error
    }
  }

  /// Sets the regions the user chose; the next sync installs them.
  /// - Throws: ``ContainerAppError`` for a region no base has, or a container without manifest
  ///   (``ContainerAppError/Kind/noManifest``).
  public func choose(regions: [String]) async throws(ContainerAppError) {
    try ContainerAppError.catching { try chooseNow(regions: regions) }
  }

  /// Chooses every region the container publishes; the next sync installs them all.
  /// - Returns: the regions chosen, sorted.
  /// - Throws: ``ContainerAppError`` for a container without manifest.
  @discardableResult
  public func chooseAllRegions() async throws(ContainerAppError) -> [String] {
    try ContainerAppError.catching {
      try change { manifest, _ in
        let all = Set(manifest.bases.filter { $0.state != .retired }.compactMap(\.region)).sorted()
        manifest.chosenRegions = all
        return all
      }
    }
  }

  /// ``choose(regions:)``'s work.
  func chooseNow(regions: [String]) throws {
    try change { manifest, _ in
      let known = Set(manifest.bases.filter { $0.state != .retired }.compactMap(\.region))
      for region in regions where !known.contains(region) {
        throw ContainerAppError(
          "no base for region '\(region)' (known: \(known.sorted().joined(separator: ", ")))")
      }
      manifest.chosenRegions = regions
    }
  }

  /// Asks that the next complete load install the full set. A low-level call: `sync` asks for
  /// the full set itself when the extension holds only the seed set, so an app's update and
  /// sync need nothing between them.
  /// - Throws: ``ContainerAppError`` for a container without manifest.
  public func requestFullSet(_ requested: Bool = true) throws(ContainerAppError) {
    try ContainerAppError.catching {
      try change { manifest, _ in manifest.fullSetRequested = requested }
    }
  }
}
