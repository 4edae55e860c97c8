import ArgumentParser
import DirectoryCompiler
import Foundation
import PhoneNormalization

/// How a dump is read, normalized, deduplicated and sorted: the options `calldir compile` and
/// `calldir export lcidl --dump` share, so the two targets read one directory alike.
struct DumpReadingOptions: ParsableArguments {
  @Option(
    name: .customLong("block"),
    help: ArgumentHelp(
      "An input compiled whole as a blocking list, such as a spam dump: every number is blocked, labels are not needed (repeatable).",
      valueName: "file"), completion: .file(), transform: nonEmptyPath)
  var blockedInputs: [String] = []
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
    name: .long, help: "Category values that go to blocking lists (comma-separated; default: spam)."
  )
  var blockingCategory: String?
  @Option(name: .long, help: "Which duplicate survives: first, last or priority (highest rank).")
  var duplicates: DuplicatePolicy = .first
  @Option(
    name: .long, help: "Memory the sort may use before spilling to disk (all threads together).")
  var memory = ByteSize(bytes: 256 << 20)
  @Option(
    name: .long, parsing: .unconditional,
    help:
      "Threads that read one large plain TSV (or --quoting none CSV) at once (default: the cores online); the output is the same for any count.",
    transform: wholeNumber(in: OptionBounds.threads))
  var threads: Int?
  @Option(
    name: .long,
    help:
      "TSV/CSV quoting: rfc4180 or none (default: none for TSV, whose fields may hold quotes; rfc4180 for CSV)."
  )
  var quoting: Quoting?
  @Option(name: .long, help: "Lines longer than this are rejected, read in constant memory.")
  var maxLine = ByteSize(bytes: CompileOptions.defaultMaximumLineByteCount)
  @Option(
    name: .long,
    help:
      "Where the sort's runs go (a folder is made in it and removed after): a volume with room; default: the output folder.",
    completion: .directory, transform: nonEmptyPath)
  var temp: String?

  /// The optional reading flags that were given: a command that reads no dump refuses them,
  /// rather than ignoring what was asked.
  var givenFlags: [String] {
    let flags: [(Bool, String)] = [
      (format != nil, "--format"), (country != nil, "--country"),
      (countryColumn != nil, "--country-column"), (numberColumn != nil, "--number-column"),
      (labelColumn != nil, "--label-column"), (regionColumn != nil, "--region-column"),
      (rankColumn != nil, "--rank-column"), (categoryColumn != nil, "--category-column"),
      (regionsFile != nil, "--regions-file"), (blockingCategory != nil, "--blocking-category"),
      (threads != nil, "--threads"), (quoting != nil, "--quoting"), (temp != nil, "--temp"),
    ]
    return flags.filter(\.0).map(\.1)
  }

  /// The compile of `inputs` (each `FILE` or `FILE:CC`) and `--block` inputs into `output`, as
  /// these options read them.
  /// - Throws: `ValidationError` for an unreadable input, an unknown format, or a flag that
  ///   none of the inputs' formats reads.
  /// With `patterns` (pattern files are given: `compile --block-patterns`) no dump is needed.
  func compileOptions(inputs givenInputs: [String], output: String, patterns: Bool = false)
    throws -> CompileOptions
  {
    guard !givenInputs.isEmpty || !blockedInputs.isEmpty || patterns else {
      throw ValidationError("no input files")
    }
    var resolved: [(path: String, format: InputFormat)] = []
    var inputCountries: [String: String] = [:]
    let inputs = try givenInputs.map { try splitCountry($0, into: &inputCountries) }
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
    var options = CompileOptions(inputs: resolved, output: output)
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
    if let blockingCategory {
      // An empty category would match no row's, and spam rows would silently become labels.
      let categories = blockingCategory.split(separator: ",", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
      guard !categories.contains(where: \.isEmpty) else {
        throw ValidationError(
          "--blocking-category: an empty category in '\(blockingCategory)' (give values such as spam,scam)"
        )
      }
      options.blockingCategories = Set(categories)
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
    options.quoting = quoting
    guard maxLine.bytes >= 1024 else { throw ValidationError("--max-line must be at least 1KiB") }
    options.maximumLineByteCount = maxLine.bytes
    options.temporaryDirectory = temp
    return options
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
    // Without a dump (a compile of patterns alone) --country still reads the allow lists.
    for flag in flags where flag.given && !formats.isEmpty && formats.isDisjoint(with: flag.readBy)
    {
      throw ValidationError("\(flag.flag) does not apply to \(formatList) input (\(flag.why))")
    }
  }
}
