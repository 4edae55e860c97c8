import BaseFormat
import CallDirectoryCore
import DirectoryContainer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The loader inside the extension: reads the container's manifest and hands the system the
/// entries the request calls for.
///
/// - A complete request while the full set is not requested installs the **seed set** only, so
///   enabling feels instant (phase one).
/// - A complete request once the full set is requested installs the union of the seed set, the
///   chosen regions and the blocking lists (phase two): one ascending stream per list, merged in
///   O(k) memory; a number in several bases keeps the label of the highest-priority base; over
///   the cap, the highest-priority entries are kept (``CapPlan``).
/// - An incremental request sends only the difference between what the system holds (each base's
///   installed file) and the set a complete load would install now: removals, then additions,
///   computed by merging old and new in O(k) memory.
///
/// Every base of the new set is checked against its SHA-256 while it streams, on a second thread
/// (``BackgroundVerification``), and the format's checksums are checked block by block. Any
/// failure throws before the request completes: the caller cancels it and the system keeps what
/// it had.
public struct DirectoryLoader {
  /// What a request installed.
  public enum Phase: String, Sendable {
    case seed, full, incremental
  }

  /// What was sent.
  public struct Summary: Equatable, Sendable {
    public var phase: Phase
    public var basesRead: Int
    public var added: Int
    public var removed: Int
  }

  /// The App Group container folder.
  public let container: String
  /// The most entries one load may hold (the system's 1,999,999 by default).
  public var maximumEntries: Int

  /// A loader for `container`.
  public init(container: String, maximumEntries: Int = SystemLimits.maximumEntriesPerLoad) {
    self.container = container
    self.maximumEntries = maximumEntries
  }

  /// The bases a complete load installs now, per the manifest.
  public static func selection(_ manifest: Manifest) -> [Manifest.Base] {
    manifest.bases.filter { base in
      guard base.state != .staged, base.state != .retired else { return false }
      switch base.role {
      case .seed: return true
      case .region, .blocking:
        guard manifest.fullSetRequested else { return false }
        if base.role == .blocking { return true }
        return base.region.map(manifest.chosenRegions.contains) ?? false
      }
    }
  }

  /// Loads what `context`'s request calls for.
  /// - Throws: ``LoaderError``; nothing is completed or cancelled here.
  public func load(into context: some CallDirectoryExtensionContext) throws(LoaderError)
    -> Summary
  {
    let manifest: Manifest
    do {
      manifest = try Manifest.read(container: container)
    } catch {
      throw .manifest(error)
    }
    let newSet = Self.selection(manifest)
    for base in newSet where !fileExists(path(base.file)) {
      throw .unreadable(base: base.name, path: path(base.file))
    }
    var verified = newSet.map { ($0.name, path($0.file), $0.sha256) }
    if context.isIncremental {
      // The old side of a difference must be what the system holds: an installed file changed
      // in place would make the difference wrong, so it is hashed too.
      for base in manifest.bases {
        guard let installed = base.installedFile, installed != base.file || !newSet.contains(base)
        else { continue }
        guard let expected = base.expectedInstalledSHA256 else {
          throw .installedHashUnrecorded(base: base.name)
        }
        verified.append((base.name + " (installed)", path(installed), expected))
      }
    }
    let verification = BackgroundVerification(verified)
    verification.start()
    let summary: Summary
    do throws(LoaderError) {
      summary = try send(newSet, manifest: manifest, into: context)
    } catch {
      _ = verification.join()
      throw error
    }
    if let failure = verification.join() { throw failure }
    return summary
  }

  private func fileExists(_ path: String) -> Bool { access(path, R_OK) == 0 }

  private func send(
    _ newSet: [Manifest.Base], manifest: Manifest, into context: some CallDirectoryExtensionContext
  ) throws(LoaderError) -> Summary {
    if context.isIncremental {
      let oldSet = manifest.bases.filter { $0.installedFile != nil }
      return try sendDifference(old: oldSet, new: newSet, into: context)
    }
    let phase: Phase = manifest.fullSetRequested ? .full : .seed
    let plan = try capPlans(newSet, installed: false)
    var added = 0
    var filter = CapFilter(plan.identification)
    added += try stream(newSet, kind: .identification, installed: false, filter: &filter) {
      context.addIdentificationEntry(withNextSequentialPhoneNumber: $0.number, label: $0.label)
    }
    filter = CapFilter(plan.blocking)
    added += try stream(newSet, kind: .blocking, installed: false, filter: &filter) {
      context.addBlockingEntry(withNextSequentialPhoneNumber: $0.number)
    }
    return Summary(phase: phase, basesRead: newSet.count, added: added, removed: 0)
  }

