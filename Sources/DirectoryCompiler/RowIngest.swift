import BaseFormat
import ByteCoding
import PhoneNormalization

// Safe (the `unsafe` uses in this file): the `@exclusivity(unchecked)` fields are touched only by
// their object's own methods, on the one thread that owns the object, so no two accesses overlap
// (each ingest is one thread's).

/// The compiler's work on each row of one input (or of one part of a split input): normalize the
/// number, check the label, pick the region and list, and add the record to a sorter. One per
/// thread: its normalizer caches, counters and rejections are its own, merged in input order
/// once every part is read (``merge(into:name:lineOffset:)``), so a compile on several threads
/// reports what it would on one.
@safe final class RowIngest {
  let sorter: ExternalSorter
  // Safe: touched only by this class's own methods on its one thread, never overlapping: the
  // dynamic exclusivity checks on each row's access were 3% of a compile (perf).
  @exclusivity(unchecked) private(set) var normalizers: NormalizerCache
  /// Rows handed over (accepted or rejected after reading) and accepted.
  @exclusivity(unchecked) private(set) var linesRead = 0
  @exclusivity(unchecked) private(set) var accepted = 0
  @exclusivity(unchecked) private(set) var sawRank = false
  /// Each reason's count and the first lines it was found on (numbered within this part).
  private var rejections: [RejectionReason: (count: Int, lines: [Int])] = [:]
  /// This input's (or part's) records sort after every earlier one's among equal numbers: their
  /// sequence is its ordinal above bit 40, then the row's place in it.
  @exclusivity(unchecked) private var sequenceBase: UInt64 = 0
  @exclusivity(unchecked) private var sequence: UInt64 = 0
  /// Rows one input or part may hold: 2^40, a thousand billion.
  static let ordinalShift: UInt64 = 40
  private let blockingCategories: ByteStringTable
  /// Category values an identification entry keeps as a tag (``CompileOptions/entryTags``).
  private let entryTags: ByteStringTable
  private let prefixes: RegionPrefixes
  /// Called every 100,000 accepted rows with this part's count.
  var onProgress: ((Int) -> Void)?

  init(
    sorter: ExternalSorter, normalizers: NormalizerCache, blockingCategories: ByteStringTable,
    entryTags: ByteStringTable, prefixes: RegionPrefixes
  ) {
    self.sorter = sorter
    unsafe self.normalizers = normalizers
    self.blockingCategories = blockingCategories
    self.entryTags = entryTags
    self.prefixes = prefixes
  }

  /// Starts an input (or a part of one), the `ordinal`-th of the compile.
  func start(ordinal: UInt64) {
    unsafe sequenceBase = ordinal << Self.ordinalShift
    unsafe sequence = 0
  }

  /// A line rejected while reading (before it became a row), on `line` of this part.
  func rejectRead(_ reason: RejectionReason, line: Int) {
    unsafe linesRead += 1
    reject(reason, line: line)
  }

  private func reject(_ reason: RejectionReason, line: Int) {
    var entry = rejections[reason] ?? (0, [])
    entry.count += 1
    if entry.lines.count < CompileReport.placesPerReason { entry.lines.append(line) }
    rejections[reason] = entry
  }

  // Safe: an ingest is used by its part's one thread; the unretained normalizer is kept alive by
  // `fileNormalizerBox`, set in the same assignment.
  /// The file being read: the country of its numbers written without one, and whether the
  /// whole input is a blocking list.
  @exclusivity(unchecked) var fileDefaults: (country: String, blocksAll: Bool) = ("", false) {
    didSet { unsafe fileNormalizer = nil }
  }
  /// The normalizer of ``fileDefaults``' country once it is known, held in a box read
  /// unretained per row: a normalizer copied out of the cache per row retained and released its
  /// tables and rules (callgrind). `fileNormalizerBox` keeps it alive.
  @exclusivity(unchecked) private var fileNormalizer: Unmanaged<NormalizerBox>?
  @exclusivity(unchecked) private var fileNormalizerBox: NormalizerBox?

