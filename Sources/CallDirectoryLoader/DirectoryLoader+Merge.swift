import BaseFormat
import DirectoryContainer

extension DirectoryLoader {
  /// The windows of all readers open at once share this many bytes, so merging 300 bases maps
  /// about as much as merging a few.
  static let mappedBytesPerMerge = 1024 * 1024
  /// The readers open at once in one merge share this many bytes of label strings made once
  /// (each reader's dictionary cache its share), so the footprint does not grow with the number
  /// of bases: a cache is private memory, unlike a window. One reader alone gets all of it.
  static let labelCacheBytesPerMerge = MappedBaseReader.defaultLabelCacheByteBudget
  /// A reader whose share would be smaller keeps none: a few dozen labels save little, and
  /// hundreds of small caches whose strings outlive the per-entry ones fragment the heap (108
  /// regions' incremental update measured 0.2 MiB more footprint with 1.2 KiB shares).
  static let minimumLabelCacheShare = 8 * 1024

  /// One base of a merge, known from its header before it is opened whole.
  private struct Member {
    /// Its index in the bases given to ``merged(_:kind:installed:labels:)``.
    let index: Int
    let header: BaseHeader
  }

  /// A merged stream over the bases of one kind.
  ///
  /// Every base's header is read and checked against the manifest first (so a foreign, missing
  /// or mislabelled base fails before anything is sent, naming it); each base is then opened
  /// whole only when the merge reaches its lowest number and released when it ends. The
  /// readers open at once share one mapping and one label-cache budget, split by how many
  /// bases' number ranges overlap at most (2 or 3 for regions, which are contiguous ranges), so
  /// the footprint stays flat however many bases there are.
  /// - Parameter labelCacheBytes: the label-cache budget of this merge's open readers; an
  ///   incremental request's old and new merges run at once and take half each.
  func merged(
    _ bases: [Manifest.Base], kind: BaseKind, installed: Bool, labels: Bool = true,
    labelCacheBytes: Int = DirectoryLoader.labelCacheBytesPerMerge
  ) throws(LoaderError) -> MergedList {
    // No filtered copy of the bases and no array grown by doubling: every pass over 300
    // regions opens a merge, and the allocator keeps freed blocks of 1-32 KiB in its thread
    // cache, where a 20 KiB copy per pass showed in an incremental update's footprint.
    var members: [Member] = []
    members.reserveCapacity(bases.reduce(0) { $1.kind == kind ? $0 + 1 : $0 })
    for (index, base) in bases.enumerated() where base.kind == kind {
      let header = try checkedHeader(base, installed: installed)
      // One extension's part of a set split by number range: a base whose numbers all lie
      // outside it (a region of another part) adds nothing, and merging it would read it
      // through to the range's start. Its SHA-256 is still checked with the others.
      if let numberRange, !header.mayHold(numbersIn: numberRange) { continue }
      if header.entryCount == 0 { continue }
      members.append(Member(index: index, header: header))
    }
    let atOnce = Self.mostOverlapping(members.lazy.map(\.header))
    let window = Self.mappedBytesPerMerge / max(1, atOnce)
    // Numbers-only passes make no labels; the readers open at once share one budget.
    let share = labelCacheBytes / max(1, atOnce)
    let labelCache = labels && share >= Self.minimumLabelCacheShare ? share : 0
    let list = MergedList(
      pending: members.map { ($0.header.lowestNumber, bases[$0.index].priority) }
    ) { [self] member throws(BaseFormatError) in
      let base = bases[members[member].index]
      let file = path(installed ? (base.installedFile ?? base.file) : base.file)
      if members[member].header.isRules {
        // Ranges expanded a number at a time: constant memory, whatever they hold.
        let reader = try RuleBaseReader(path: file)
        guard reader.header == members[member].header else {
          throw BaseFormatError(
            path: file, offset: 0, problem: .inconsistentHeader("the base changed while merging"))
        }
        reader.skipsLabels = !labels
        return reader
      }
      let reader = try MappedBaseReader(
        path: file, windowByteCount: window, labelCacheByteBudget: labelCache)
      // The merge was ordered by the header read first: a file replaced since would break it.
      guard reader.header == members[member].header else {
        throw BaseFormatError(
          path: file, offset: 0, problem: .inconsistentHeader("the base changed while merging"))
      }
      reader.skipsLabels = !labels
      return reader
    }
    list.range = numberRange
    list.holdsRanges = members.contains { $0.header.isRules }
    return list
  }

  /// The header of a base of the manifest, read alone and checked against the manifest.
  /// - Throws: ``LoaderError`` naming the base: missing, foreign or corrupt, of the wrong
  ///   kind, or (for the current file) not holding the manifest's count.
  private func checkedHeader(_ base: Manifest.Base, installed: Bool) throws(LoaderError)
    -> BaseHeader
  {
    let file = installed ? (base.installedFile ?? base.file) : base.file
    let header: BaseHeader
    do {
      header = try BaseHeader.read(path: path(file))
    } catch {
      throw .format(base: base.name, error)
    }
    guard header.kind == base.kind else {
      throw .kindMismatch(base: base.name, manifest: base.kind, file: header.kind)
    }
    // The manifest's count is the current file's (an installed older version has its own).
    if file == base.file, header.entryCount != base.entries {
      throw .countMismatch(
        base: base.name, field: "entries", manifest: base.entries, file: header.entryCount)
    }
    return header
  }

  /// The most number ranges (`lowestNumber...highestNumber`) that overlap at one number: how
  /// many readers a lazy merge holds open at once, at most.
  static func mostOverlapping(_ headers: some Collection<BaseHeader>) -> Int {
    let starts = headers.map(\.lowestNumber).sorted()
    let ends = headers.map(\.highestNumber).sorted()
    var (open, most, endIndex) = (0, 0, 0)
    for start in starts {
      // Ranges are closed: one that ends at this start still overlaps it.
      while ends[endIndex] < start {
        open -= 1
        endIndex += 1
      }
      open += 1
      most = max(most, open)
    }
    return most
  }
}
