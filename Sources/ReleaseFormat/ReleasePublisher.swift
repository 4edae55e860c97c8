import BaseFormat
import DirectoryContainer
import SystemCalls
import SystemPackage

/// Publishes a compiled container into a release folder that any static HTTP server can serve:
/// `bases/` (content-addressed, as in the container), `patches/` (to the newest version from
/// each of the last `keep` versions, each checked by applying it) and `index.json`, written last
/// and atomically, so a client never reads an index naming a file not yet there.
package struct ReleasePublisher {
  /// Versions patched from, and kept, by default.
  package static let defaultKeep = 8
  /// The most versions `keep` may name: each costs a patch per changed base on every publish,
  /// and the index must stay under ``ReleaseIndex/maximumPatchCount`` patches.
  package static let maximumKeep = 256
  /// The largest index read back (a few KiB per version).
  static let maximumIndexByteCount = 16 << 20

  /// The release folder.
  package let releases: String
  /// How many earlier versions get a patch to the newest, and stay in the index.
  package let keep: Int

  /// Publish even when the new version would hold fewer than half the entries of the newest
  /// (`DirectoryContainer.ShrinkRule`).
  package let allowShrink: Bool

  /// A publish's phases, for progress.
  package enum Phase: String, Sendable {
    /// Copying the container's bases into `bases/` (each hashed before and after).
    case copying
    /// Making and checking the patches to the new version, base by base.
    case patching
  }

  /// Hears each phase's bases done of its total: before the first and after each.
  package var progress: (_ phase: Phase, _ done: Int, _ total: Int) -> Void = { _, _, _ in }

  package init(releases: String, keep: Int = Self.defaultKeep, allowShrink: Bool = false) {
    self.releases = releases
    self.keep = keep
    self.allowShrink = allowShrink
  }

  /// What a publish did.
  package struct Summary: Equatable, Sendable {
    /// The newest version after it.
    package var version: Int
    /// Whether it made that version (false: the container held what the newest already had).
    package var isNew: Bool
    /// Base files copied in (the others were there already).
    package var basesCopied: Int
    /// Patches made.
    package var patchesMade: Int
    /// Patches not kept: not smaller than the full base, or not remaking it exactly.
    package var patchesSkipped: Int
    /// Earlier versions' base files that were missing or no longer hashed to the index's
    /// SHA-256: no patch was made from them (their clients fetch the base whole).
    package var oldFilesUnusable: [String] = []
  }

  /// Reads the folder's index; an empty one when there is none yet.
  /// - Throws: ``ReleaseError`` when it exists but cannot be read.
  package func currentIndex() throws(ReleaseError) -> ReleaseIndex {
    let path = releases + "/" + ReleaseIndex.fileName
    guard FolderCalls.exists(path, followingLinks: true) else { return ReleaseIndex() }
    let bytes: [UInt8]
    do throws(Errno) {
      bytes = try readWholeFile(path, maximumByteCount: Self.maximumIndexByteCount)
    } catch {
      throw ReleaseError("cannot read \(path): \(SystemErrorText.text(error))")
    }
    return try ReleaseIndex(parsing: bytes, path: path)
  }

  /// Publishes `container`'s bases as the next version (unless they are the newest's already).
  /// - Throws: ``ReleaseError`` naming the file; of kind ``ReleaseError/Kind/shrink`` when the
  ///   version would hold fewer than half the newest's entries and `allowShrink` is off. The
  ///   index is then as it was.
  package func publish(container: String) throws(ReleaseError) -> Summary {
    guard (1...Self.maximumKeep).contains(keep) else {
      throw ReleaseError("keep must be 1 to \(Self.maximumKeep), got \(keep)")
    }
    let manifest: Manifest
    do { manifest = try Manifest.read(container: container) } catch {
      throw ReleaseError("\(container): \(error)")
    }
    // Held until the index is renamed and the files it no longer names are gone: the index is
    // read, and the folder changed, by one publisher at a time.
    let lock = try ReleaseFolderLock(releases: releases)
    defer { lock.release() }
    removeAbandonedScratch()
    var index = try currentIndex()
    let published = manifest.bases.filter { $0.state != .retired }
    guard !published.isEmpty else {
      throw ReleaseError("\(container) holds no bases to publish (compile into it first)")
    }
    try checkShrink(from: index.latest, to: ShrinkRule.publishedEntries(manifest))
    for folder in ["bases", "patches"] {
      do { try ContainerFolder.create(releases + "/" + folder) } catch {
        throw ReleaseError(error.description)
      }
    }
    var summary = Summary(
      version: index.latest?.number ?? 0, isNew: false, basesCopied: 0, patchesMade: 0,
      patchesSkipped: 0)
    var bases: [ReleaseIndex.Base] = []
    progress(.copying, 0, published.count)
    for base in published {
      defer { progress(.copying, bases.count, published.count) }
      let file = "bases/" + base.name + "." + base.sha256.prefix(16) + ".cdb"
      let target = releases + "/" + file
      if SHA256.hexDigest(ofFile: target) != base.sha256 {
        do { try ContainerFolder.copyFile(from: container + "/" + base.file, to: target) } catch {
          throw ReleaseError(error.description)
        }
        guard SHA256.hexDigest(ofFile: target) == base.sha256 else {
          throw ReleaseError("\(container)/\(base.file) does not hash to its manifest's SHA-256")
        }
        summary.basesCopied += 1
      }
      // Measured, not read from the manifest: one without a size published "bytes": 0, and
      // that version could never be installed from scratch (issue 39, item 7).
      guard let byteCount = FolderCalls.regularFileByteCount(target) else {
        throw ReleaseError("cannot measure \(target)")
      }
      bases.append(
        ReleaseIndex.Base(
          name: base.name, role: base.role.rawValue, region: base.region, priority: base.priority,
          entries: base.entries, sha256: base.sha256, byteCount: byteCount, file: file))
    }
    if let latest = index.latest, latest.bases == bases { return summary }
    guard (index.latest?.number ?? 0) < ReleaseIndex.maximumVersion else {
      throw ReleaseError(
        "\(releases): version \(ReleaseIndex.maximumVersion) is the last an index may hold; publish into a new release folder"
      )
    }
    let version = ReleaseIndex.Version(number: (index.latest?.number ?? 0) + 1, bases: bases)
    try makePatches(to: version, from: index.versions.suffix(keep), into: &index, summary: &summary)
    index.versions = Array((index.versions + [version]).suffix(keep + 1))
    let kept = Set(index.versions.flatMap { $0.bases.map(\.sha256) })
    index.patches.removeAll { !kept.contains($0.fromSHA256) || !kept.contains($0.toSHA256) }
    try write(index)
    removeUnnamedFiles(index)
    summary.version = version.number
    summary.isNew = true
    return summary
  }

  /// Makes a patch to each base of `version` from the same-named base of each of `earlier`,
  /// keeping those that are smaller than the full base and remake it exactly.
  private func makePatches(
    to version: ReleaseIndex.Version, from earlier: ArraySlice<ReleaseIndex.Version>,
    into index: inout ReleaseIndex, summary: inout Summary
  ) throws(ReleaseError) {
    let scratch = releases + "/.publish-\(ProcessEnvironment.processID)"
    do { try ContainerFolder.create(scratch) } catch { throw ReleaseError(error.description) }
    defer { ContainerFolder.removeTree(scratch) }
    // Each old file is checked against the index before a patch is made from it: a file
    // changed after it was published made a patch whose header named another base, and every
    // client at that version then failed every update (issue 39, item 6).
    var trusted: [String: Bool] = [:]
    progress(.patching, 0, version.bases.count)
    for (done, base) in version.bases.enumerated() {
      defer { progress(.patching, done + 1, version.bases.count) }
      for old in earlier.reversed() {
        guard let from = old.bases.first(where: { $0.name == base.name }),
          from.sha256 != base.sha256,
          !index.patches.contains(where: {
            $0.fromSHA256 == from.sha256 && $0.toSHA256 == base.sha256
          })
        else { continue }
        let oldPath = releases + "/" + from.file
        if trusted[oldPath] == nil {
          trusted[oldPath] = SHA256.hexDigest(ofFile: oldPath) == from.sha256
          if trusted[oldPath] == false { summary.oldFilesUnusable.append(from.file) }
        }
        guard trusted[oldPath] == true else { continue }
        // A rule base (number ranges) is its own smallest download: France's twelve prefixes
        // are 736 bytes, under three patch headers, and a changed prefix is one record of 24
        // bytes. Its entries are not diffed one by one (12 M of them): it goes whole.
        let isRules = BaseFile.isRuleBase(at:)
        if isRules(oldPath) || isRules(releases + "/" + base.file) { continue }
        let file = "patches/\(base.name).\(from.sha256.prefix(16))-\(base.sha256.prefix(16)).cdp"
        let path = releases + "/" + file
        try PatchMaker.make(
          from: releases + "/" + from.file, to: releases + "/" + base.file, patch: path)
        let byteCount = (try? Int(FilePath(path).stat().size)) ?? Int.max
        let remade = try? PatchApplier.apply(
          patch: path, to: releases + "/" + from.file, output: scratch + "/check.cdb")
        FolderCalls.removeFile(scratch + "/check.cdb")
        guard remade != nil, byteCount < base.byteCount, let sha256 = SHA256.hexDigest(ofFile: path)
        else {
          FolderCalls.removeFile(path)
          summary.patchesSkipped += 1
          continue
        }
        index.patches.append(
          ReleaseIndex.Patch(
            name: base.name, fromSHA256: from.sha256, toSHA256: base.sha256, file: file,
            byteCount: byteCount, sha256: sha256))
        summary.patchesMade += 1
      }
    }
  }

  /// Refuses a version of `newEntries` entries after `latest` when it keeps under half of them.
  private func checkShrink(from latest: ReleaseIndex.Version?, to newEntries: Int)
    throws(ReleaseError)
  {
    guard !allowShrink, let latest else { return }
    if let why = ShrinkRule.refusal(oldEntries: latest.publishedEntries, newEntries: newEntries) {
      throw ReleaseError(
        "refusing to publish: against version \(latest.number), the new version \(why); nothing was written (a shrink must be allowed on purpose)",
        kind: .shrink)
    }
  }

  /// Writes the index atomically: its rename is the publish's one visible step.
  private func write(_ index: ReleaseIndex) throws(ReleaseError) {
    do throws(BaseFormatError) {
      let writer = try AtomicFileWriter(path: releases + "/" + ReleaseIndex.fileName)
      try writer.write(Array(index.json.utf8))
      try writer.commit()
    } catch {
      throw ReleaseError(error.description)
    }
  }

  /// Removes what killed publishes left (`.publish-PID/`, `patches/*.cdp.tmp-PID`): under the
  /// folder's lock, scratch of a process that is gone is no one's. A SIGKILLed publish's scratch
  /// folder outlived every later publish (issue 65, item 14).
  private func removeAbandonedScratch() {
    for folder in ["", "/bases", "/patches"] { Leftovers.removeAbandoned(in: releases + folder) }
  }

  /// Removes base and patch files the index no longer names (best effort).
  private func removeUnnamedFiles(_ index: ReleaseIndex) {
    let named = Set(index.versions.flatMap { $0.bases.map(\.file) } + index.patches.map(\.file))
    for folder in ["bases", "patches"] {
      for entry in FolderCalls.entries(of: releases + "/" + folder)
      where !named.contains(folder + "/" + entry.name) && !entry.isFolder {
        FolderCalls.removeFile(releases + "/" + folder + "/" + entry.name)
      }
    }
  }
}