  // MARK: Verification

  func path(_ file: String) -> String { container + "/" + file }

  // MARK: Streams

  /// The windows of all readers open at once share this many bytes, so merging 108 bases maps
  /// about as much as merging a few.
  static let mappedBytesPerMerge = 1024 * 1024

  private func open(
    _ base: Manifest.Base, installed: Bool, labels: Bool = true, window: Int
  ) throws(LoaderError) -> any BaseReader {
    let file = installed ? (base.installedFile ?? base.file) : base.file
    do {
      // mmap readers: their windows are file-backed, so the footprint stays flat however many
      // bases are merged (8 KiB buffers would add 8 KiB of private memory per base).
      let reader = try MappedBaseReader(path: path(file), windowByteCount: window)
      reader.skipsLabels = !labels
      guard reader.header.kind == base.kind else {
        throw LoaderError.kindMismatch(
          base: base.name, manifest: base.kind, file: reader.header.kind)
      }
      return reader
    } catch let error as LoaderError {
      throw error
    } catch let error as BaseFormatError {
      throw .format(base: base.name, error)
    } catch {
      throw .unreadable(base: base.name, path: path(file))
    }
  }

  /// A merged stream over the bases of one kind.
  func merged(
    _ bases: [Manifest.Base], kind: BaseKind, installed: Bool, labels: Bool = true
  ) throws(LoaderError) -> MergedList {
    var readers: [(reader: any BaseReader, priority: Int)] = []
    let members = bases.filter { $0.kind == kind }
    let window = Self.mappedBytesPerMerge / max(1, members.count)
    for base in members {
      readers.append(
        (try open(base, installed: installed, labels: labels, window: window), base.priority))
    }
    do {
      return try MergedList(readers)
    } catch {
      throw .format(base: "merge", error)
    }
  }

