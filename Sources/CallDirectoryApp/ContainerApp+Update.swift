import BaseFormat
import DirectoryContainer
import ReleaseFormat
import SystemCalls

extension ContainerApp {
  /// The folder in the container where downloads wait, by SHA-256, until an update commits: each
  /// update has a folder of its own inside it (`UpdateDownloads`), and a download cut short is
  /// resumed from there by the next update.
  public static let downloadsFolder = ".downloads"
  /// The largest index an update reads.
  static let maximumIndexByteCount = 16 << 20

  /// What an update did.
  public struct UpdateSummary: Equatable, Sendable {
    /// The release version the container now holds.
    public var version: Int
    /// Bases made from patches, and fetched whole.
    public var patched: Int
    public var fetchedWhole: Int
    /// Bases already current.
    public var unchanged: Int
    /// Bases whose bytes were current but whose role, priority or region the release changed.
    public var metadataChanged = 0
    /// Bytes downloaded (the index, patches and whole bases), resumed bytes included; an index
    /// the server said was current costs none.
    public var downloadedBytes: Int
  }

  /// Brings the container to the newest version of the release `source` serves: reads its
  /// index, and for each base that differs fetches the smallest download (a patch chain from
  /// the base the container holds, or the whole base), checks each file's size and SHA-256,
  /// applies patches in bounded memory, then stages every new base through one
  /// `DirectoryContainer.ContainerTransaction`: all or nothing. The next `sync` sends the incremental request.
  /// Downloads wait in ``downloadsFolder`` until then, so an interrupted update resumes.
  ///
  /// Before anything is fetched: a version that would keep under half the entries the container
  /// publishes is refused (unless `allowShrink`); downloads left from another version, or larger
  /// than the index declares, are discarded; and the volume must have room for every download,
  /// the bases patches make and their staged copies, else the parts waiting are discarded too
  /// and the update refused with the figures. A new container chooses every region, as a compile
  /// does; an existing one keeps the user's choice.
  ///
  /// The patching, the staging (copy, verify, hash) and the commit's wait for the writers' lock
  /// run on the library's own threads, never blocking Swift's cooperative pool. The task's
  /// cancellation is heard between files (a download under way stops at once, keeping what
  /// arrived), inside each patch's apply and each staged copy (every 65,536 entries or 64 KiB,
  /// about a millisecond of work), and before the transaction: a cancelled update leaves the
  /// container as it was, and the next one resumes its downloads.
  /// - Parameters:
  ///   - source: where the release folder's files come from (a web server, a folder).
  ///   - allowShrink: accept a version that keeps under half the published entries.
  ///   - allowDowngrade: accept a release whose newest version is older than the one the
  ///     container holds (its bases' highest version). Without it such an update is refused
  ///     with ``ContainerAppError/Kind/downgrade``: a stale mirror, a CDN's cached index or a
  ///     replayed one never rolls a user back.
  ///   - events: hears each base fetched whole or patched
  ///     (``SyncEvent/baseFetched(name:bytes:)``, ``SyncEvent/basePatched(name:patches:)``), and
  ///     the progress of each phase (``SyncEvent/updateProgress(_:)``).
  /// - Throws: ``ContainerAppError`` naming the file and the problem: of kind
  ///   ``ContainerAppError/Kind/download`` for a fetch that fails (the HTTP status in
  ///   ``ContainerAppError/code``), ``ContainerAppError/Kind/noSpace``,
  ///   ``ContainerAppError/Kind/shrink`` for a refused shrink,
  ///   ``ContainerAppError/Kind/downgrade`` for an older release,
  ///   ``ContainerAppError/Kind/conflict`` when other writers changed the container under
  ///   three plans in a row, ``ContainerAppError/Kind/cancelled``, else ``ContainerAppError/Kind/failed`` (a file
  ///   whose hash is not the index's, a patch that does not apply); the container is then as it
  ///   was.
  ///
  /// The plan is made outside the writers' lock (downloads take minutes), so the update
  /// commits only if the container is still at the manifest generation it planned against
  /// (`DirectoryContainer.Manifest.generation`): a compile or another update in between makes
  /// it plan again from the new manifest, its downloads kept, so it never commits a set no
  /// release had.
  @discardableResult
  public func update(
    from source: some ReleaseSource, allowShrink: Bool = false, allowDowngrade: Bool = false,
    events: @escaping @Sendable (SyncEvent) -> Void = { _ in }
  ) async throws(ContainerAppError) -> UpdateSummary {
    try await ContainerAppError.catchingAsync {
      for attempt in 1... {
        do {
          return try await updateNow(
            from: source, allowShrink: allowShrink, allowDowngrade: allowDowngrade,
            events: events)
        } catch let error as ContainerAppError
          where error.kind == .conflict && attempt < Self.updatePlans
        {
          continue
        }
      }
      fatalError("unreachable: the loop returns or throws")
    }
  }

