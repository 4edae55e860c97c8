extension Manifest {
  /// The bases a complete load installs now: the seed set always; once the full set is
  /// requested, every blocking list and the chosen regions. Staged and retired bases never.
  public var selection: [Manifest.Base] {
    // Reserved once, not grown by doubling: the extension reads this, and each size an array
    // grows through stays in the allocator's thread cache (its footprint).
    var selected: [Manifest.Base] = []
    selected.reserveCapacity(bases.count)
    for base in bases where base.state != .staged && base.state != .retired {
      switch base.role {
      case .seed: selected.append(base)
      case .blocking: if fullSetRequested { selected.append(base) }
      case .region:
        if fullSetRequested, let region = base.region, chosenRegions.contains(region) {
          selected.append(base)
        }
      }
    }
    return selected
  }
}
