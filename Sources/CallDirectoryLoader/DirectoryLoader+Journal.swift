import BaseFormat
import DirectoryContainer

extension DirectoryLoader {
  /// Records what this request sent in the container's ``DirectoryContainer/ExtensionJournal``,
  /// before the request completes, so the app can tell what the system holds after a request
  /// iOS made on its own (a Settings toggle) and resume installing from there.
  ///
  /// The sequence counts past both the last journal's and the one the app acknowledged, so a
  /// lost or unreadable journal can never make an old request look new.
  /// - Throws: ``LoaderError/journal(_:)`` when the journal cannot be written: the request is
  ///   then cancelled, since the app could not know what it installed.
  func recordInJournal(
    _ summary: Summary, bases: [Manifest.Base], manifest: Manifest, incremental: Bool
  ) throws(LoaderError) {
    let previous = counting.lastSequence
    let (next, overflowed) = max(previous, manifest.installProgress.acknowledgedRequest)
      .addingReportingOverflow(1)
    guard !overflowed else { throw .journal("the sequence is at its largest value") }
    let journal = ExtensionJournal(
      sequence: next, incremental: incremental, entries: summary.installedEntries,
      totalEntries: summary.totalEntries,
      files: bases.map { .init(name: $0.name, file: $0.file, sha256: $0.sha256) },
      counts: countingKey(bases, installed: false).flatMap(counting.counts(forKey:)))
    do {
      try journal.write(container: container)
    } catch {
      throw .journal(error.description)
    }
  }
}
