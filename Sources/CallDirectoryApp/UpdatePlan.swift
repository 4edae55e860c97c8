import DirectoryContainer
import ReleaseFormat
import SystemCalls

/// What an update will fetch and make, decided from the index before any byte is downloaded:
/// each changed base's chain of patches or whole file, the files the downloads folder may keep,
/// and the space it all needs.
struct UpdatePlan {
  /// A base to bring to the release's bytes: through `chain` from `held`, or whole when the
  /// chain is empty.
  struct Step {
    var base: ReleaseIndex.Base
    var held: Manifest.Base?
    var chain: [ReleaseIndex.Patch]
  }

  /// The files to fetch: SHA-256 → declared size.
  private(set) var downloads: [String: Int] = [:]
  private(set) var steps: [Step] = []
  /// Bases already current.
  private(set) var unchanged = 0
  /// Bases whose bytes are current but whose role, priority or region the release changed:
  /// applied in the commit, not taken as unchanged (issue 52, item 13).
  private(set) var metadataChanges: [ReleaseIndex.Base] = []
  /// Bases the index gives another entry count than the bytes it names hold (same SHA-256):
  /// a release that contradicts itself, refused.
  private(set) var contradictions: [String] = []
  /// Bytes the bases made (patch outputs and whole downloads) take once copied for staging.
  private var madeByteCount = 0

  init(index: ReleaseIndex, latest: ReleaseIndex.Version, current: Manifest?) {
    for base in latest.bases {
      let held = current?.bases.first { $0.name == base.name && $0.state != .retired }
      if let held, held.sha256 == base.sha256 {
        if held.entries != base.entries {
          contradictions.append(
            "\(base.name): the index says \(base.entries) entries, its file holds \(held.entries)")
        } else if held.role.rawValue != base.role || held.priority != base.priority
          || held.region != base.region
        {
          metadataChanges.append(base)
        } else {
          unchanged += 1
        }
        continue
      }
      let chain = held == nil ? [] : index.cheapestChain(from: held?.sha256, to: base)
      if chain.isEmpty {
        downloads[base.sha256] = base.byteCount
      } else {
        for patch in chain { downloads[patch.sha256] = patch.byteCount }
        // Each step of a chain writes a base about the target's size.
        madeByteCount &+= chain.count &* base.byteCount
      }
      madeByteCount &+= base.byteCount
      steps.append(Step(base: base, held: held, chain: chain))
    }
  }

  /// Room an update leaves free beyond what it writes: 1 MiB for the manifest, the index and
  /// the file system's own blocks.
  static let spareByteCount = 1 << 20

  /// Readies the downloads folder: removes every file the plan does not fetch (parts and
  /// downloads of another version, the made bases of an earlier try) and parts larger than
  /// their file; then checks the volume has room for the rest, discarding the parts waiting
  /// when it has not (a download that filled the disk left its part behind, and every later
  /// update failed before it began: issue 39, item 4).
  /// - Throws: ``ContainerAppError`` with the bytes needed and free when the room is short
  ///   even then.
  func prepare(downloads folder: String, container: String) throws {
    for entry in FolderCalls.entries(of: folder) {
      let path = folder + "/" + entry.name
      let hash = entry.name.hasSuffix(".part") ? String(entry.name.dropLast(5)) : entry.name
      guard !entry.isFolder, let declared = downloads[hash],
        let size = FolderCalls.regularFileByteCount(path), size <= declared
      else {
        if entry.isFolder { ContainerFolder.removeTree(path) } else { FolderCalls.removeFile(path) }
        continue
      }
    }
    let needed = neededByteCount(in: folder)
    guard let available = FolderCalls.availableByteCount(onVolumeOf: folder), available < needed
    else { return }
    Self.discardParts(in: folder)
    let neededNow = neededByteCount(in: folder)
    let availableNow = FolderCalls.availableByteCount(onVolumeOf: folder) ?? 0
    if availableNow < neededNow {
      throw ContainerAppError(
        "\(container): the update needs \(neededNow) bytes free (downloads, patched bases and their staged copies), the volume has \(availableNow); nothing was fetched",
        kind: .noSpace, file: container)
    }
  }

  /// Removes every part waiting in the downloads folder `folder`.
  static func discardParts(in folder: String) {
    for entry in FolderCalls.entries(of: folder) where entry.name.hasSuffix(".part") {
      FolderCalls.removeFile(folder + "/" + entry.name)
    }
  }

  /// The bytes still to download (less what complete files and parts already hold), plus the
  /// bases to make and stage, plus ``spareByteCount``.
  private func neededByteCount(in folder: String) -> Int {
    var needed = Self.spareByteCount &+ madeByteCount
    for (hash, declared) in downloads {
      let have =
        FolderCalls.regularFileByteCount(folder + "/" + hash)
        ?? FolderCalls.regularFileByteCount(folder + "/" + hash + ".part") ?? 0
      needed &+= max(0, declared - have)
    }
    return needed
  }
}
