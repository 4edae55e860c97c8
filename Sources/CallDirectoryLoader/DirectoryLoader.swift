import BaseFormat
import CallDirectoryCore
import DirectoryContainer
import SystemCalls

/// The loader inside the extension: reads the container's manifest and hands the system the
/// entries the request calls for.
///
/// - A complete request while the full set is not requested installs the **seed set** only, so
///   enabling feels instant (phase one).
/// - A complete request once the full set is requested installs the union of the seed set, the
///   chosen regions and the blocking lists (phase two): one ascending stream per list, merged in
///   O(k) memory; a number in several bases keeps the label of the highest-priority base; over
///   the cap, the highest-priority entries are kept.
/// - An incremental request sends only the difference between what the system holds (each base's
///   installed file) and the set a complete load would install now: removals, then additions,
///   computed by merging old and new in O(k) memory.
///
/// Every base of the new set is checked against its SHA-256 while it streams, on a second thread
/// (`BackgroundVerification`), and the format's checksums are checked block by block. Any
/// failure throws before the request completes: the caller cancels it and the system keeps what
/// it had.
///
/// Synchronous and not `Sendable`, on purpose: CallKit calls `beginRequest(with:)` synchronously
/// on one thread, and a loader keeps that request's counting passes (a memo the journal is
/// written from), so it serves one request on one thread. Make one per request (it reads
/// nothing until asked); the app's side, which tasks share, is `ContainerApp`.
public struct DirectoryLoader {
  /// What a request installed.
  public enum Phase: String, Sendable {
    case seed, full, incremental
    /// The container has no manifest yet (the user turned the extension on before the app's
    /// first update): the request completes with no entries, so the switch stays on, and the
    /// first update's reload installs as usual.
    case empty
  }

  /// What was sent.
  public struct Summary: Equatable, Sendable {
    public var phase: Phase
    public var basesRead: Int
    public var added: Int
    public var removed: Int
    /// The top-priority prefix the system holds once the request commits, in entries.
    public var installedEntries = 0
    /// The full set's size (duplicates merged; the manifest's upper bound when under the cap).
    public var totalEntries = 0
    /// The request's sequence in the container's journal (see ``recordCommitted(_:)``).
    public var journalSequence = 0
  }

  /// The App Group container folder.
  public let container: String
  /// The most entries one load may hold (the system's 1,999,999 by default).
  public var maximumEntries: Int
  /// The numbers this extension installs (the manifest's range, set when a request starts).
  var numberRange: Range<Int64>?
  /// The counting passes this request reuses from the journal or makes (set when a request
  /// starts).
  var counting = CountingMemo(container: nil)
  /// The user's lists this request sends (the app's staged copy), and the ones the system holds
  /// (the old side of an incremental request); set when a request starts.
  var newLayer = UserLayer.empty
  var oldLayer = UserLayer.empty
  /// What the journal records of the lists sent (their digest), nil when none are.
  var sentListsDigest: String?

  /// A loader for `container`.
  public init(container: String, maximumEntries: Int = SystemLimits.maximumEntriesPerLoad) {
    self.container = container
    self.maximumEntries = maximumEntries
  }

  /// Loads what `context`'s request calls for.
  /// - Throws: ``LoaderError``; nothing is completed or cancelled here.
  public func load(into context: some CallDirectoryExtensionContext) throws(LoaderError)
    -> Summary
  {
    // Before the first update there is nothing to send, and that is not a failure: a cancelled
    // request turns the user's switch back off (issue 52, item 3).
    guard FolderCalls.exists(container + "/" + Manifest.fileName) else {
      var loader = self
      loader.counting = CountingMemo(container: container)
      return try loader.loadNothing(incremental: context.isIncremental)
    }
    let manifest: Manifest
    do {
      manifest = try Manifest.read(container: container)
    } catch {
      throw .manifest(error)
    }
    var loader = self
    loader.numberRange = manifest.numberRange
    loader.counting = CountingMemo(container: container)
    let sent = try userLists(UserListsFile.sendingName)
    loader.newLayer = UserLayer(sent)
    loader.sentListsDigest = sent.isEmpty ? nil : UserListsFile.digest(sent)
    if context.isIncremental {
      loader.oldLayer = UserLayer(try userLists(UserListsFile.installedName))
    }
    return try loader.load(manifest, into: context)
  }

