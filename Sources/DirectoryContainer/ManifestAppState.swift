extension Manifest {
  /// Carries the app's state over from `previous` into a freshly compiled manifest, so that a
  /// recompile does not undo the user's choices or what the system holds:
  /// - the full-set request, and the progress of installing it past the cap;
  /// - the chosen regions (all of them again if the user had all of the previous ones, else
  ///   those still published, or the whole choice when none of them is);
  /// - for each base of the same name, the file the system holds (`installed` when the new file
  ///   is the same, so the next incremental sync sends only the difference);
  /// - bases the recompile left out but the system still holds, as `retired`, so the next load
  ///   removes their entries.
  package mutating func keepAppState(of previous: Manifest) {
    fullSetRequested = previous.fullSetRequested
    installProgress = previous.installProgress
    chooseRegions(after: previous)
    let previousByName = Dictionary(
      previous.bases.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    for index in bases.indices {
      guard let old = previousByName[bases[index].name], let installed = old.installedFile else {
        continue
      }
      bases[index].installedFile = installed
      bases[index].installedSHA256 = old.expectedInstalledSHA256
      if installed == bases[index].file { bases[index].state = .installed }
    }
    let names = Set(bases.map(\.name))
    for old in previous.bases where !names.contains(old.name) && old.installedFile != nil {
      var retired = old
      retired.state = .retired
      bases.append(retired)
    }
  }

  /// Chooses the regions of this manifest's bases as a compile or an update does: every region
  /// in a new container (`previous` nil); in an existing one, every region again if the user had
  /// all of the previous ones, else those of the user's choice still published, or the whole
  /// choice when none of them is (the user's choice is never cleared: an empty release, allowed
  /// with --allow-shrink, keeps it for the next one that publishes them again).
  package mutating func chooseRegions(after previous: Manifest?) {
    let regions = bases.filter { $0.state != .retired }.compactMap(\.region)
    guard let previous else {
      chosenRegions = regions
      return
    }
    let previousRegions = Set(previous.bases.filter { $0.state != .retired }.compactMap(\.region))
    let chosen = Set(previous.chosenRegions)
    let hadAll = previousRegions.isEmpty ? chosen.isEmpty : previousRegions.isSubset(of: chosen)
    if hadAll {
      chosenRegions = regions
    } else {
      let kept = regions.filter(chosen.contains)
      chosenRegions = kept.isEmpty ? previous.chosenRegions : kept
    }
  }
}