  /// How many times an update plans before it gives up to writers that keep changing the
  /// container under it.
  static let updatePlans = 3

  /// The release version a container holds: its bases' highest (retired ones aside); nil for a
  /// container without bases.
  static func heldVersion(_ manifest: Manifest?) -> Int? {
    manifest?.bases.filter { $0.state != .retired }.map(\.version).max()
  }

  /// ``update(from:allowShrink:allowDowngrade:events:)``'s work, phase by phase: plan, fetch,
  /// patch, stage, commit (ContainerApp+UpdatePhases.swift). The patching, the staging and the
  /// commit's wait for the writers' lock run on the library's own threads (`BlockingWork`),
  /// never on Swift's cooperative pool.
  private func updateNow(
    from source: some ReleaseSource, allowShrink: Bool, allowDowngrade: Bool,
    events: @escaping @Sendable (SyncEvent) -> Void
  ) async throws -> UpdateSummary {
    let containerWasThere = FolderCalls.exists(container)
    // This update's own folder, with what killed or failed updates left for it to resume.
    let own = try UpdateDownloads(root: container + "/" + Self.downloadsFolder)
    let downloads = own.folder
    var succeeded = false
    defer {
      // A failed update keeps the parts it fetched (the next one resumes), but leaves no empty
      // downloads folder, nor a container folder it made and put nothing in.
      own.finish(succeeded: succeeded)
      if !succeeded && !containerWasThere { FolderCalls.removeFolder(container) }
    }
    let planned = try await planUpdate(
      from: source, downloads: downloads, allowShrink: allowShrink,
      allowDowngrade: allowDowngrade)
    defer {
      if succeeded {
        IndexCache(container: container).record(
          validator: planned.index.validator, bytes: planned.index.bytes)
      }
    }
    var summary = UpdateSummary(
      version: planned.latest.number, patched: 0, fetchedWhole: 0,
      unchanged: planned.plan.unchanged, metadataChanged: planned.plan.metadataChanges.count,
      downloadedBytes: planned.index.fetchedByteCount)
    // Each changed base, made in the downloads folder before anything in the container changes:
    // every download first, then the patch chains applied on every core, then staged together.
    let fetched = try await fetchChanges(
      planned, from: source, into: downloads, summary: &summary, events: events)
    let made = try await applyPatches(
      fetched.chains, madeWhole: fetched.made, planned: planned, summary: &summary,
      events: events)
    if made.isEmpty && planned.changesNothingElse {
      succeeded = true
      return summary
    }
    let staged = try await stage(made, events: events)
    defer { for item in staged { FolderCalls.removeFile(item.copy.path) } }
    try ContainerAppError.checkCancellation()
    try await commit(staged, planned)
    succeeded = true
    return summary
  }

  /// The index an update read, and how: what it cost and what names it for the next check.
  struct FetchedIndex {
    var index: ReleaseIndex
    var bytes: [UInt8]
    /// Bytes fetched: 0 when the server said the cached index is current.
    var fetchedByteCount: Int
    /// What names this index on its server (nil: the source names none).
    var validator: String?
  }