  /// One row of a file read with ``fileDefaults``.
  func ingest(_ row: RowFields) throws {
    unsafe linesRead += 1
    let number: Int64
    let blocksAll = unsafe fileDefaults.blocksAll
    do throws(NormalizationError) {
      if let country = row.country {
        number = unsafe try normalizers.normalizer(String(decoding: country, as: UTF8.self))
          .normalize(utf8: row.number)
      } else {
        if unsafe fileNormalizer == nil {
          let box = unsafe NormalizerBox(try normalizers.normalizer(fileDefaults.country))
          unsafe (fileNormalizerBox, fileNormalizer) = unsafe (box, .passUnretained(box))
        }
        // Safe: `fileNormalizerBox` holds the box for as long as `fileNormalizer` points at it.
        let read = unsafe fileNormalizer.unsafelyUnwrapped._withUnsafeGuaranteedRef { box in
          Result { () throws(NormalizationError) in try box.normalizer.normalize(utf8: row.number) }
        }
        number = try read.get()
      }
    } catch {
      reject(.number(error.reason), line: row.line)
      return
    }
    let blocking =
      blocksAll || row.fromBlockingBase
      || row.category.map { blockingCategories.find($0) != nil } == true
    let label = UTF8Validation.trimmingWhitespace(row.label)
    if !blocking {
      guard !label.isEmpty else {
        reject(.emptyLabel, line: row.line)
        return
      }
      guard label.count <= BaseHeader.maximumLabelByteCount else {
        reject(.labelTooLong, line: row.line)
        return
      }
      // Lines are UTF-8 checked as they are read; the rest of the label rule here.
      guard LabelRule.controlCharacterOffset(label) == nil else {
        reject(.labelControlCharacter, line: row.line)
        return
      }
      guard InvisibleCharacters.offset(in: label) == nil else {
        reject(.labelInvisibleCharacter, line: row.line)
        return
      }
    }
    if let region = row.region,
      LabelRule.controlCharacterOffset(region) != nil
        || InvisibleCharacters.offset(in: region) != nil
    {
      reject(.regionUnreadable, line: row.line)
      return
    }
    if row.rank != nil { unsafe sawRank = true }
    // A blocking entry has no label; its category names its list.
    let category: ByteView? = blocking ? (row.fromBlockingBase ? nil : row.category) : .empty
    // An identification entry's own category (not a blocking list's) may be kept as its tag.
    let tag =
      blocking ? 0 : row.category.flatMap { entryTags.find($0) }.map { UInt8(entryTags[$0]) } ?? 0
    func add(region: ByteView, category: ByteView) throws {
      unsafe try sorter.add(
        number: number, rank: row.rank ?? 0, sequence: sequenceBase + sequence,
        label: blocking ? .empty : label, region: region, category: category, tag: tag)
    }
    func add(region: ByteView) throws {
      if let category {
        try add(region: region, category: category)
      } else {
        var name = Compiler.blockingBaseCategory
        try name.withUTF8 { unsafe try add(region: region, category: ByteView($0)) }
      }
    }
    if let region = row.region {
      try add(region: region)
    } else {
      var name = prefixes.region(for: number) ?? Compiler.unassignedRegion
      try name.withUTF8 { unsafe try add(region: ByteView($0)) }
    }
    unsafe sequence += 1
    unsafe accepted += 1
    if unsafe accepted % 100_000 == 0 { unsafe onProgress?(accepted) }
  }

  /// Adds this part's counts and rejections to `report`, its lines numbered from `lineOffset`
  /// in the file `name`; then starts counting afresh (the same ingest reads the next file).
  func merge(into report: inout CompileReport, name: String, lineOffset: Int) {
    unsafe report.linesRead += linesRead
    unsafe report.accepted += accepted
    for reason in rejections.keys.sorted(by: { "\($0)" < "\($1)" }) {
      let (count, lines) = rejections[reason]!
      var entry = report.rejected[reason] ?? (0, [])
      entry.count += count
      for line in lines where entry.places.count < CompileReport.placesPerReason {
        entry.places.append("\(name):\(line + lineOffset)")
      }
      report.rejected[reason] = entry
    }
    unsafe linesRead = 0
    unsafe accepted = 0
    rejections = [:]
  }
}

/// A normalizer in a class of its own, so a row reads it in place (a `let` of a class is
/// borrowed, a struct copied out of a cache is retained).
final class NormalizerBox {
  let normalizer: PhoneNormalizer
  init(_ normalizer: PhoneNormalizer) { self.normalizer = normalizer }
}
