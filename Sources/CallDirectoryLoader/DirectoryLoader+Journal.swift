import BaseFormat
import DirectoryContainer
import SystemCalls

extension DirectoryLoader {
  /// Records what this request sent in the container's `DirectoryContainer.ExtensionJournal`,
  /// before the request completes, so the app can tell what the system holds after a request
  /// iOS made on its own (a Settings toggle) and resume installing from there.
  ///
  /// The sequence counts past both the last journal's and the one the app acknowledged, so a
  /// lost or unreadable journal can never make an old request look new.
  /// The request is recorded `pending`: ``recordCommitted(_:)`` marks it committed once the
  /// system confirms it kept it.
  /// - Returns: the request's sequence.
  /// - Throws: ``LoaderError/journal(_:)`` when the journal cannot be written: the request is
  ///   then cancelled, since the app could not know what it installed.
  func recordInJournal(
    _ summary: Summary, bases: [Manifest.Base], manifest: Manifest, incremental: Bool
  ) throws(LoaderError) -> Int {
    let previous = counting.lastSequence
    let (next, overflowed) = max(previous, manifest.installProgress.acknowledgedRequest)
      .addingReportingOverflow(1)
    guard !overflowed else { throw .journal("the sequence is at its largest value") }
    let journal = ExtensionJournal(
      sequence: next, incremental: incremental, entries: summary.installedEntries,
      totalEntries: summary.totalEntries,
      files: [], counts: countingKey(bases, installed: false).flatMap(counting.counts(forKey:)))
    // The user's lists sent ride with the bases, under a name no base has: the app takes
    // that copy as installed once the request commits.
    let userLists = sentListsDigest.map {
      ExtensionJournal.File(
        name: UserListsFile.journalName, file: UserListsFile.sendingName, sha256: $0)
    }
    do {
      try journal.write(
        container: container,
        files: bases.lazy.map { .init(name: $0.name, file: $0.file, sha256: $0.sha256) }
          + (userLists.map { [$0] } ?? []))
    } catch {
      throw .journal(error.description)
    }
    return next
  }

  /// Marks the request `summary` describes as committed in the journal: call it from
  /// `completeRequest`'s handler when it says the request did not expire (the system kept it).
  /// Until then the request is pending, and an app that did not make it reloads rather than
  /// believe it (a request whose system died, or that iOS expired, is never taken as installed).
  /// - Throws: ``LoaderError/journal(_:)`` when the journal cannot be read or written, or holds
  ///   another request now; it then stays pending, which only costs the app a complete reload.
  public func recordCommitted(_ summary: Summary) throws(LoaderError) {
    let marked: Bool
    do {
      marked = try ExtensionJournal.markCommitted(
        container: container, sequence: summary.journalSequence)
    } catch {
      throw .journal(error.description)
    }
    guard marked else {
      throw .journal(
        "the journal holds another request than \(summary.journalSequence): left as it is")
    }
  }
}

extension DirectoryLoader {
  /// Serves a request on a container with no manifest yet: nothing is sent, and the journal
  /// records a request with no files and no entries, so the app knows the system holds nothing
  /// from this extension and its first sync installs everything. A container folder that does
  /// not exist yet (iOS makes the App Group's; a simulated one is made by the first stage) gets
  /// no journal: there is nowhere to write one, and nothing to remember.
  /// - Throws: ``LoaderError/journal(_:)`` when the journal cannot be written.
  func loadNothing(incremental: Bool) throws(LoaderError) -> Summary {
    var summary = Summary(phase: .empty, basesRead: 0, added: 0, removed: 0)
    guard FolderCalls.exists(container, followingLinks: true) else { return summary }
    summary.journalSequence = try recordInJournal(
      summary, bases: [], manifest: Manifest(), incremental: incremental)
    return summary
  }
}
