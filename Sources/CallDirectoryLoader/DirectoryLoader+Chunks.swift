import BaseFormat
import CallDirectoryCore
import DirectoryContainer

extension DirectoryLoader {
  /// Whether the system holds exactly the files a load would read now (same bases, each from
  /// its current file): an incremental request then only grows the prefix.
  /// Compared pair by pair rather than as sets of strings: no allocation, and a hundred bases
  /// are ten thousand comparisons.
  static func holdsTheSameFiles(old: [Manifest.Base], new: [Manifest.Base]) -> Bool {
    let held = old.lazy.filter { $0.installedFile != nil }
    return held.allSatisfy { base in
      new.contains { $0.name == base.name && $0.file == base.installedFile }
    }
      && new.allSatisfy { base in
        held.contains { $0.name == base.name && $0.installedFile == base.file }
      }
  }

  /// The next chunk past the cap, when the files are unchanged: the entries in the top
  /// `newCap` but not the top `oldCap` of one merge. The two prefixes are nested (the cap
  /// keeps whole priorities above its threshold, and the first entries at it in sending order),
  /// so one counting pass plans both and one pass with both filters finds the chunk: no
  /// removals, and a quarter of the reading a general difference does. The pass goes run by
  /// run, so the held part of a rule base's range costs one step, not one per number.
  func sendNextChunk(
    _ bases: [Manifest.Base], oldCap: Int, newCap: Int,
    into context: some CallDirectoryExtensionContext
  ) throws(LoaderError) -> Summary {
    let upperBound = Self.entryUpperBound(bases)
    let histograms = try histograms(bases, installed: false)
    guard upperBound > oldCap else {
      // Everything is held already. The count, not the manifest's upper bound, which counts a
      // number in two bases twice.
      let held = Self.plans(histograms, cap: oldCap).total
      return Summary(
        phase: .incremental, basesRead: bases.count, added: 0, removed: 0,
        installedEntries: held, totalEntries: held)
    }
    let oldPlan = Self.plans(histograms, cap: oldCap)
    let newPlan = Self.plans(histograms, cap: newCap)
    var added = 0
    for kind in [BaseKind.identification, .blocking] {
      let identification = kind == .identification
      var held = CapFilter(identification ? oldPlan.identification : oldPlan.blocking)
      var wanted = CapFilter(identification ? newPlan.identification : newPlan.blocking)
      let list = try merged(bases, kind: kind, installed: false)
      do {
        // Run by run: the held prefix of a run (and a whole held range) passes in one step.
        while let run = try list.nextRun() {
          let heldCount = held.admits(priority: run.priority, count: run.count)
          let wantedCount = wanted.admits(priority: run.priority, count: run.count)
          guard wantedCount > heldCount else { continue }
          for number in (run.first + Int64(heldCount))...(run.first + Int64(wantedCount - 1)) {
            // The user's layer is the same on both sides here: what it holds is held already,
            // and what it takes away stays away.
            if !newLayer.isEmpty, holdsAlready(number, identification: identification) {
              continue
            }
            if identification {
              context.addIdentificationEntry(
                withNextSequentialPhoneNumber: number, label: run.label)
            } else {
              context.addBlockingEntry(withNextSequentialPhoneNumber: number)
            }
            added += 1
          }
        }
      } catch {
        throw .format(base: kind.description, error)
      }
    }
    return Summary(
      phase: .incremental, basesRead: bases.count, added: added, removed: 0,
      installedEntries: newPlan.identification.admittedCount, totalEntries: newPlan.total)
  }

  /// Whether the user's layer decides `number` for this list whatever the directory holds: the
  /// user labels it (identification), or the user blocks or allows it, or blocking is paused.
  private func holdsAlready(_ number: Int64, identification: Bool) -> Bool {
    if identification { return newLayer.label(of: number) != nil }
    return newLayer.paused || newLayer.allows(number) || newLayer.blocks(number)
  }
}
