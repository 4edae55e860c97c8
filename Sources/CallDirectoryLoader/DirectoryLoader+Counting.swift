import BaseFormat
import DirectoryContainer

/// The counting passes of one request: the one the last journal kept, and those made since. A
/// class so the loader's non-mutating passes can record what they counted for the journal.
final class CountingMemo {
  /// The container whose journal is read, once, when first needed (nil: never).
  private let container: String?
  /// What this request keeps of the last journal, once read: its sequence (0 when there is
  /// none or it is unreadable) and its counts.
  private var lastJournal: (sequence: Int, counts: PriorityCounts?)?
  /// Counts this request made or reused, newest last.
  private(set) var known: [PriorityCounts] = []

  /// A memo that reads `container`'s journal when a counting pass or the new journal first
  /// needs it, and keeps only its sequence and counts: the extension's footprint is its heap's
  /// high-water mark, and holding every file line of the journal through the merges, or
  /// reading it twice, showed in it.
  init(container: String?) { self.container = container }

  private func readJournal() -> (sequence: Int, counts: PriorityCounts?) {
    if let lastJournal { return lastJournal }
    let journal = container.flatMap {
      try? ExtensionJournal.read(container: $0, keepingFiles: false)
    }
    let kept = (journal?.sequence ?? 0, journal?.counts)
    lastJournal = kept
    return kept
  }

  /// The last journal's sequence; 0 when there is none or it cannot be read.
  var lastSequence: Int { readJournal().sequence }

  func counts(forKey key: String) -> PriorityCounts? {
    if let made = known.last(where: { $0.key == key }) { return made }
    let kept = readJournal().counts
    return kept?.key == key ? kept : nil
  }

  func record(_ counts: PriorityCounts) {
    if !known.contains(where: { $0.key == counts.key }) { known.append(counts) }
  }
}

extension DirectoryLoader {
  /// The key of counting `bases` (their installed files, or their current ones) in this
  /// extension's range; nil when an installed file's hash was never recorded.
  func countingKey(_ bases: [Manifest.Base], installed: Bool) -> String? {
    // Hashed as the bases are walked, not gathered into an array first: one more array of
    // every base is footprint at 300 regions.
    if installed, bases.contains(where: { $0.expectedInstalledSHA256 == nil }) { return nil }
    let counted = bases.lazy.map { base in
      PriorityCounts.CountedBase(
        kind: base.kind, priority: base.priority,
        file: installed ? (base.installedFile ?? base.file) : base.file,
        sha256: installed ? base.expectedInstalledSHA256! : base.sha256)
    }
    return PriorityCounts.key(of: counted, range: numberRange)
  }

  /// Entries the merge of each kind emits, per base priority. Taken from the journal when the
  /// last request counted exactly these files (and the counts are plausible for them), else one
  /// pass without labels; either way kept for this request's journal.
  func histograms(_ bases: [Manifest.Base], installed: Bool) throws(LoaderError) -> [BaseKind:
    [Int: Int]]
  {
    let key = countingKey(bases, installed: installed)
    if let key, let known = counting.counts(forKey: key),
      known.isPlausible(for: bases.map { ($0.kind, $0.priority, $0.entries) })
    {
      counting.record(known)
      return known.counts
    }
    var histograms: [BaseKind: [Int: Int]] = [.identification: [:], .blocking: [:]]
    for kind in [BaseKind.identification, .blocking] {
      histograms[kind] = try count(bases, kind: kind, installed: installed)
    }
    if let key { counting.record(PriorityCounts(key: key, counts: histograms)) }
    return histograms
  }

  /// One kind's entries per priority, counted run by run (``MergedList/nextRun()``): a rule
  /// base's range is one step, and the dictionary is touched once a run of one priority.
  private func count(_ bases: [Manifest.Base], kind: BaseKind, installed: Bool)
    throws(LoaderError) -> [Int: Int]
  {
    let list = try merged(bases, kind: kind, installed: installed, labels: false)
    var histogram: [Int: Int] = [:]
    var runPriority = 0
    var runLength = 0
    do {
      while let run = try list.nextRun() {
        if run.priority == runPriority {
          runLength += run.count
          continue
        }
        if runLength > 0 { histogram[runPriority, default: 0] += runLength }
        (runPriority, runLength) = (run.priority, run.count)
      }
    } catch {
      throw .format(base: kind.description, error)
    }
    if runLength > 0 { histogram[runPriority, default: 0] += runLength }
    return histogram
  }
}
