import BaseFormat
import CallDirectoryCore
import DirectoryContainer

extension DirectoryLoader {
  /// Sends removals then additions so the system ends up holding exactly the top `newCap`
  /// entries of `new`, from the top `oldCap` entries of `old` (the installed files).
  ///
  /// Both sets are walked as runs (``MergedList/nextRun()``): a rule base's range that is the
  /// same on both sides is passed in one step, so adding one prefix to 120 M numbers of
  /// patterns reads the ranges and sends the prefix's million, not 4 × 120 M numbers.
  func sendDifference(
    old: [Manifest.Base], new: [Manifest.Base], oldCap: Int, newCap: Int,
    into context: some CallDirectoryExtensionContext
  ) throws(LoaderError) -> Summary {
    if newCap >= oldCap, oldLayer == newLayer, Self.holdsTheSameFiles(old: old, new: new) {
      return try sendNextChunk(new, oldCap: oldCap, newCap: newCap, into: context)
    }
    let oldPlan = try capPlans(old, installed: true, cap: oldCap)
    let newPlan = try capPlans(new, installed: false, cap: newCap)
    var removed = 0
    var added = 0
    // The new side's entries, counted in the additions pass: what the system holds afterwards.
    var held = 0
    for kind in [BaseKind.identification, .blocking] {
      let oldListPlan = kind == .identification ? oldPlan.identification : oldPlan.blocking
      let newListPlan = kind == .identification ? newPlan.identification : newPlan.blocking
      // Pass 1: removals (gone, or relabelled: removed here and added again in pass 2).
      try diff(old: old, new: new, kind: kind, oldCap: oldListPlan, newCap: newListPlan) {
        change in
        if case .remove(let number) = change {
          if kind == .identification {
            context.removeIdentificationEntry(withPhoneNumber: number)
          } else {
            context.removeBlockingEntry(withPhoneNumber: number)
          }
          removed += 1
        }
      }
      // Pass 2: additions, ascending.
      held += try diff(old: old, new: new, kind: kind, oldCap: oldListPlan, newCap: newListPlan) {
        change in
        switch change {
        case .kept: break
        case .add(let entry):
          if kind == .identification {
            context.addIdentificationEntry(
              withNextSequentialPhoneNumber: entry.number, label: entry.label)
          } else {
            context.addBlockingEntry(withNextSequentialPhoneNumber: entry.number)
          }
          added += 1
        case .remove: break
        }
      }
    }
    let (installed, total) = Self.counts(newPlan, walked: held)
    return Summary(
      phase: .incremental, basesRead: new.count, added: added, removed: removed,
      installedEntries: installed, totalEntries: total)
  }

  enum Change {
    case remove(Int64)
    case add(BaseEntry)
    /// This many numbers in both, with the same labels: nothing to send.
    case kept(Int)
  }

  /// Walks the old and new capped merges side by side, run by run, reporting each difference
  /// in ascending order: a number only one side holds, or one whose label changed (removed,
  /// then added). A stretch both sides hold with one label is reported once, as its count.
  /// Each side is the directory's merge with its user's layer over it (``LayeredRuns``).
  /// - Returns: the new side's directory entries the cap admits (its prefix's share).
  @discardableResult
  func diff(
    old: [Manifest.Base], new: [Manifest.Base], kind: BaseKind, oldCap: CapPlan, newCap: CapPlan,
    _ body: (Change) -> Void
  ) throws(LoaderError) -> Int {
    // Both merges run at once: they share one merge's label-cache budget, so an incremental
    // request holds no more label strings than a complete one.
    let half = Self.labelCacheBytesPerMerge / 2
    let oldList = try merged(old, kind: kind, installed: true, labelCacheBytes: half)
    let newList = try merged(new, kind: kind, installed: false, labelCacheBytes: half)
    var oldRuns = LayeredRuns(oldList, filter: CapFilter(oldCap), kind: kind, layer: oldLayer)
    var newRuns = LayeredRuns(newList, filter: CapFilter(newCap), kind: kind, layer: newLayer)
    func removeAll(_ numbers: ClosedRange<Int64>) {
      for number in numbers { body(.remove(number)) }
    }
    func addAll(_ numbers: ClosedRange<Int64>, label: String) {
      for number in numbers { body(.add(BaseEntry(number: number, label: label))) }
    }
    do {
      var oldRun = try oldRuns.next()
      var newRun = try newRuns.next()
      while true {
        switch (oldRun, newRun) {
        case (nil, nil):
          return newRuns.directoryAdmitted
        case (let gone?, nil):
          removeAll(gone.first...gone.last)
          oldRun = try oldRuns.next()
        case (nil, let fresh?):
          addAll(fresh.first...fresh.last, label: fresh.label)
          newRun = try newRuns.next()
        case (var gone?, var fresh?):
          if gone.last < fresh.first {
            removeAll(gone.first...gone.last)
            oldRun = try oldRuns.next()
            continue
          }
          if fresh.last < gone.first {
            addAll(fresh.first...fresh.last, label: fresh.label)
            newRun = try newRuns.next()
            continue
          }
          // They overlap: what one holds before the other starts differs, the rest is shared.
          if gone.first < fresh.first {
            removeAll(gone.first...(fresh.first - 1))
            gone.first = fresh.first
          } else if fresh.first < gone.first {
            addAll(fresh.first...(gone.first - 1), label: fresh.label)
            fresh.first = gone.first
          }
          let end = min(gone.last, fresh.last)
          if gone.label == fresh.label {
            body(.kept(Int(end - gone.first) + 1))
          } else {
            for number in gone.first...end {
              body(.remove(number))
              body(.add(BaseEntry(number: number, label: fresh.label)))
            }
          }
          // Each run goes on past the shared stretch, or the next one is read.
          if end < gone.last {
            gone.first = end + 1
            oldRun = gone
          } else {
            oldRun = try oldRuns.next()
          }
          if end < fresh.last {
            fresh.first = end + 1
            newRun = fresh
          } else {
            newRun = try newRuns.next()
          }
        }
      }
    } catch {
      throw .format(base: kind.description, error)
    }
  }
}
