import ArgumentParser
import BenchHarness
import DirectoryCompiler
import Foundation
import PhoneNormalization
import ProcessMetrics

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
    name: .customLong("block"),
    help: ArgumentHelp(
      "An input compiled whole as a blocking list, such as a spam dump: every number is blocked, labels are not needed (repeatable).",
      valueName: "file"), completion: .file(), transform: nonEmptyPath)
  var blockedInputs: [String] = []
  @Option(
    name: .long, help: "The container folder to write.", completion: .directory,
    transform: nonEmptyPath) var out: String
  @Option(
    name: .long, help: "tsv, csv, jsonl, chinese, russian or base (default: from the file name).")
  var format: InputFormat?
  @Option(
    name: .long,
    help:
      "The country national numbers belong to, unless an input (FILE:CC) or a row names its own: any ISO code libphonenumber knows (default: RU)."
  )
  var country: String?
  @Option(
    name: .long,
    help:
      "How much of a number is checked: possible (its region's lengths) or valid (a number type's pattern: stricter, refuses ranges the metadata does not know yet)."
  )
  var validate: PhoneNormalizer.Validation = .possible
  @Option(name: .long, help: "The country column (ISO code per row; default: a 'country' column).")
  var countryColumn: String?
  @Option(name: .long, help: "The number column (header name or 1-based index).") var numberColumn:
    String?
  @Option(name: .long, help: "The label column.") var labelColumn: String?
  @Option(name: .long, help: "The region column.") var regionColumn: String?
  @Option(name: .long, help: "The rank (priority) column.") var rankColumn: String?
  @Option(name: .long, help: "The category column.") var categoryColumn: String?
  @Option(
    name: .long, help: "PREFIX<TAB>REGION lines for inputs without a region column.",
    transform: nonEmptyPath)
  var regionsFile: String?
  @Option(
    name: .long,
    help:
      "How the seed set is chosen: auto (rank when the inputs have a rank column, else spread), rank (top by rank), spread (every k-th entry)."
  )
  var seedBy: SeedChoice = .auto
  @Option(name: .long, help: "Entries in the seed set (0 for none).") var seedSize: Int =
    CompileOptions.defaultSeedSize
  @Option(
    name: .long, help: "Category values that go to blocking lists (comma-separated; default: spam)."
  )
  var blockingCategory: String?
  @Option(name: .long, help: "Which duplicate survives: first, last or priority (highest rank).")
  var duplicates: DuplicatePolicy = .first
  @Option(
    name: .long, help: "Memory the sort may use before spilling to disk (all threads together).")
  var memory = ByteSize(bytes: 256 << 20)
  @Option(
    name: .long,
    help:
      "Threads that read one large plain TSV (or --quoting none CSV) at once (default: the cores online); the output is the same for any count."
  )
  var threads: Int?
  @Option(
    name: .long,
    help:
      "The data version each base gets in the manifest (a number the app compares), not the file format: compile writes format 3 (compact), or 1 with --fixed-width."
  )
  var baseVersion: Int = 1
  @Flag(name: .long, help: "Fail (exit 4) if any line is rejected.") var strict = false
  @Flag(
    name: .long,
    help:
      "Publish even when the container would be left with no entries or lose more than half of them (else exit 5, nothing written)."
  )
  var allowShrink = false
  @Option(
    name: .long,
    help:
      "TSV/CSV quoting: rfc4180 or none (default: none for TSV, whose fields may hold quotes; rfc4180 for CSV)."
  )
  var quoting: Quoting?
  @Option(name: .long, help: "Lines longer than this are rejected, read in constant memory.")
  var maxLine = ByteSize(bytes: CompileOptions.defaultMaximumLineByteCount)
  @Flag(
    name: .long,
    help: "Write fixed-width records instead of compact ones (deltas and a label dictionary).")
  var fixedWidth = false
  @Flag(
    name: .long, help: "Also report the size gzip -9 gives the inputs (one more pass; not timed).")
  var compareGzip = false
  @Option(
    name: .long,
    help:
      "Where the sort's runs go (a folder is made in it and removed after): a volume with room; default: the output folder.",
    completion: .directory, transform: nonEmptyPath)
  var temp: String?
  @OptionGroup var progressOptions: ProgressOptions

  func run() throws {
    guard !inputs.isEmpty || !blockedInputs.isEmpty else { throw ValidationError("no input files") }
    var resolved: [(path: String, format: InputFormat)] = []
    var inputCountries: [String: String] = [:]
    let inputs = try self.inputs.map { try splitCountry($0, into: &inputCountries) }
    let blockedInputs = try self.blockedInputs.map { try splitCountry($0, into: &inputCountries) }
    for input in inputs + blockedInputs {
      guard FileManager.default.isReadableFile(atPath: input) else {
        throw ValidationError("cannot read \(input): no such file or not readable")
      }
      let chosen: InputFormat
      if let format {
        chosen = format
      } else {
        guard let guessed = InputFormat.guess(path: input) else {
          throw ValidationError("cannot tell the format of \(input) from its name; pass --format")
        }
        chosen = guessed
      }
      resolved.append((input, chosen))
    }
    if let twice = blockedInputs.first(where: inputs.contains) {
      throw ValidationError("\(twice) is given both as an input and with --block: give it once")
    }
    try checkFlagsApply(to: Set(resolved.map(\.format)))
    var options = CompileOptions(inputs: resolved, output: out)
    options.blockingInputs = Set(blockedInputs)
    if let country { options.country = country }
    options.inputCountries = inputCountries
    options.validation = validate
    if let countryColumn { options.columns.country = countryColumn }
    if let numberColumn { options.columns.number = numberColumn }
    if let labelColumn { options.columns.label = labelColumn }
    if let regionColumn { options.columns.region = regionColumn }
    if let rankColumn { options.columns.rank = rankColumn }
    if let categoryColumn { options.columns.category = categoryColumn }
    options.regionsFile = regionsFile
    guard seedSize >= 0 else { throw ValidationError("--seed-size must be 0 or more") }
    options.seedSize = seedSize
    options.seedBy = seedBy
    if let blockingCategory {
      options.blockingCategories = Set(blockingCategory.split(separator: ",").map(String.init))
    }
    options.duplicates = duplicates
    options.memoryBudget = memory.bytes
    if let threads {
      guard (1...256).contains(threads) else {
        throw ValidationError("--threads must be from 1 to 256, got \(threads)")
      }
      options.threads = threads
    }
    guard options.memoryBudget >= 1 << 20 else {
      throw ValidationError("--memory must be at least 1MiB")
    }
    options.version = baseVersion
    options.strict = strict
    options.allowShrink = allowShrink
    options.quoting = quoting
    guard maxLine.bytes >= 1024 else { throw ValidationError("--max-line must be at least 1KiB") }
    options.maximumLineByteCount = maxLine.bytes
    options.compact = !fixedWidth
    options.compareGzip = compareGzip
    options.temporaryDirectory = temp

    let compiler = Compiler(options: options)
    let display = progressOptions.display(command: "compile")
    // Reading is measured in the bytes this process has read (all of it input, in that phase),
    // against the inputs' size: the share a person wants, without the readers counting bytes.
    let readAtStart = ProcessIO.bytesRead()
    compiler.progress = { report in
      switch report.phase {
      case .reading:
        if let start = readAtStart, let now = ProcessIO.bytesRead() {
          display.update(phase: "reading", done: now - start, total: report.total, unit: "bytes")
        } else {
          display.update(phase: "reading", done: report.done, total: nil, unit: "rows")
        }
      case .merging:
        display.update(phase: "merging", done: report.done, total: report.total, unit: "records")
      case .hashing:
        display.update(phase: "hashing", done: report.done, total: report.total, unit: "bases")
      }
    }
    let report: CompileReport
    do {
      report = try compiler.run()
    } catch CompileError.shrink(let message) {
      // Stopped before any base entered the container: it is as it was.
      display.finish()
      FileHandle.standardError.write(Data("calldir: \(message)\n".utf8))
      throw ExitStatus.shrinkRefused.exitCode
    } catch let error as CompileError {
      throw ValidationError(error.description)
    } catch let rejection as StrictRejection {
      // The compiler stopped before writing: the container is as it was.
      display.finish()
      print(rejection.report.renderReading(), terminator: "")
      FileHandle.standardError.write(Data("calldir: \(rejection.description)\n".utf8))
      throw ExitStatus.strictRejected.exitCode
    }
    display.finish()
    print(report.render(), terminator: "")
  }

  /// `FILE:CC` → `FILE`, remembering CC for it; a path that exists as given is never split (a
  /// file may have a colon in its name).
  private func splitCountry(_ input: String, into countries: inout [String: String]) throws
    -> String
  {
    guard !FileManager.default.fileExists(atPath: input), let colon = input.lastIndex(of: ":")
    else { return input }
    let path = String(input[..<colon])
    let country = String(input[input.index(after: colon)...])
    do {
      _ = try PhoneNormalizer(country: country)
    } catch {
      throw ValidationError("\(input): \(error)")
    }
    countries[path] = country
    return path
  }

  /// A flag that only some formats read, given for inputs none of which reads it, is a usage
  /// error: silently ignoring it would compile something other than what was asked.
  private func checkFlagsApply(to formats: Set<InputFormat>) throws {
    let formatList = formats.map(\.rawValue).sorted().joined(separator: ", ")
    let columnar: Set<InputFormat> = [.tsv, .csv, .jsonl]
    let flags: [(given: Bool, flag: String, readBy: Set<InputFormat>, why: String)] = [
      (numberColumn != nil, "--number-column", columnar, "only tsv, csv and jsonl have columns"),
      (labelColumn != nil, "--label-column", columnar, "only tsv, csv and jsonl have columns"),
      (regionColumn != nil, "--region-column", columnar, "only tsv, csv and jsonl have columns"),
      (rankColumn != nil, "--rank-column", columnar, "only tsv, csv and jsonl have columns"),
      (
        categoryColumn != nil, "--category-column", columnar, "only tsv, csv and jsonl have columns"
      ),
      (countryColumn != nil, "--country-column", columnar, "only tsv, csv and jsonl have columns"),
      (
        blockingCategory != nil, "--blocking-category", columnar,
        "only tsv, csv and jsonl have a category; --block FILE blocks a whole input"
      ),
      (quoting != nil, "--quoting", [.tsv, .csv], "only tsv and csv are quoted"),
      (
        country != nil, "--country", [.tsv, .csv, .jsonl],
        "chinese and russian files hold numbers with their country code, bases hold CallKit numbers"
      ),
    ]
    for flag in flags where flag.given && formats.isDisjoint(with: flag.readBy) {
      throw ValidationError("\(flag.flag) does not apply to \(formatList) input (\(flag.why))")
    }
  }
}
