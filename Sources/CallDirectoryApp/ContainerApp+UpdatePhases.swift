import BaseFormat
import DirectoryContainer
import ReleaseFormat
import SystemCalls

/// An update's phases, in order: plan (the index, the checks, the plan), fetch (patches and
/// whole bases), patch, stage, commit. ``ContainerApp/update(from:allowShrink:allowDowngrade:events:)``
/// runs them; the patching, the staging and the commit run on the library's own threads.
extension ContainerApp {
  /// What an update plans against: the index it read, the newest version, the manifest it
  /// found and the plan between the two.
  struct PlannedUpdate: Sendable {
    var index: FetchedIndex
    var latest: ReleaseIndex.Version
    /// The manifest's generation when planned: the commit happens only if it is still this.
    var generation: Int?
    var plan: UpdatePlan
    /// Whether the container holds only bases the release publishes (retired ones aside).
    var holdsOnlyPublished: Bool

    /// Whether nothing but the made bases would change: no metadata, no base to retire.
    var changesNothingElse: Bool { plan.metadataChanges.isEmpty && holdsOnlyPublished }
  }

  /// Phase one: fetches the index (a conditional GET when a validator is kept), reads the
  /// manifest, refuses a downgrade, a self-contradicting release or a shrink, and prepares the
  /// downloads folder (stale parts discarded, room checked).
  /// - Throws: ``ContainerAppError`` (``ContainerAppError/Kind/downgrade``,
  ///   ``ContainerAppError/Kind/shrink``, a download's, or a failure) before anything changed.
  func planUpdate(
    from source: some ReleaseSource, downloads: String, allowShrink: Bool, allowDowngrade: Bool
  ) async throws -> PlannedUpdate {
    // A volume without room even for the index (a download that filled the disk left its part):
    // the parts waiting go first, or every later update would fail before it began.
    if let available = FolderCalls.availableByteCount(onVolumeOf: downloads),
      available < UpdatePlan.spareByteCount
    {
      UpdatePlan.discardParts(in: downloads)
    }
    let indexFetch = try await fetchIndex(from: source, into: downloads)
    guard let latest = indexFetch.index.latest else {
      throw ContainerAppError("the release has no version yet", kind: .badRelease)
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
    let plan = UpdatePlan(index: indexFetch.index, latest: latest, current: current)
    if let contradiction = plan.contradictions.first {
      throw ContainerAppError(
        "the release contradicts itself: \(contradiction); nothing was changed",
        kind: .badRelease, base: contradiction.prefix { $0 != ":" }.description)
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
    let published = Set(latest.bases.map(\.name))
    return PlannedUpdate(
      index: indexFetch, latest: latest, generation: current?.generation, plan: plan,
      holdsOnlyPublished: current?.bases.allSatisfy {
        published.contains($0.name) || $0.state == .retired
      } == true)
  }

  /// Phase two: every file the plan fetches, verified; each base's patches become a chain to
  /// apply, each whole base is made as it arrives. Progress is reported by the byte of the
  /// declared sizes, as each file completes.
  func fetchChanges(
    _ planned: PlannedUpdate, from source: some ReleaseSource, into downloads: String,
    summary: inout UpdateSummary, events: @escaping @Sendable (SyncEvent) -> Void
  ) async throws -> (made: [MadeBase], chains: [(base: ReleaseIndex.Base, chain: PatchChain)]) {
    var made: [MadeBase] = []
    var chains: [(base: ReleaseIndex.Base, chain: PatchChain)] = []
    // Bytes of every file the plan fetches (declared sizes, from the index: summed checked).
    var downloadTotal = 0
    for bytes in planned.plan.downloads.values {
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
    /// Reports the bytes of the file under way as they arrive, on top of the files done (never
    /// past the file's declared size, nor the total).
    func arriving(_ byteCount: Int) -> @Sendable (Int) -> Void {
      let (before, total) = (downloaded, downloadTotal)
      return { bytes in
        let done = min(total, before &+ min(max(0, bytes), max(0, byteCount)))
        events(.updateProgress(UpdateProgress(phase: .downloading, done: done, total: total)))
      }
    }
    if downloadTotal > 0 { fetched(0) }
    for step in planned.plan.steps {
      if let held = step.held, !step.chain.isEmpty {
        var patches: [String] = []
        for patch in step.chain {
          try ContainerAppError.checkCancellation()
          patches.append(
            try await fetchVerified(
              patch.file, sha256: patch.sha256, byteCount: patch.byteCount, from: source,
              into: downloads, summary: &summary, progress: arriving(patch.byteCount)))
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
          summary: &summary, progress: arriving(base.byteCount))
        fetched(base.byteCount)
        events(.baseFetched(name: base.name, bytes: base.byteCount))
        made.append(MadeBase(base: base, path: path))
        summary.fetchedWhole += 1
      }
    }
    return (made, chains)
  }

  /// A base an update made (fetched whole, or by its patch chain), waiting to be staged.
  struct MadeBase: Sendable {
    var base: ReleaseIndex.Base
    var path: String
    /// A chain's made base: the SHA-256 its last patch names, which the apply proved the file
    /// has. Nil for a download, which stays in the downloads folder until the commit.
    var provenSHA256: String? = nil
  }

  /// Phase three: the patch chains applied on every core, on the library's threads, the task's
  /// cancellation heard within each apply; then every made base, in the release's order.
  /// - Throws: ``ContainerAppError`` for a patch that does not apply (a failure) or a
  ///   cancellation.
  func applyPatches(
    _ chains: [(base: ReleaseIndex.Base, chain: PatchChain)], madeWhole: [MadeBase],
    planned: PlannedUpdate, summary: inout UpdateSummary, events: @Sendable (SyncEvent) -> Void
  ) async throws -> [MadeBase] {
    guard !chains.isEmpty else { return madeWhole }
    try ContainerAppError.checkCancellation()
    events(.updateProgress(UpdateProgress(phase: .patching, done: 0, total: chains.count)))
    let work = chains.map(\.chain)
    try await BlockingWork.run { signal throws(ContainerAppError) in
      do throws(ReleaseError) {
        try PatchApplier.apply(work, shouldStop: { signal.isStopped })
      } catch {
        try signal.check()
        throw ContainerAppError(release: error)
      }
    }
    events(
      .updateProgress(UpdateProgress(phase: .patching, done: chains.count, total: chains.count)))
    var made = madeWhole
    for (base, chain) in chains {
      events(.basePatched(name: base.name, patches: chain.patches.count))
      let last = chain.patches.last.flatMap { try? PatchApplier.header(ofPatch: $0) }
      made.append(MadeBase(base: base, path: chain.madePath, provenSHA256: last?.toSHA256))
      summary.patched += 1
    }
    // Staged in the release's order, as one at a time would have.
    let order = Dictionary(
      planned.latest.bases.enumerated().map { ($1.name, $0) },
      uniquingKeysWith: { first, _ in first })
    return made.sorted { order[$0.base.name, default: 0] < order[$1.base.name, default: 0] }
  }

  /// A made base copied into the container's staging area, verified and hashed.
  struct StagedBase: Sendable {
    var base: ReleaseIndex.Base
    var role: Manifest.Role
    var copy: StagedCopy
  }

  /// Phase four: each made base copied into the container, hashed as it is written and verified
  /// whole, on the library's threads, before the writers' lock is taken (the lock covers the
  /// renames and the manifest's only: 0xDEAD10CC).
  /// - Throws: ``ContainerAppError`` naming the base; the copies made so far are removed.
  func stage(_ made: [MadeBase], events: @Sendable (SyncEvent) -> Void) async throws
    -> [StagedBase]
  {
    var staged: [StagedBase] = []
    var succeeded = false
    defer { if !succeeded { for item in staged { FolderCalls.removeFile(item.copy.path) } } }
    let container = container
    for (place, item) in made.enumerated() {
      events(.updateProgress(UpdateProgress(phase: .staging, done: place, total: made.count)))
      let base = item.base
      guard let role = Manifest.Role(rawValue: base.role) else {
        throw ContainerAppError(
          "the release's base \(base.name) has an unknown role '\(base.role)'")
      }
      let stagingPath = ContainerTransaction.stagingPath(in: container, base.name)
      let copy = try await BlockingWork.run { signal throws(ContainerAppError) in
        try ContainerAppError.catching {
          // A chain's made base is the update's own scratch file, its SHA-256 proved by the
          // apply: moved, not copied and hashed again (it is read once more, to verify it).
          if let proven = item.provenSHA256,
            let moved = try Self.stagedMove(
              of: item.path, at: stagingPath, sha256: proven, role: role, signal: signal)
          {
            return moved
          }
          return try Self.stagedCopy(of: item.path, at: stagingPath, role: role, signal: signal)
        }
      }
      staged.append(StagedBase(base: base, role: role, copy: copy))
      guard copy.sha256 == base.sha256 else {
        throw ContainerAppError("\(base.name): staged bytes are not the release's", base: base.name)
      }
    }
    if !made.isEmpty {
      events(.updateProgress(UpdateProgress(phase: .staging, done: made.count, total: made.count)))
    }
    succeeded = true
    return staged
  }

  /// Phase five: one transaction, on the library's threads (its wait for the writers' lock
  /// included): the staged bases adopted, the metadata changes applied, the bases the release
  /// no longer has retired, the regions chosen.
  /// - Throws: ``ContainerAppError/Kind/conflict`` when the container changed since the plan;
  ///   the container is then as it was.
  func commit(_ staged: [StagedBase], _ planned: PlannedUpdate) async throws {
    let app = self
    try await BlockingWork.run { _ throws(ContainerAppError) in
      try ContainerAppError.catching { try app.commitNow(staged, planned) }
    }
  }

  private func commitNow(_ staged: [StagedBase], _ planned: PlannedUpdate) throws {
    let latest = planned.latest
    let published = Set(latest.bases.map(\.name))
    try change(creating: true) { manifest, transaction in
      // Planned against another manifest: bases judged unchanged may have been replaced.
      guard transaction.current?.generation == planned.generation else {
        throw ContainerAppError(
          "\(container) changed while the update fetched its files (generation \(planned.generation ?? 0) became \(transaction.current?.generation ?? 0)); nothing was changed",
          kind: .conflict)
      }
      // A new container chooses every region, as a compile does; an existing one keeps the
      // user's choice (issue 39, item 2: an update wrote none, so only the seed set installed).
      let previous = transaction.current
      for item in staged {
        try place(
          item.base, role: item.role, item.copy, version: latest.number, in: &manifest,
          transaction)
      }
      for base in planned.plan.metadataChanges {
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
