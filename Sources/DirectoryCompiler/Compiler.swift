import BaseFormat
import ByteCoding
import DirectoryContainer
import Foundation
import PhoneNormalization
import ProcessMetrics
import SystemCalls

/// `calldir compile`: directory dumps → normalized, sorted, deduplicated entries → one base per
/// region, a seed set, blocking lists, and the manifest, in bounded memory.
public final class Compiler {
  public let options: CompileOptions
  /// Receives progress now and then, on the compiling thread: each phase when it starts, then
  /// every 100,000 rows or records, and each base hashed. A listener rate-limits its drawing.
  public var progress: (CompileProgress) -> Void = { _ in }
  /// Called once the bases are written, just before the container's writers' lock is taken to
  /// adopt them (a command says there that it waits, if another writer holds the lock).
  public var beforeAdopting: () -> Void = {}

  public init(options: CompileOptions) { self.options = options }

  /// Runs the compile: reads the inputs into sort runs, writes the bases and the seed set
  /// from their merge, and commits them to the container as one manifest.
  /// - Throws: ``CompileError`` for unreadable inputs or unwritable outputs; rejected lines are
  ///   counted in the report; with `strict`, any rejected line throws ``StrictRejection``
  ///   before anything is written.
  public func run() throws -> CompileReport {
    // The machine's monotonic clock, the one the host and the bench read.
    let started = MonotonicTime.nanoseconds()
    LargeAllocations.returnToTheSystem()
    var report = CompileReport()
    var normalizers = NormalizerCache(validation: options.validation)
    for country in [options.country] + options.inputCountries.values {
      do {
        _ = try normalizers.normalizer(country)
      } catch {
        throw CompileError.usage(error.description)
      }
    }
    let prefixes = try loadRegionPrefixes()
    let fileManager = FileManager.default
    // A compile that fails or is refused into a folder it made leaves no folder behind (runs
    // last: after the transaction's lock and the scratch folder are gone).
    let outputWasThere = fileManager.fileExists(atPath: options.output)
    var committed = false
    defer {
      if !committed && !outputWasThere { Self.removeIfUnused(options.output) }
    }
    // The lock is taken only to adopt the bases (below): reading and sorting, which can take
    // as long as a FIFO streams, never keep an app's choose or update waiting (issue 52,
    // item 13). The container's folder is made now, for the scratch folder inside it.
    do {
      try ContainerFolder.create(options.output)
    } catch {
      throw CompileError.write(error.description)
    }
    let scratchParent = options.temporaryDirectory ?? options.output
    let scratch = scratchParent + "/.compile-\(getpid())"
    TemporarySpace.removeAbandoned(in: scratchParent)
    try TemporarySpace.check(inputs: options.inputs.map(\.path), folder: scratchParent)
    try? fileManager.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? fileManager.removeItem(atPath: scratch) }
    // The bases are written beside the container, whatever --temp says: they are renamed in.
    let outputScratch = options.output + "/.compile-\(getpid())"
    if outputScratch != scratch {
      TemporarySpace.removeAbandoned(in: options.output)
      try? fileManager.createDirectory(atPath: outputScratch, withIntermediateDirectories: true)
    }
    defer { if outputScratch != scratch { try? fileManager.removeItem(atPath: outputScratch) } }
    report.temporaryFolder = scratchParent
    // Half the budget for the sort's records; the rest covers writers, buffers and the runtime.
    let sorter = ExternalSorter(budget: options.memoryBudget / 2, directory: scratch)
    defer { sorter.removeRuns() }

    let input = try readInputs(
      into: sorter, scratch: scratch, normalizers: normalizers, prefixes: prefixes,
      report: &report)
    // Before the first base is written: a refused run leaves the container as it was.
    if options.strict && report.rejectedCount > 0 {
      report.seconds = Double(MonotonicTime.nanoseconds() &- started) / 1e9
      throw StrictRejection(report: report)
    }
    report.temporaryBytes = TemporarySpace.bytes(in: scratch)
    var written = try writeBases(
      input.sorters, sawRank: input.sawRank, scratch: scratch, outputScratch: outputScratch,
      report: &report)
    written.rules = try writeRuleBases(outputScratch: outputScratch, report: &report)

