extension Manifest {
  /// The bases a complete load installs now: the seed set always; once the full set is
  /// requested, every blocking list and the chosen regions. Staged and retired bases never.
  package var selection: [Manifest.Base] {
    // When every base is selected (a synced full set of chosen regions), the manifest's own
    // array is handed out, its storage shared: the extension reads this, and a copy of 300
    // bases is 50 KB of its footprint. Otherwise reserved once, not grown by doubling: each
    // size an array grows through stays in the allocator's thread cache (its footprint).
    guard !bases.allSatisfy(isSelected) else { return bases }
    var selected: [Manifest.Base] = []
    selected.reserveCapacity(bases.count)
    for base in bases where isSelected(base) { selected.append(base) }
    return selected
  }

  /// Whether a complete load installs `base` now.
  private func isSelected(_ base: Manifest.Base) -> Bool {
    guard base.state != .staged && base.state != .retired else { return false }
    switch base.role {
    case .seed: return true
    case .blocking: return fullSetRequested
    case .region:
      guard fullSetRequested, let region = base.region else { return false }
      return chosenRegions.contains(region)
    }
  }
}

/// What the system's copy lacks of a manifest's selection, base by base, read from the
/// manifest alone (no base file is opened): bases the next sync adds whole, bases it removes,
/// and bases whose new version it diffs against the one the system holds. The entry counts
/// are each base's own, so bounds: numbers two bases share count in both.
///
/// A status that read only the install progress said "nothing pending" after an update or a
/// recompile, until the next sync, and an app that synced only when not up to date never
/// installed an update (issue 65, item 1).
public struct PendingBases: Equatable, Sendable {
  /// Selected bases the system holds nothing of (a new region, a first install).
  public var added: [String] = []
  /// Selected bases the system holds an older version of: the next sync sends the difference.
  public var changed: [String] = []
  /// Bases the system holds that are no longer selected (a region left out, a retired base).
  public var removed: [String] = []
  /// Entries of the added bases: at most this many are added.
  public var entriesToAdd = 0
  /// Entries of the removed bases' current versions: about this many are removed.
  public var entriesToRemove = 0
  /// Entries of the changed bases' new versions; their difference is known once diffed.
  public var entriesInChanged = 0

  package init() {}

  /// Whether the system holds exactly the selection's files.
  public var isEmpty: Bool { added.isEmpty && changed.isEmpty && removed.isEmpty }

  /// Bases with a change pending.
  public var count: Int { added.count + changed.count + removed.count }
}

extension Manifest {
  /// What the next sync changes, base by base (``PendingBases``).
  package var pendingBases: PendingBases {
    var pending = PendingBases()
    let selected = selection
    let selectedNames = Set(selected.map(\.name))
    for base in selected {
      switch base.installedFile {
      case nil:
        pending.added.append(base.name)
        pending.entriesToAdd += base.entries
      case base.file?: break
      default:
        pending.changed.append(base.name)
        pending.entriesInChanged += base.entries
      }
    }
    for base in bases where base.installedFile != nil && !selectedNames.contains(base.name) {
      pending.removed.append(base.name)
      pending.entriesToRemove += base.entries
    }
    return pending
  }
}