  private func load(_ manifest: Manifest, into context: some CallDirectoryExtensionContext)
    throws(LoaderError) -> Summary
  {
    let newSet = manifest.selection
    for base in newSet {
      guard let byteCount = regularFileByteCount(path(base.file)) else {
        throw .unreadable(base: base.name, path: path(base.file))
      }
      if let recorded = base.byteCount, recorded != byteCount {
        throw .countMismatch(base: base.name, field: "bytes", manifest: recorded, file: byteCount)
      }
    }
    if context.isIncremental, var summary = try sendUserEditOnly(newSet, manifest, into: context) {
      summary.journalSequence = try recordInJournal(
        summary, bases: newSet, manifest: manifest, incremental: true)
      return summary
    }
    var installedFiles: [BackgroundVerification.Item] = []
    if context.isIncremental {
      // The old side of a difference must be what the system holds: an installed file changed
      // in place would make the difference wrong, so it is hashed too.
      for base in manifest.bases {
        guard let installed = base.installedFile, installed != base.file || !newSet.contains(base)
        else { continue }
        guard let expected = base.expectedInstalledSHA256 else {
          throw .installedHashUnrecorded(base: base.name)
        }
        installedFiles.append(
          .init(name: base.name + " (installed)", file: installed, sha256: expected))
      }
    }
    let verification = BackgroundVerification(
      container: container, bases: newSet, others: installedFiles)
    verification.start()
    var summary: Summary
    do throws(LoaderError) {
      summary = try send(newSet, manifest: manifest, into: context)
    } catch {
      _ = verification.join()
      throw error
    }
    if let failure = verification.join() { throw failure }
    summary.journalSequence = try recordInJournal(
      summary, bases: newSet, manifest: manifest, incremental: context.isIncremental)
    return summary
  }

  private func send(
    _ newSet: [Manifest.Base], manifest: Manifest, into context: some CallDirectoryExtensionContext
  ) throws(LoaderError) -> Summary {
    if context.isIncremental {
      let oldSet = manifest.bases.keeping { $0.installedFile != nil }
      let progress = manifest.installProgress
      let oldCap = progress.installedEntries ?? maximumEntries
      // One request never grows the prefix by more than one load holds, whatever chunk the
      // app asked for: a cap per request would refuse the rest.
      // The user's entries ride above the directory's prefix: a request that may send them
      // all grows the prefix by that much less.
      let userRoom = oldLayer == newLayer ? 0 : newLayer.entryBound
      let (grown, overflowed) = oldCap.addingReportingOverflow(max(0, maximumEntries - userRoom))
      let newCap = min(progress.targetEntries ?? maximumEntries, overflowed ? Int.max : grown)
      return try sendDifference(
        old: oldSet, new: newSet, oldCap: oldCap, newCap: newCap, into: context)
    }
    let phase: Phase = manifest.fullSetRequested ? .full : .seed
    // A complete request installs up to the cap; incremental ones grow the prefix past it.
    // The user's entries come first: the directory gets what is left of one load.
    let plan = try capPlans(
      newSet, installed: false, cap: max(0, maximumEntries - newLayer.entryBound))
    var added = 0
    var walked = 0
    if newLayer.isEmpty {
      var filter = CapFilter(plan.identification)
      added += try stream(newSet, kind: .identification, installed: false, filter: &filter) {
        context.addIdentificationEntry(withNextSequentialPhoneNumber: $0.number, label: $0.label)
      }
      filter = CapFilter(plan.blocking)
      added += try stream(newSet, kind: .blocking, installed: false, filter: &filter) {
        context.addBlockingEntry(withNextSequentialPhoneNumber: $0.number)
      }
      walked = added
    } else {
      for kind in [BaseKind.identification, .blocking] {
        let (sent, admitted) = try streamLayered(
          newSet, kind: kind, plan: kind == .identification ? plan.identification : plan.blocking
        ) { number, label in
          if kind == .identification {
            context.addIdentificationEntry(withNextSequentialPhoneNumber: number, label: label)
          } else {
            context.addBlockingEntry(withNextSequentialPhoneNumber: number)
          }
        }
        added += sent
        walked += admitted
      }
    }
    let (held, total) = Self.counts(plan, walked: walked)
    return Summary(
      phase: phase, basesRead: newSet.count, added: added, removed: 0,
      installedEntries: held, totalEntries: total)
  }

  /// What the system holds once a request commits, and the full set's size. Under the cap the
  /// plans carry the manifest's upper bound, which counts a number in two bases (a seed set
  /// inside its regions) twice, so the entries the request walked (sent, or kept and sent) are
  /// the count; over it, the counting pass's merged figures are.
  static func counts(
    _ plan: (identification: CapPlan, blocking: CapPlan, total: Int), walked: Int
  ) -> (held: Int, total: Int) {
    plan.identification.thresholdPriority == nil
      ? (walked, walked) : (plan.identification.admittedCount, plan.total)
  }

