extension Manifest {
  /// The bases a complete load installs now: the seed set always; once the full set is
  /// requested, every blocking list and the chosen regions. Staged and retired bases never.
  public var selection: [Manifest.Base] {
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
