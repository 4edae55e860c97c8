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
  /// The task's cancellation is checked between files (a download under way stops at once,
  /// keeping what arrived) and before the transaction: a cancelled update leaves the container
  /// as it was, and the next one resumes its downloads.
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
    events: @Sendable (SyncEvent) -> Void = { _ in }
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

  /// ``update(from:allowShrink:allowDowngrade:events:)``'s work.
  private func updateNow(
    from source: some ReleaseSource, allowShrink: Bool, allowDowngrade: Bool,
    events: @Sendable (SyncEvent) -> Void
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
    // A volume without room even for the index (a download that filled the disk left its part):
    // the parts waiting go first, or every later update would fail before it began.
    if let available = FolderCalls.availableByteCount(onVolumeOf: downloads),
      available < UpdatePlan.spareByteCount
    {
      UpdatePlan.discardParts(in: downloads)
    }
    let indexFetch = try await fetchIndex(from: source, into: downloads)
    let index = indexFetch.index
    defer {
      if succeeded {
        IndexCache(container: container).record(
          validator: indexFetch.validator, bytes: indexFetch.bytes)
      }
    }
    guard let latest = index.latest else {
      throw ContainerAppError("the release has no version yet")
    }
    let current: Manifest?
    do {
      current =
        FolderCalls.exists(container + "/" + Manifest.fileName)
        ? try Manifest.read(container: container) : nil
    } catch {
      throw ContainerAppError("\(container): \(error)")
    }
    if !allowDowngrade, let held = Self.heldVersion(current), latest.number < held {
      throw ContainerAppError(
        "refusing to update: the release's newest version \(latest.number) is older than version \(held), which \(container) holds (a stale mirror or a replayed index?); nothing was changed (going back must be allowed on purpose)",
        kind: .downgrade)
    }
    let plannedGeneration = current?.generation
    let plan = UpdatePlan(index: index, latest: latest, current: current)
    if let contradiction = plan.contradictions.first {
      throw ContainerAppError(
        "the release contradicts itself: \(contradiction); nothing was changed",
        base: contradiction.prefix { $0 != ":" }.description)
    }
    if !allowShrink, let current {
      if let why = ShrinkRule.refusal(
        oldEntries: ShrinkRule.publishedEntries(current), newEntries: latest.publishedEntries)
      {
        throw ContainerAppError(
          "refusing to update: version \(latest.number) \(why) of those \(container) publishes; nothing was changed (a shrink must be allowed on purpose)",
          kind: .shrink)
      }
    }
    try plan.prepare(downloads: downloads, container: container)
    var summary = UpdateSummary(
      version: latest.number, patched: 0, fetchedWhole: 0, unchanged: plan.unchanged,
      metadataChanged: plan.metadataChanges.count, downloadedBytes: indexFetch.fetchedByteCount)
    // Each changed base, made in the downloads folder before anything in the container changes:
    // every download first, then the patch chains applied on every core (each base's chain on one
    // thread), then staged together.
    var made: [(base: ReleaseIndex.Base, path: String)] = []
    var chains: [(base: ReleaseIndex.Base, chain: PatchChain)] = []
    // Bytes of every file the plan fetches (declared sizes, from the index: summed checked).
    var downloadTotal = 0
    for bytes in plan.downloads.values {
      let (sum, overflowed) = downloadTotal.addingReportingOverflow(max(0, bytes))
      downloadTotal = overflowed ? Int.max : sum
    }
    var downloaded = 0
    func fetched(_ bytes: Int) {
      downloaded = min(downloadTotal, downloaded &+ max(0, bytes))
      events(
        .updateProgress(UpdateProgress(phase: .downloading, done: downloaded, total: downloadTotal))
      )
    }
    if downloadTotal > 0 { fetched(0) }
    for step in plan.steps {
      if let held = step.held, !step.chain.isEmpty {
        var patches: [String] = []
        for patch in step.chain {
          try ContainerAppError.checkCancellation()
          patches.append(
            try await fetchVerified(
              patch.file, sha256: patch.sha256, byteCount: patch.byteCount, from: source,
              into: downloads, summary: &summary))
          fetched(patch.byteCount)
        }
        let outputs = step.chain.indices.map { downloads + "/made-\(step.base.name)-\($0).cdb" }
        chains.append(
          (
            step.base,
            PatchChain(patches: patches, oldPath: container + "/" + held.file, outputs: outputs)
          ))
      } else {
        let base = step.base
        try ContainerAppError.checkCancellation()
        let path = try await fetchVerified(
          base.file, sha256: base.sha256, byteCount: base.byteCount, from: source, into: downloads,
          summary: &summary)
        fetched(base.byteCount)
        events(.baseFetched(name: base.name, bytes: base.byteCount))
        made.append((base, path))
        summary.fetchedWhole += 1
      }
    }
    if !chains.isEmpty {
      try ContainerAppError.checkCancellation()
      events(.updateProgress(UpdateProgress(phase: .patching, done: 0, total: chains.count)))
      do {
        try PatchApplier.apply(chains.map(\.chain))
      } catch {
        throw ContainerAppError(error.description)
      }
      events(
        .updateProgress(UpdateProgress(phase: .patching, done: chains.count, total: chains.count)))
      for (base, chain) in chains {
        let count = chain.patches.count
        events(.basePatched(name: base.name, patches: count))
        made.append((base, chain.madePath))
        summary.patched += 1
      }
      // Staged in the release's order, as one at a time would have.
      let order = Dictionary(
        latest.bases.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
      made.sort { order[$0.base.name, default: 0] < order[$1.base.name, default: 0] }
    }
    let published = Set(latest.bases.map(\.name))
    if made.isEmpty && plan.metadataChanges.isEmpty
      && current?.bases.allSatisfy({ published.contains($0.name) || $0.state == .retired }) == true
    {
      succeeded = true
      return summary
    }
    // Each made base copied into the container, verified whole and hashed before the writers'
    // lock is taken: the lock covers the renames and the manifest's only (0xDEAD10CC).
    var staged: [(base: ReleaseIndex.Base, role: Manifest.Role, copy: StagedCopy)] = []
    defer { for item in staged { FolderCalls.removeFile(item.copy.path) } }
    for (place, (base, path)) in made.enumerated() {
      events(.updateProgress(UpdateProgress(phase: .staging, done: place, total: made.count)))
      guard let role = Manifest.Role(rawValue: base.role) else {
        throw ContainerAppError(
          "the release's base \(base.name) has an unknown role '\(base.role)'")
      }
      let copy = try Self.stagedCopy(
        of: path, at: ContainerTransaction.stagingPath(in: container, base.name), role: role)
      staged.append((base, role, copy))
      guard copy.sha256 == base.sha256 else {
        throw ContainerAppError("\(base.name): staged bytes are not the release's", base: base.name)
      }
    }
    if !made.isEmpty {
      events(.updateProgress(UpdateProgress(phase: .staging, done: made.count, total: made.count)))
    }
    try ContainerAppError.checkCancellation()
    try change(creating: true) { manifest, transaction in
      // Planned against another manifest: bases judged unchanged may have been replaced.
      guard transaction.current?.generation == plannedGeneration else {
        throw ContainerAppError(
          "\(container) changed while the update fetched its files (generation \(plannedGeneration ?? 0) became \(transaction.current?.generation ?? 0)); nothing was changed",
          kind: .conflict)
      }
      // A new container chooses every region, as a compile does; an existing one keeps the
      // user's choice (issue 39, item 2: an update wrote none, so only the seed set installed).
      let previous = transaction.current
      for (base, role, copy) in staged {
        try place(base, role: role, copy, version: latest.number, in: &manifest, transaction)
      }
      for base in plan.metadataChanges {
        guard let role = Manifest.Role(rawValue: base.role) else {
          throw ContainerAppError(
            "the release's base \(base.name) has an unknown role '\(base.role)'", base: base.name)
        }
        guard let held = manifest.bases.firstIndex(where: { $0.name == base.name }) else {
          continue
        }
        manifest.bases[held].role = role
        manifest.bases[held].priority = base.priority
        manifest.bases[held].region = base.region
        manifest.bases[held].version = latest.number
      }
      // Bases the release no longer has: the system may still hold them, so they retire (the
      // next load removes their entries); one never installed simply goes.
      manifest.bases = manifest.bases.compactMap { base in
        guard !published.contains(base.name) else { return base }
        guard base.installedFile != nil else { return nil }
        var retired = base
        retired.state = .retired
        return retired
      }
      manifest.chooseRegions(after: previous)
    }
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
  private func fetchIndex(from source: some ReleaseSource, into downloads: String) async throws
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
          "the release source answered \(ReleaseIndex.fileName) as unchanged without being asked")
      case (.fetched(let validator), _):
        let bytes = try readWholeFile(path, maximumByteCount: Self.maximumIndexByteCount)
        let index = try ReleaseIndex(parsing: bytes, path: ReleaseIndex.fileName)
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
  private func fetchVerified(
    _ file: String, sha256: String, byteCount: Int, from source: some ReleaseSource,
    into downloads: String, summary: inout UpdateSummary
  ) async throws -> String {
    let done = downloads + "/" + sha256
    if SHA256.hexDigest(ofFile: done) == sha256 { return done }
    let part = done + ".part"
    var before = (try? FolderCalls.byteCount(of: part)) ?? 0
    var after = 0
    // A resumed part that does not check out (its first bytes were not this file's) is fetched
    // once more from its start before the update gives up.
    for attempt in 0..<2 {
      do throws(ReleaseError) {
        try await source.fetch(file, to: part, expectedByteCount: byteCount)
      } catch {
        throw ContainerAppError(release: error)
      }
      after = (try? FolderCalls.byteCount(of: part)) ?? 0
      summary.downloadedBytes += max(0, after - before)
      let checks = after == byteCount && SHA256.hexDigest(ofFile: part) == sha256
      guard !checks, attempt == 0, before > 0 else { break }
      FolderCalls.removeFile(part)
      before = 0
    }
    guard after == byteCount, SHA256.hexDigest(ofFile: part) == sha256 else {
      FolderCalls.removeFile(part)
      throw ContainerAppError(
        "\(file): \(after == byteCount ? "its SHA-256 is not the index's" : "\(after) bytes, not the index's \(byteCount)") (refused; fetched again next time)",
        file: file)
    }
    do { try DurableStep.rename(part, over: done) } catch {
      throw ContainerAppError("cannot keep \(part): \(SystemErrorText.text(error))")
    }
    return done
  }

  /// Adopts a made base's verified copy into the container and records it, as
  /// ``stage(file:name:role:region:priority:version:)`` does.
  private func place(
    _ base: ReleaseIndex.Base, role: Manifest.Role, _ copy: StagedCopy, version: Int,
    in manifest: inout Manifest, _ transaction: ContainerTransaction
  ) throws {
    let adopted: ContainerTransaction.AdoptedFile
    do throws(ContainerError) {
      adopted = try transaction.adopt(copy.path, name: base.name, sha256: copy.sha256)
    } catch {
      throw ContainerAppError(error.description)
    }
    let header = copy.header
    let previous = manifest.bases.firstIndex { $0.name == base.name }
    let installed = previous.flatMap { manifest.bases[$0].installedFile }
    let entry = Manifest.Base(
      name: base.name, role: role, kind: header.kind, region: base.region, priority: base.priority,
      version: version, entries: header.entryCount, sha256: adopted.sha256,
      state: installed == adopted.file ? .installed : .ready, file: adopted.file,
      installedFile: installed, byteCount: adopted.byteCount,
      installedSHA256: previous.flatMap { manifest.bases[$0].expectedInstalledSHA256 })
    if let previous { manifest.bases[previous] = entry } else { manifest.bases.append(entry) }
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