  /// Streams one kind's capped merge into `body`; returns how many entries were sent.
  func stream(
    _ bases: [Manifest.Base], kind: BaseKind, installed: Bool, filter: inout CapFilter,
    _ body: (BaseEntry) -> Void
  ) throws(LoaderError) -> Int {
    let list = try merged(bases, kind: kind, installed: installed)
    var sent = 0
    do {
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

  /// The cap plans of both lists, which share the system's count: a counting pass only when the
  /// bases could exceed the cap.
  func capPlans(_ bases: [Manifest.Base], installed: Bool) throws(LoaderError) -> (
    identification: CapPlan, blocking: CapPlan
  ) {
    // Entry counts come from the manifest: add them without trapping on a forged one.
    let upperBound = bases.reduce(0) { total, base in
      let (sum, overflowed) = total.addingReportingOverflow(base.entries)
      return overflowed ? Int.max : sum
    }
    guard upperBound > maximumEntries else {
      return (.unlimited(total: upperBound), .unlimited(total: upperBound))
    }
    var histograms: [BaseKind: [Int: Int]] = [.identification: [:], .blocking: [:]]
    for kind in [BaseKind.identification, .blocking] {
      let list = try merged(bases, kind: kind, installed: installed, labels: false)
      do {
        while let (_, priority) = try list.next() { histograms[kind]![priority, default: 0] += 1 }
      } catch {
        throw .format(base: kind.description, error)
      }
    }
    var combined = histograms[.identification]!
    for (priority, count) in histograms[.blocking]! { combined[priority, default: 0] += count }
    let plan = CapPlan(histogram: combined, cap: maximumEntries)
    guard let threshold = plan.thresholdPriority else { return (plan, plan) }
    // Identification is sent first, so it takes the threshold's quota first.
    let identificationQuota = min(
      plan.quotaAtThreshold, histograms[.identification]![threshold] ?? 0)
    return (
      CapPlan(
        thresholdPriority: threshold, quotaAtThreshold: identificationQuota, admittedCount: 0),
      CapPlan(
        thresholdPriority: threshold, quotaAtThreshold: plan.quotaAtThreshold - identificationQuota,
        admittedCount: 0)
    )
  }

  // MARK: Incremental

  /// Sends removals then additions so the system ends up holding exactly what a complete load of
  /// `new` would install.
  func sendDifference(
    old: [Manifest.Base], new: [Manifest.Base], into context: some CallDirectoryExtensionContext
  ) throws(LoaderError) -> Summary {
    let oldPlan = try capPlans(old, installed: true)
    let newPlan = try capPlans(new, installed: false)
    var removed = 0
    var added = 0
    for kind in [BaseKind.identification, .blocking] {
      let oldCap = kind == .identification ? oldPlan.identification : oldPlan.blocking
      let newCap = kind == .identification ? newPlan.identification : newPlan.blocking
      // Pass 1: removals (gone, or relabelled: removed here and added again in pass 2).
      try diff(old: old, new: new, kind: kind, oldCap: oldCap, newCap: newCap) { change in
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
      try diff(old: old, new: new, kind: kind, oldCap: oldCap, newCap: newCap) { change in
        if case .add(let entry) = change {
          if kind == .identification {
            context.addIdentificationEntry(
              withNextSequentialPhoneNumber: entry.number, label: entry.label)
          } else {
            context.addBlockingEntry(withNextSequentialPhoneNumber: entry.number)
          }
          added += 1
        }
      }
    }
    return Summary(phase: .incremental, basesRead: new.count, added: added, removed: removed)
  }

  enum Change {
    case remove(Int64)
    case add(BaseEntry)
  }

  /// Walks the old and new capped merges side by side, reporting each difference in order.
  private func diff(
    old: [Manifest.Base], new: [Manifest.Base], kind: BaseKind, oldCap: CapPlan, newCap: CapPlan,
    _ body: (Change) -> Void
  ) throws(LoaderError) {
    let oldList = try merged(old, kind: kind, installed: true)
    let newList = try merged(new, kind: kind, installed: false)
    var oldFilter = CapFilter(oldCap)
    var newFilter = CapFilter(newCap)
    do {
      func nextAdmitted(_ list: MergedList, _ filter: inout CapFilter) throws(BaseFormatError)
        -> BaseEntry?
      {
        while let (entry, priority) = try list.next() {
          if filter.admits(priority: priority) { return entry }
        }
        return nil
      }
      var oldEntry = try nextAdmitted(oldList, &oldFilter)
      var newEntry = try nextAdmitted(newList, &newFilter)
      while oldEntry != nil || newEntry != nil {
        if let gone = oldEntry, newEntry == nil || gone.number < newEntry!.number {
          body(.remove(gone.number))
          oldEntry = try nextAdmitted(oldList, &oldFilter)
        } else if let kept = newEntry, oldEntry == nil || kept.number < oldEntry!.number {
          body(.add(kept))
          newEntry = try nextAdmitted(newList, &newFilter)
        } else if let before = oldEntry, let after = newEntry {
          if before.label != after.label {
            body(.remove(before.number))
            body(.add(after))
          }
          oldEntry = try nextAdmitted(oldList, &oldFilter)
          newEntry = try nextAdmitted(newList, &newFilter)
        }
      }
    } catch {
      throw .format(base: kind.description, error)
    }
  }
}

/// Why the loader could not hand the system its entries.
public enum LoaderError: Error, CustomStringConvertible, Equatable {
  case manifest(ManifestError)
  case unreadable(base: String, path: String)
  case hashMismatch(base: String, expected: String, actual: String)
  /// An incremental request's old side is a file whose hash the manifest does not record.
  case installedHashUnrecorded(base: String)
  case kindMismatch(base: String, manifest: BaseKind, file: BaseKind)
  case format(base: String, BaseFormatError)

  public var description: String {
    switch self {
    case .manifest(let error): "\(error)"
    case .unreadable(let base, let path): "base \(base): cannot read \(path)"
    case .hashMismatch(let base, let expected, let actual):
      "base \(base): SHA-256 \(actual.prefix(12))… does not match the manifest's \(expected.prefix(12))…"
    case .installedHashUnrecorded(let base):
      "base \(base): no hash recorded for its installed file: only a complete reload can replace it"
    case .kindMismatch(let base, let manifest, let file):
      "base \(base): the manifest says \(manifest), the file holds \(file)"
    case .format(let base, let error): "base \(base): \(error)"
    }
  }
}