    // Held from here to the end of the run, after the scratch folder is gone (defers run last
    // to first): other writers of this container wait; readers never do.
    beforeAdopting()
    let transaction: ContainerTransaction
    do {
      transaction = try ContainerTransaction(container: options.output)
    } catch {
      throw CompileError.write(error.description)
    }
    defer { withExtendedLifetime(transaction) {} }
    // Before any base enters the container: a refused run leaves it byte for byte as it was.
    let newEntries =
      written.outputs.values.reduce(0) { $0 + $1.count }
      + written.rules.reduce(0) { $0 + $1.written.numbers }
    if let current = transaction.current, !options.allowShrink {
      try ShrinkGuard.check(current: current, newEntries: newEntries, report: report)
    }
    // A new container with nothing in it is no container: every row rejected (or none read)
    // wrote an empty one, and exited 0.
    if transaction.current == nil && newEntries == 0 {
      throw CompileError.usage(
        "nothing to write: \(report.linesRead) lines read, \(report.accepted) accepted, \(report.rejectedCount) rejected; \(options.output) was not created"
      )
    }
    let manifest = try commit(written, to: transaction, report: &report)
    committed = true
    for base in manifest.bases where base.state != .retired {
      report.outputs.append((base.file, base.byteCount ?? 0))
    }
    report.seconds = Double(MonotonicTime.nanoseconds() &- started) / 1e9
    if options.compareGzip {
      report.inputGzipBytes = options.inputs.reduce(0) { $0 + (GzipSize.of(path: $1.path) ?? 0) }
    }
    report.peakRSSBytes = MemoryStatusReader.current()?.peakResidentBytes ?? 0
    return report
  }

  /// Removes the container folder a failed compile made, unless another writer has used it
  /// meanwhile: the compile holds the lock only to adopt, so an app may have staged into the
  /// new folder while it read. Only the lock file and an empty bases folder count as unused.
  static func removeIfUnused(_ folder: String) {
    let fileManager = FileManager.default
    let contents = (try? fileManager.contentsOfDirectory(atPath: folder)) ?? []
    let unused = contents.allSatisfy { name in
      name == ContainerTransaction.lockFileName
        || (name == ContainerTransaction.basesFolder
          && ((try? fileManager.contentsOfDirectory(atPath: folder + "/" + name)) ?? []).isEmpty)
    }
    if unused { try? fileManager.removeItem(atPath: folder) }
  }

  /// Each finished base's file with what the manifest says of it, and the seed set's file.
  struct WrittenBases {
    var outputs: [String: OutputBase]
    var seedFile: String?
    /// The rule bases (patterns), finished.
    var rules: [RuleOutput] = []
  }

  /// Finishes the bases, hashes them on every core, and commits them as the container's new
  /// manifest (the app's state kept).
  private func commit(
    _ written: WrittenBases, to transaction: ContainerTransaction, report: inout CompileReport
  ) throws -> Manifest {
    let writers = written.outputs
    let seedFile = written.seedFile
    var manifest = Manifest()
    let ordered = writers.sorted(by: { $0.key < $1.key })
    let rules = written.rules
    let fileCount = ordered.count + rules.count + (seedFile == nil ? 0 : 1)
    // The seed set and the rule bases are finished already: the writing phase's first files.
    var finished = fileCount - ordered.count
    for (_, entry) in ordered {
      try entry.writer.finish()
      finished += 1
      progress(CompileProgress(phase: .writing, done: finished, total: fileCount))
    }
    progress(CompileProgress(phase: .hashing, done: 0, total: fileCount))
    defer { progress(CompileProgress(phase: .hashing, done: fileCount, total: fileCount)) }
    let digests = ParallelDigests.hexDigests(
      ofFiles: ordered.map(\.value.file) + rules.map(\.file) + (seedFile.map { [$0] } ?? []),
      threads: options.threads)
    for (place, (name, entry)) in ordered.enumerated() {
      if entry.role == .region {
        report.entriesPerRegion[entry.region ?? name] = entry.count
      } else {
        report.blockingEntries[name] = entry.count
      }
      manifest.bases.append(
        try manifestBase(
          name: name, role: entry.role, kind: entry.kind, region: entry.region,
          adopting: entry.file, sha256: digests[place], entries: entry.count, into: transaction))
    }
    for (place, rule) in rules.enumerated() {
      let identifying = rule.kind == .identification
      manifest.bases.append(
        try manifestBase(
          name: rule.name, role: identifying ? .region : .blocking, kind: rule.kind,
          region: identifying ? Self.rulesRegion : nil, adopting: rule.file,
          sha256: digests[ordered.count + place], entries: rule.written.numbers,
          into: transaction))
    }
    if let seedFile {
      manifest.bases.append(
        try manifestBase(
          name: "seed", role: .seed, kind: .identification, region: nil, adopting: seedFile,
          sha256: digests[ordered.count + rules.count], entries: report.seedEntries,
          into: transaction))
    }
    manifest.chosenRegions = manifest.bases.compactMap(\.region)
    if let current = transaction.current { manifest.keepAppState(of: current) }
    do {
      try transaction.commit(manifest)
    } catch {
      throw CompileError.write(error.description)
    }
    return manifest
  }

  /// Moves a finished base into the container's `bases/` under its hash and describes it.
  private func manifestBase(
    name: String, role: Manifest.Role, kind: BaseKind, region: String?, adopting path: String,
    sha256: String?, entries: Int, into transaction: ContainerTransaction
  ) throws -> Manifest.Base {
    let adopted: ContainerTransaction.AdoptedFile
    do {
      adopted = try transaction.adopt(path, name: name, sha256: sha256)
    } catch {
      throw CompileError.write(error.description)
    }
    let priority =
      switch role {
      case .seed: CompileOptions.seedPriority
      case .blocking: CompileOptions.blockingPriority
      case .region: CompileOptions.regionPriority
      }
    return Manifest.Base(
      name: name, role: role, kind: kind, region: region, priority: priority,
      version: options.version, entries: entries, sha256: adopted.sha256, state: .ready,
      file: adopted.file, byteCount: adopted.byteCount)
  }

  /// Merges the sorted records and calls `body` with the one kept per number, per the policy
  /// (``DuplicateDropper``); with `options.threads` over one, the merge runs on a thread of its
  /// own beside `body` (``ChosenRecordPipeline``), in the same order.
  func forEachChosen(
    _ sorters: [ExternalSorter], report: inout CompileReport,
    _ body: (SortRecordView) throws -> Void
  ) throws {
    self.progress(CompileProgress(phase: .sorting, done: 0, total: sorters.count))
    let merged = try ExternalSorter.merged(sorters)
    self.progress(CompileProgress(phase: .sorting, done: sorters.count, total: sorters.count))
    report.mergePasses = merged.passes
    // Every 100,000 records a progress report: `accepted` is the phase's whole (the records
    // chosen are fewer by the duplicates dropped).
    let progress = self.progress
    let total = report.accepted
    var chosen = 0
    progress(CompileProgress(phase: .merging, done: 0, total: total))
    try withoutActuallyEscaping(body) { body in
      let counted: (SortRecordView) throws -> Void = { record in
        try body(record)
        chosen += 1
        if chosen % 100_000 == 0 {
          progress(CompileProgress(phase: .merging, done: chosen, total: total))
        }
      }
      try mergeChosen(merged, into: &report, counted)
      // The phase's end: every record merged (the chosen are fewer by the duplicates).
      progress(CompileProgress(phase: .merging, done: total, total: total))
    }
  }

  /// The merge's records, duplicates dropped per the policy, to `body`: on a thread of its own
  /// beside `body` with `options.threads` over one.
  private func mergeChosen(
    _ merged: MergedRuns, into report: inout CompileReport,
    _ counted: (SortRecordView) throws -> Void
  ) throws {
    if options.threads > 1 {
      report.duplicatesDropped += try ChosenRecordPipeline.run(
        merged, policy: options.duplicates, body: counted)
      return
    }
    var dropper = DuplicateDropper(policy: options.duplicates)
    var batch: [UInt8] = []
    batch.reserveCapacity(ChosenRecordPipeline.batchByteCount + 1024)
    while try merged.next({ record in
      try dropper.add(record, to: &batch, threshold: ChosenRecordPipeline.batchByteCount) {
        full in
        try DuplicateDropper.forEachRecord(in: full, counted)
        full.removeAll(keepingCapacity: true)
      }
    }) {}
    try DuplicateDropper.forEachRecord(in: batch, counted)
    report.duplicatesDropped += dropper.dropped
  }

  /// The region of numbers no region column or `--regions-file` rule assigns.
  static let unassignedRegion = "all"

  /// The category, and so the base (`blocking-blocking`), of numbers read from a blocking base
  /// or from an input compiled whole as a blocking list without a category of its own.
  static let blockingBaseCategory = "blocking"

  /// The largest `--regions-file` read, in bytes: a prefix per line, so 16 MiB is over a
  /// million prefixes; the cap keeps a link to /dev/zero from taking the memory.
  static let maximumRegionsFileByteCount = 16 << 20

  private func loadRegionPrefixes() throws -> RegionPrefixes {
    guard let path = options.regionsFile else { return RegionPrefixes(rules: [:]) }
    let text: String
    do {
      text = try readSmallTextFile(path, maximumByteCount: Self.maximumRegionsFileByteCount)
    } catch {
      throw CompileError.usage(error.description)
    }
    var rules: [String: String] = [:]
    for (index, line) in text.split(separator: "\n").enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      let fields = trimmed.split(separator: "\t")
      guard fields.count == 2, fields[0].allSatisfy(\.isNumber) else {
        throw CompileError.usage(
          "\(path):\(index + 1): expected PREFIX<TAB>REGION with a digits-only prefix")
      }
      rules[String(fields[0])] = String(fields[1])
    }
    return RegionPrefixes(rules: rules)
  }
}

/// Longest-prefix region rules over CallKit digits.
struct RegionPrefixes {
  let rules: [String: String]
  private let longest: Int

  init(rules: [String: String]) {
    self.rules = rules
    longest = rules.keys.map(\.count).max() ?? 0
  }

  func region(for number: Int64) -> String? {
    guard longest > 0 else { return nil }
    let digits = String(number)
    for length in stride(from: min(longest, digits.count), through: 1, by: -1) {
      if let region = rules[String(digits.prefix(length))] { return region }
    }
    return nil
  }
}

/// One base being written by the compiler.
final class OutputBase {
  let writer: BaseWriter
  let file: String
  let kind: BaseKind
  let role: Manifest.Role
  let region: String?
  var count = 0

  init(writer: BaseWriter, file: String, kind: BaseKind, role: Manifest.Role, region: String?) {
    self.writer = writer
    self.file = file
    self.kind = kind
    self.role = role
    self.region = region
  }
}
