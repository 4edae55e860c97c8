import BaseFormat
import ByteCoding
import DirectoryContainer
import Foundation

// Safe (the `unsafe` uses in this file): a sort record's raw fields point into the merge's current
// buffer, valid until the next record is asked for, and each is copied (a String, a compare)
// before that; the `@exclusivity(unchecked)` fields are touched only by their object's own
// methods, on the one thread that owns the object, so no two accesses overlap.

extension Compiler {
  /// Merges the sorted records and writes one base per region and per blocking category, then
  /// the seed set, into `outputScratch`: a folder on the container's own volume, since each base
  /// is renamed into `bases/` (`--temp` on another volume failed with EXDEV after all the work;
  /// issue 52, item 10). The seed candidates go to `scratch`, with the runs.
  /// - Throws: ``CompileError`` (a rank seed without ranks is a usage error), or a writer's
  ///   error.
  func writeBases(
    _ sorters: [ExternalSorter], sawRank: Bool, scratch: String, outputScratch: String,
    report: inout CompileReport
  ) throws -> WrittenBases {
    // Deduplicate, write region and blocking bases, choose the seed set.
    var writers: [String: OutputBase] = [:]
    let seedChoice: SeedChoice =
      options.seedBy == .auto ? (sawRank ? .rank : .spread) : options.seedBy
    if seedChoice == .rank && !sawRank && options.seedSize > 0 {
      throw CompileError.usage(
        "--seed-by rank: the inputs have no rank column (--rank-column), so the seed set would be empty; use --seed-by spread or --seed-size 0"
      )
    }
    var seed = TopRanked(capacity: seedChoice == .rank ? options.seedSize : 0)
    let seedCandidates =
      seedChoice == .rank && options.seedSize > 0
      ? try SeedCandidates(path: scratch + "/seed-candidates.bin") : nil
    var identificationEntries = 0
    // Records come sorted by number, so a region's (or a category's) records are mostly
    // contiguous: the last output is reused without hashing its name (String hashing showed in
    // profiles).
    // The current output is held unretained (`writers` keeps every one alive): retaining it,
    // its writer and the last names for each record was a tenth of the writing thread (perf).
    var lastRegion: [UInt8] = []
    var lastCategory: [UInt8] = []
    // Safe: `writers` holds every output for the whole merge, so an unretained one never outlives
    // its object.
    var lastOutput: Unmanaged<OutputBase>?
    // The chosen identification entries' tags, in number order as the records come.
    let tags = try options.tagsFile.map { path throws(CompileError) in
      do throws(ContainerError) {
        return try EntryTagFile.Writer(path: path)
      } catch {
        throw CompileError.write(error.description)
      }
    }
    try forEachChosen(sorters, report: &report) { record in
      let output: Unmanaged<OutputBase>
      if let current = unsafe lastOutput, unsafe ByteView(record.region).equals(lastRegion),
        unsafe ByteView(record.category).equals(lastCategory)
      {
        unsafe output = unsafe current
      } else {
        let region = unsafe String(decoding: record.region, as: UTF8.self)
        let category = unsafe String(decoding: record.category, as: UTF8.self)
        let key =
          category.isEmpty
          ? "region-" + FileSafeName.encode(region)
          : "blocking-" + FileSafeName.encode(category)
        if let existing = writers[key] {
          unsafe output = unsafe Unmanaged.passUnretained(existing)
        } else {
          let kind: BaseKind = category.isEmpty ? .identification : .blocking
          // Written in the scratch folder, moved into bases/ under its hash once finished.
          let file = outputScratch + "/" + key + ".cdb"
          let made = OutputBase(
            writer: try baseWriter(file, kind), file: file, kind: kind,
            role: kind == .identification ? .region : .blocking,
            region: kind == .identification ? region : nil)
          writers[key] = made
          unsafe output = unsafe Unmanaged.passUnretained(made)
        }
        lastRegion = unsafe Array(record.region)
        lastCategory = unsafe Array(record.category)
        unsafe lastOutput = unsafe output
      }
      unsafe try output._withUnsafeGuaranteedRef { output in
        if output.kind == .identification {
          if seed.consider(number: record.number, rank: record.rank) {
            unsafe try seedCandidates?.add(record.number, label: ByteView(record.label))
          }
          identificationEntries += 1
          if record.tag != 0, let tags {
            do throws(ContainerError) {
              try tags.append(record.number, tag: record.tag)
            } catch {
              throw CompileError.write(error.description)
            }
          }
        }
        unsafe try output.writer.append(record.number, checkedLabelBytes: ByteView(record.label))
        output.count += 1
      }
    }
    do throws(ContainerError) {
      try tags?.finish()
    } catch {
      throw CompileError.write(error.description)
    }
    let seedFile = try writeSeed(
      sorters, candidates: seedCandidates, ranked: seed, choice: seedChoice,
      identificationEntries: identificationEntries, scratch: outputScratch, report: &report)
    // The writing phase: the seed set (written now), then each base finished at the commit.
    let seedFiles = seedFile == nil ? 0 : 1
    progress(CompileProgress(phase: .writing, done: seedFiles, total: writers.count + seedFiles))
    report.seedChoice = seedChoice
    return WrittenBases(outputs: writers, seedFile: seedFile)
  }

  /// The base writer every base of a compile uses. Each base chooses its dictionary from its
  /// own entries (labels on first use), so a base's bytes depend on its entries alone: a
  /// change in one region rewrites one base, and a release's other bases keep their names and
  /// hashes.
  func baseWriter(_ path: String, _ kind: BaseKind) throws -> BaseWriter {
    try BaseWriter(
      path: path, kind: kind, compact: options.compact, dictionaryChoice: .firstLabels)
  }

  /// Writes the seed set: the chosen entries whose rank is in the top N (`ranked`, their
  /// labels in `candidates`), or every k-th identification entry; nil when it is empty.
  private func writeSeed(
    _ sorters: [ExternalSorter], candidates seedCandidates: SeedCandidates?, ranked seed: TopRanked,
    choice seedChoice: SeedChoice, identificationEntries: Int, scratch: String,
    report: inout CompileReport
  ) throws -> String? {
    let spreadStride = max(1, identificationEntries / max(1, options.seedSize))
    guard
      seed.count > 0
        || (seedChoice == .spread && options.seedSize > 0 && identificationEntries > 0)
    else { return nil }
    do {
      let file = scratch + "/seed.cdb"
      let seedWriter = try baseWriter(file, .identification)
      if let seedCandidates {
        let chosen = seed.numbers()
        try seedCandidates.forEachCandidate { number, label in
          guard chosen.contains(number) else { return }
          try seedWriter.append(number, checkedLabelBytes: label)
          report.seedEntries += 1
        }
      } else {
        var ignored = CompileReport()
        var index = 0
        try forEachChosen(sorters, report: &ignored) { record in
          guard unsafe record.category.isEmpty else { return }
          defer { index += 1 }
          if index % spreadStride == 0 && report.seedEntries < options.seedSize {
            unsafe try seedWriter.append(record.number, checkedLabelBytes: ByteView(record.label))
            report.seedEntries += 1
          }
        }
      }
      try seedWriter.finish()
      return file
    }
  }
}
