import ByteCoding
import Foundation

// Safe (the `unsafe` uses in this file): the `@exclusivity(unchecked)` fields are touched only by
// their object's own methods, on the one thread that owns the object, so no two accesses overlap
// (each ingest is one thread's, read here after its thread was joined).

extension Compiler {
  /// What reading the inputs left: one sorter per thread that read (the first is `sorter`), and
  /// whether any row had a rank.
  struct ReadInputs {
    var sorters: [ExternalSorter]
    var sawRank: Bool
  }

  /// Reads every input into sort runs: a large plain input in parts on several threads
  /// (``InputSplit``), each with its own sorter, anything else whole into `sorter`. Rows are
  /// counted and rejected into `report` as one thread reading in order would.
  /// - Throws: ``CompileError`` for an unreadable input or an unwritable run.
  func readInputs(
    into sorter: ExternalSorter, scratch: String, normalizers: NormalizerCache,
    prefixes: RegionPrefixes, report: inout CompileReport
  ) throws -> ReadInputs {
    let fileManager = FileManager.default
    let blockingCategories = ByteStringTable()
    for category in options.blockingCategories {
      blockingCategories.insert(utf8: category, value: 0)
    }
    let entryTags = ByteStringTable()
    for (value, tag) in options.entryTags where tag != 0 {
      entryTags.insert(utf8: value, value: Int(tag))
    }
    // The row loop reads these, not `self`: capturing `self` copied the options (strings,
    // sets) for every row.
    let progress = self.progress
    let main = RowIngest(
      sorter: sorter, normalizers: normalizers, blockingCategories: blockingCategories,
      entryTags: entryTags, prefixes: prefixes)
    // Each file, and each part of a split one, is a new ordinal: its records sort after every
    // earlier one's among equal numbers, as one thread reading in order would put them.
    var ordinal: UInt64 = 0
    var sorters = [sorter]
    var sawRank = false
    // The phase's whole: every input's bytes, known before the first is read.
    let totalBytes = options.inputs.reduce(0) {
      $0 + ((try? fileManager.attributesOfItem(atPath: $1.path)[.size] as? Int) ?? 0)
    }
    progress(CompileProgress(phase: .reading, done: 0, total: totalBytes))
    for (path, format) in options.inputs {
      let name = (path as NSString).lastPathComponent
      report.inputBytes += (try? fileManager.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
      var columns = options.columns
      columns.blockingList = options.blockingInputs.contains(path)
      let read = InputRead(
        path: path, format: format, columns: columns, options: options,
        country: options.inputCountries[path] ?? options.country)
      let ranges =
        InputSplit.ranges(
          path: path, format: format, quoting: options.quoting, parts: options.threads,
          minimumByteCount: options.minimumSplitByteCount) ?? []
      if ranges.count > 1, let header = try? read.headerColumns(ranges[0]) {
        // One ingest per part, the budget shared among their sorters.
        let share = options.memoryBudget / 2 / ranges.count
        sorter.budget = share
        var ingests = [main]
        for index in 1..<ranges.count {
          let partSorter = ExternalSorter(
            budget: share, directory: scratch, runPrefix: "part\(ordinal + UInt64(index))-")
          sorters.append(partSorter)
          ingests.append(
            RowIngest(
              sorter: partSorter, normalizers: normalizers.forAnotherThread(),
              blockingCategories: blockingCategories, entryTags: entryTags, prefixes: prefixes))
        }
        let accepted = report.accepted
        main.onProgress = {
          progress(
            CompileProgress(phase: .reading, done: accepted + $0 * ranges.count, total: totalBytes))
        }
        let lineCounts = try read.parallel(
          ranges, columns: header, ingests: ingests, firstOrdinal: ordinal)
        ordinal += UInt64(ranges.count)
        var offset = 0
        for (ingest, lines) in zip(ingests, lineCounts) {
          ingest.merge(into: &report, name: name, lineOffset: offset)
          offset += lines
          sawRank = unsafe sawRank || ingest.sawRank
        }
      } else {
        main.start(ordinal: ordinal)
        ordinal += 1
        let accepted = report.accepted
        main.onProgress = {
          progress(CompileProgress(phase: .reading, done: accepted + $0, total: totalBytes))
        }
        try read.whole(into: main)
        main.merge(into: &report, name: name, lineOffset: 0)
        sawRank = unsafe sawRank || main.sawRank
      }
    }
    sorter.budget = options.memoryBudget / 2
    report.sortRuns = sorters.reduce(0) { $0 + $1.runPaths.count }
    return ReadInputs(sorters: sorters, sawRank: sawRank)
  }
}