  /// Fetches the index, or, when the container keeps the one a source last named and the
  /// source says it is current, reads that one; then parses it.
  func fetchIndex(from source: some ReleaseSource, into downloads: String) async throws
    -> FetchedIndex
  {
    let path = downloads + "/" + ReleaseIndex.fileName
    FolderCalls.removeFile(path)
    defer { FolderCalls.removeFile(path) }
    let cached = IndexCache(container: container).read(
      maximumByteCount: Self.maximumIndexByteCount)
    do {
      let outcome = try await source.fetchIfChanged(
        ReleaseIndex.fileName, to: path, maximumByteCount: Self.maximumIndexByteCount,
        validator: cached?.validator)
      switch (outcome, cached) {
      case (.unchanged, let cached?):
        let index = try ReleaseIndex(parsing: cached.bytes, path: ReleaseIndex.fileName)
        return FetchedIndex(
          index: index, bytes: cached.bytes, fetchedByteCount: 0, validator: cached.validator)
      case (.unchanged, nil):
        throw ContainerAppError(
          "the release source answered \(ReleaseIndex.fileName) as unchanged without being asked",
          kind: .badRelease)
      case (.fetched(let validator), _):
        let bytes = try readWholeFile(path, maximumByteCount: Self.maximumIndexByteCount)
        let index: ReleaseIndex
        do {
          index = try ReleaseIndex(parsing: bytes, path: ReleaseIndex.fileName)
        } catch {
          throw ContainerAppError(
            error.description, kind: .badRelease, file: ReleaseIndex.fileName)
        }
        return FetchedIndex(
          index: index, bytes: bytes, fetchedByteCount: bytes.count, validator: validator)
      }
    } catch let error as ReleaseError {
      throw ContainerAppError(release: error)
    } catch let error as ContainerAppError {
      throw error
    } catch {
      throw ContainerAppError("cannot read the release's \(ReleaseIndex.fileName): \(error)")
    }
  }

  /// Fetches `file` into the downloads folder (resuming a part fetched before) and checks its
  /// size and SHA-256; a file that fails the check is deleted, so the next try starts over.
  /// - Returns: the verified file's path.
  /// - Parameter progress: told the bytes of this file fetched so far as they arrive.
  func fetchVerified(
    _ file: String, sha256: String, byteCount: Int, from source: some ReleaseSource,
    into downloads: String, summary: inout UpdateSummary,
    progress: @escaping @Sendable (Int) -> Void = { _ in }
  ) async throws -> String {
    let done = downloads + "/" + sha256
    if SHA256.hexDigest(ofFile: done) == sha256 { return done }
    let part = done + ".part"
    var before = (try? FolderCalls.byteCount(of: part)) ?? 0
    var after = 0
    var checks = false
    // A resumed part that does not check out (its first bytes were not this file's) is fetched
    // once more from its start before the update gives up.
    for attempt in 0..<2 {
      do throws(ReleaseError) {
        try await source.fetch(file, to: part, expectedByteCount: byteCount, progress: progress)
      } catch {
        throw ContainerAppError(release: error)
      }
      after = (try? FolderCalls.byteCount(of: part)) ?? 0
      summary.downloadedBytes += max(0, after - before)
      // Hashed once per attempt (it was twice: the check, then the guard below).
      checks = after == byteCount && SHA256.hexDigest(ofFile: part) == sha256
      guard !checks, attempt == 0, before > 0 else { break }
      FolderCalls.removeFile(part)
      before = 0
    }
    guard checks else {
      FolderCalls.removeFile(part)
      throw ContainerAppError(
        "\(file): \(after == byteCount ? "its SHA-256 is not the index's" : "\(after) bytes, not the index's \(byteCount)") (refused; fetched again next time)",
        kind: .badRelease, file: file)
    }
    do { try DurableStep.rename(part, over: done) } catch {
      throw ContainerAppError("cannot keep \(part): \(SystemErrorText.text(error))")
    }
    return done
  }
}

extension ContainerAppError {
  /// A release's error as the app's: a download stays a download (retry helps), a cancelled
  /// fetch a cancellation, anything else a failure; the file and the status go along.
  public init(release error: ReleaseError) {
    let kind: Kind
    switch error.kind {
    case .download: kind = .download
    case .cancelled: kind = .cancelled
    case .shrink: kind = .shrink
    case .failed: kind = .failed
    }
    self.init(error.description, kind: kind, file: error.file, code: error.code)
  }
}
