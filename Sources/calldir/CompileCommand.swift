import ArgumentParser
import BenchMeasuring
import CallDirectoryCore
import DirectoryCompiler
import Foundation
import PhoneNormalization
import ProcessMetrics
import SystemCalls

struct CompileCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compile",
    abstract: "Compile directory dumps into bases, a seed set, blocking lists and a manifest.",
    discussion: """
      Reads TSV (no quoting: a quote is a character) and CSV (RFC 4180; a quote inside an unquoted \
      field is a character), columns by header name or 1-based index, JSON lines, the Chinese \
      article's file, the Russian guide's lines and calldir bases, plain or gzip, with or without \
      a UTF-8 BOM. Numbers are normalized by libphonenumber's rules for --country, an input's own \
      country (FILE:CC) or a row's (a country column); rows are sorted and deduplicated in \
      bounded memory (--memory), split by region (a region column or --regions-file prefixes), \
      and written to --out as an App Group container: bases/, manifest.cdm.
      Number patterns (--block-patterns, --identify-patterns) compile into rule bases of \
      sorted, disjoint ranges (rules-blocking, rules-identification), which the extension \
      expands as it loads: France's twelve telemarketing prefixes, 12 M numbers, are a \
      rule base of under 1 KiB. Each pattern is checked against its country's plan; where \
      patterns overlap, each number is given once, by the higher priority, then the earlier \
      line; --allow cuts numbers out of every pattern (not out of the dumps).
      Exit statuses: 0 done (rejected lines are reported); 1 usage, input or output error (the \
      container is left as it was); 4 --strict \
      and at least one line was rejected (nothing is written then); 5 the compile would leave a \
      live container with no entries or under half of them (nothing is written; --allow-shrink).
      """)

  @Argument(
    help: ArgumentHelp(
      "Input files; FILE:CC reads the file's national numbers as country CC's (ISO code).",
      valueName: "file"), completion: .file(), transform: nonEmptyPath)
  var inputs: [String] = []
  @Option(
    name: .long, help: "The container folder to write.", completion: .directory,
    transform: nonEmptyPath) var out: String
  @OptionGroup(title: "Reading the dump") var reading: DumpReadingOptions
  @OptionGroup(title: "Number patterns") var patterns: PatternOptions
  @Option(
    name: .long,
    help:
      "How the seed set is chosen: auto (rank when the inputs have a rank column, else spread), rank (top by rank), spread (every k-th entry)."
  )
  var seedBy: SeedChoice = .auto
  /// At most one load: the seed set is what enabling installs in one request.
  @Option(
    name: .long, parsing: .unconditional,
    help: "Entries in the seed set (0 for none; at most one load, 1999999).",
    transform: wholeNumber(in: 0...SystemLimits.maximumEntriesPerLoad))
  var seedSize: Int = CompileOptions.defaultSeedSize
  @Option(
    name: .long, parsing: .unconditional,
    help:
      "The data version each base gets in the manifest (a number the app compares), not the file format: compile writes format 3 (compact), or 1 with --fixed-width.",
    transform: wholeNumber(in: OptionBounds.count))
  var baseVersion: Int = 1
  @Flag(name: .long, help: "Fail (exit 4) if any line is rejected.") var strict = false
  @Flag(
    name: .long,
    help:
      "Publish even when the container would be left with no entries or lose more than half of them (else exit 5, nothing written)."
  )
  var allowShrink = false
  @Flag(
    name: .long,
    help: "Write fixed-width records instead of compact ones (deltas and a label dictionary).")
  var fixedWidth = false
  @Flag(
    name: .long, help: "Also report the size gzip -9 gives the inputs (one more pass; not timed).")
  var compareGzip = false
  @OptionGroup var progressOptions: ProgressOptions

  func run() throws {
    Interruption.watch([out] + (reading.temp.map { [$0] } ?? []))
    var options = try reading.compileOptions(
      inputs: inputs, output: out,
      patterns: !patterns.blockPatterns.isEmpty || !patterns.identifyPatterns.isEmpty)
    guard seedSize >= 0 else { throw ValidationError("--seed-size must be 0 or more") }
    options.seedSize = seedSize
    options.seedBy = seedBy
    options.version = baseVersion
    options.strict = strict
    options.allowShrink = allowShrink
    options.compact = !fixedWidth
    options.compareGzip = compareGzip
    patterns.apply(to: &options)

    let compiler = Compiler(options: options)
    // The lock is taken only to adopt the bases: a wait there is said after a second.
    compiler.beforeAdopting = { LockWaitNotice.waitIfBusy(out) }
    let display = progressOptions.display(command: "compile")
    Self.show(progressOf: compiler, on: display)
    let report: CompileReport
    do {
      report = try display.finishing { try compiler.run() }
    } catch CompileError.shrink(let message) {
      // Stopped before any base entered the container: it is as it was.
      StandardError.write("calldir: \(message)\n")
      throw ExitStatus.shrinkRefused.exitCode
    } catch let error as CompileError {
      throw ValidationError(error.description)
    } catch let rejection as StrictRejection {
      // The compiler stopped before writing: the container is as it was.
      print(rejection.report.renderReading(), terminator: "")
      StandardError.write("calldir: \(rejection.description)\n")
      throw ExitStatus.strictRejected.exitCode
    }
    print(report.render(), terminator: "")
  }

  /// Shows a compile's phases on `display`. Reading is measured in the bytes this process has
  /// read (all of it input, in that phase), against the inputs' size: the share a person wants,
  /// without the readers counting bytes.
  static func show(progressOf compiler: Compiler, on display: ProgressDisplay) {
    let readAtStart = ProcessIO.bytesRead()
    compiler.progress = { report in
      switch report.phase {
      case .reading:
        if let start = readAtStart, let now = ProcessIO.bytesRead() {
          display.update(phase: "reading", done: now - start, total: report.total, unit: "bytes")
        } else {
          display.update(phase: "reading", done: report.done, total: nil, unit: "rows")
        }
      case .sorting:
        display.update(phase: "sorting", done: report.done, total: report.total, unit: "parts")
      case .merging:
        display.update(phase: "merging", done: report.done, total: report.total, unit: "records")
      case .writing:
        display.update(phase: "writing", done: report.done, total: report.total, unit: "files")
      case .hashing:
        display.update(phase: "hashing", done: report.done, total: report.total, unit: "bases")
      }
    }
  }
}
