import BaseFormat
import CallDirectoryCore
import DirectoryContainer

extension DirectoryLoader {
  /// The most numbers a user edit may change for the request to send it from point lookups;
  /// past it (a prefix of a million numbers added), the general difference walks the lists.
  static let pointEditLimit = 10_000

  /// The user's lists in the container's copy `name` (empty lists when it is missing).
  /// - Throws: ``LoaderError/userLists(_:)`` when the copy cannot be read.
  func userLists(_ name: String) throws(LoaderError) -> UserLists {
    do {
      return try UserListsFile.read(container: container, name: name)
    } catch {
      throw .userLists(error.description)
    }
  }

  /// Sends a change of the user's lists alone, and nothing else, when that is all the request
  /// has to send: the system holds the current files' whole set, and no chunk is asked for.
  /// Each changed number is looked up in the directory (``DirectoryLookup``, a block read per
  /// base), so one number blocked in a container of 16 M numbers sends that one entry and reads
  /// a few blocks, whatever the directory's size. A resume is not sent so (it brings back every
  /// blocking entry: the app makes a complete request), nor a change of more than
  /// ``pointEditLimit`` numbers.
  /// - Returns: nil when the request must be sent another way.
  func sendUserEditOnly(
    _ newSet: [Manifest.Base], _ manifest: Manifest,
    into context: some CallDirectoryExtensionContext
  ) throws(LoaderError) -> Summary? {
    let progress = manifest.installProgress
    guard oldLayer != newLayer, !(oldLayer.paused && !newLayer.paused),
      let installed = progress.installedEntries, let total = progress.totalEntries,
      installed >= total, (progress.targetEntries ?? installed) <= installed,
      Self.holdsTheSameFiles(old: manifest.bases, new: newSet),
      let changes = Self.changedNumbers(old: oldLayer, new: newLayer, limit: Self.pointEditLimit)
    else { return nil }
    let lookup = try DirectoryLookup(container: container, bases: newSet, userLists: nil)
    var added = 0
    var removed = 0
    // Identification: removals, then additions, as any difference sends them.
    var labelled: [(number: Int64, label: String)] = []
    for number in changes.identification {
      let directoryLabel = try lookup.lookup(number).label
      let before = oldLayer.label(of: number) ?? directoryLabel
      let after = newLayer.label(of: number) ?? directoryLabel
      guard before != after else { continue }
      if before != nil {
        context.removeIdentificationEntry(withPhoneNumber: number)
        removed += 1
      }
      if let after { labelled.append((number, after)) }
    }
    for (number, label) in labelled {
      context.addIdentificationEntry(withNextSequentialPhoneNumber: number, label: label)
      added += 1
    }
    if newLayer.paused && !oldLayer.paused {
      // iOS's own way to drop every blocking entry at once: one call, whatever the count.
      context.removeAllBlockingEntries()
      removed += 1
    } else if !newLayer.paused {
      var blocked: [Int64] = []
      for number in changes.blocking {
        let directoryBlocks = try lookup.lookup(number).isBlocked
        let before = (directoryBlocks || oldLayer.blocks(number)) && !oldLayer.allows(number)
        let after = (directoryBlocks || newLayer.blocks(number)) && !newLayer.allows(number)
        if before && !after {
          context.removeBlockingEntry(withPhoneNumber: number)
          removed += 1
        } else if after && !before {
          blocked.append(number)
        }
      }
      for number in blocked {
        context.addBlockingEntry(withNextSequentialPhoneNumber: number)
        added += 1
      }
    }
    return Summary(
      phase: .incremental, basesRead: newSet.count, added: added, removed: removed,
      installedEntries: installed, totalEntries: total)
  }

  /// The numbers whose user entries differ between two layers, ascending, per list: blocking
  /// (blocked or allowed, one side only) and identification (labels); nil when there are more
  /// than `limit` of them.
  static func changedNumbers(old: UserLayer, new: UserLayer, limit: Int) -> (
    blocking: [Int64], identification: [Int64]
  )? {
    var blocking: [Int64] = []
    for range in exclusiveRanges(old.blocked, new.blocked) {
      guard blocking.count + Int(range.upperBound - range.lowerBound) < limit else { return nil }
      blocking.append(contentsOf: range)
    }
    blocking.append(contentsOf: symmetricDifference(old.allowed, new.allowed))
    guard blocking.count <= limit else { return nil }
    blocking.sort()
    var identification: [Int64] = []
    var (i, j) = (0, 0)
    while i < old.labels.count || j < new.labels.count {
      let left = i < old.labels.count ? old.labels[i] : nil
      let right = j < new.labels.count ? new.labels[j] : nil
      if let left, right == nil || left.number < right!.number {
        identification.append(left.number)
        i += 1
      } else if let right, left == nil || right.number < left!.number {
        identification.append(right.number)
        j += 1
      } else {
        if left!.text != right!.text { identification.append(left!.number) }
        i += 1
        j += 1
      }
      guard identification.count <= limit else { return nil }
    }
    return (Array(Set(blocking)).sorted(), identification)
  }

  /// The numbers in exactly one of two lists of ascending disjoint ranges, as ranges.
  static func exclusiveRanges(_ a: [ClosedRange<Int64>], _ b: [ClosedRange<Int64>])
    -> [ClosedRange<Int64>]
  {
    guard a != b else { return [] }
    // Between consecutive boundaries, membership in each list is constant.
    var bounds = Set<Int64>()
    for range in a + b {
      bounds.insert(range.lowerBound)
      bounds.insert(range.upperBound &+ 1)
    }
    let sorted = bounds.sorted()
    func holds(_ list: [ClosedRange<Int64>], _ number: Int64) -> Bool {
      let index = UserLists.firstIndex(in: list.count) { list[$0].upperBound >= number }
      return index < list.count && list[index].lowerBound <= number
    }
    var exclusive: [ClosedRange<Int64>] = []
    for (start, end) in zip(sorted, sorted.dropFirst()) where holds(a, start) != holds(b, start) {
      exclusive.append(start...(end - 1))
    }
    return exclusive
  }

  static func symmetricDifference(_ a: [Int64], _ b: [Int64]) -> [Int64] {
    Array(Set(a).symmetricDifference(Set(b))).sorted()
  }

  /// Streams one kind of the directory's capped merge with the user's layer over it; returns
  /// the entries sent and the directory's entries the cap admitted.
  func streamLayered(
    _ bases: [Manifest.Base], kind: BaseKind, plan: CapPlan,
    _ body: (Int64, String) -> Void
  ) throws(LoaderError) -> (sent: Int, admitted: Int) {
    var runs = LayeredRuns(
      try merged(bases, kind: kind, installed: false), filter: CapFilter(plan), kind: kind,
      layer: newLayer)
    var sent = 0
    do {
      while let run = try runs.next() {
        var number = run.first
        while true {
          body(number, run.label)
          sent += 1
          if number == run.last { break }
          number += 1
        }
      }
    } catch {
      throw .format(base: kind.description, error)
    }
    return (sent, runs.directoryAdmitted)
  }
}