  // MARK: Streams

  /// A file of the container, by its name in the manifest.
  func path(_ file: String) -> String { container + "/" + file }

  /// Streams one kind's capped merge into `body`; returns how many entries were sent.
  func stream(
    _ bases: [Manifest.Base], kind: BaseKind, installed: Bool, filter: inout CapFilter,
    _ body: (BaseEntry) -> Void
  ) throws(LoaderError) -> Int {
    let list = try merged(bases, kind: kind, installed: installed)
    var sent = 0
    do {
      // Past the cap, a pattern plan's numbers are skipped a range at a time: walked number
      // by number, the first complete request of a 120 M plan took 12 s of CPU, ten times the
      // 12 M plan's, for the same 1,999,999 entries sent (issue 65, item 4). A list base's
      // run is one entry, so a merge without ranges keeps the per-entry path.
      if list.holdsRanges {
        while let run = try list.nextRun() {
          let admitted = filter.admits(priority: run.priority, count: run.count)
          var number = run.first
          for _ in 0..<admitted {
            body(BaseEntry(number: number, label: run.label))
            number += 1
          }
          sent += admitted
        }
        return sent
      }
      while let (entry, priority) = try list.next() {
        guard filter.admits(priority: priority) else { continue }
        body(entry)
        sent += 1
      }
    } catch {
      throw .format(base: kind.description, error)
    }
    return sent
  }

  /// The bases' entries added up: the set's size before duplicates merge. The counts come from
  /// the manifest, so they are added without trapping on a forged one (Int.max on overflow).
  static func entryUpperBound(_ bases: [Manifest.Base]) -> Int {
    bases.reduce(0) { total, base in
      let (sum, overflowed) = total.addingReportingOverflow(base.entries)
      return overflowed ? Int.max : sum
    }
  }

  /// The cap plans of both lists, which share the count: the top `cap` entries by priority, with
  /// a counting pass only when the bases could exceed it. `total` is the set's size.
  func capPlans(_ bases: [Manifest.Base], installed: Bool, cap: Int) throws(LoaderError) -> (
    identification: CapPlan, blocking: CapPlan, total: Int
  ) {
    let upperBound = Self.entryUpperBound(bases)
    guard upperBound > cap else {
      return (.unlimited(total: upperBound), .unlimited(total: upperBound), upperBound)
    }
    return Self.plans(try histograms(bases, installed: installed), cap: cap)
  }

  /// The plans of both lists for the top `cap` entries, from their histograms.
  static func plans(_ histograms: [BaseKind: [Int: Int]], cap: Int) -> (
    identification: CapPlan, blocking: CapPlan, total: Int
  ) {
    let identification = histograms[.identification] ?? [:]
    var combined = identification
    for (priority, count) in histograms[.blocking] ?? [:] {
      combined[priority, default: 0] += count
    }
    let plan = CapPlan(histogram: combined, cap: cap)
    guard let threshold = plan.thresholdPriority else { return (plan, plan, plan.totalCount) }
    // Identification is sent first, so it takes the threshold's quota first.
    let identificationQuota = min(plan.quotaAtThreshold, identification[threshold] ?? 0)
    // Both carry the whole plan's counts: they describe one prefix of the two lists together.
    return (
      CapPlan(
        thresholdPriority: threshold, quotaAtThreshold: identificationQuota,
        admittedCount: plan.admittedCount, totalCount: plan.totalCount),
      CapPlan(
        thresholdPriority: threshold, quotaAtThreshold: plan.quotaAtThreshold - identificationQuota,
        admittedCount: plan.admittedCount, totalCount: plan.totalCount),
      plan.totalCount
    )
  }
}

extension Array {
  /// `filter` into storage reserved once: `filter` grows its result by doubling, and each size
  /// it passed through stays in the allocator's thread cache, which is the extension's footprint
  /// (bases are some 200 bytes each, 108 regions a 21 KiB array).
  /// When every element is kept, the array itself is returned, its storage shared.
  func keeping(_ isKept: (Element) -> Bool) -> [Element] {
    guard !allSatisfy(isKept) else { return self }
    var kept: [Element] = []
    kept.reserveCapacity(count)
    for element in self where isKept(element) { kept.append(element) }
    return kept
  }
}
