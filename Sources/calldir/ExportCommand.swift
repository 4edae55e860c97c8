import ArgumentParser
import DirectoryCompiler
import Foundation
import LiveLookupExport
import ProcessMetrics
import SystemCalls

/// `calldir export`: the compiled directory in other targets' formats.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export a compiled container for other targets (Live Caller ID Lookup).",
    discussion: """
      Exit statuses: 0 done; 1 usage, input or output error (the folder's files are left as \
      they were).
      """,
    subcommands: [ExportLiveLookupCommand.self])
}

/// `calldir export lcidl`: Live Caller ID Lookup's two keyword databases from a container.
struct ExportLiveLookupCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lcidl",
    abstract: "Export a container as Live Caller ID Lookup's block and identity datasets.",
    discussion: """
      Reads the container's seed set, every region and every blocking list (as an install of \
      it merges them: each number once, the highest-priority label) and writes, into --out: \
      block.binpb and identity.binpb (serialized KeywordDatabase messages, keywords in E.164 \
      with the plus sign, ascending: the same container gives the same bytes), \
      block-config.json and identity-config.json (PIRProcessDatabase's configurations: shards, \
      the sharding function, the bucket size the largest value needs and a fixed cuckoo bucket \
      count sized as the processor sizes it, each checked against what the processor refuses \
      before anything is replaced), and usecases.json (the service's \
      use cases, BUNDLE.block and BUNDLE.identity), last. A block value is 1 for a number of \
      a blocking list, else 0; an identity is the label, --category and \
      --cache-expiry-minutes, with the icon from --icons when there is one. Memory stays flat \
      in the number of entries. --dump FILE (repeatable, FILE:CC as compile reads it) exports \
      a dump instead, read as calldir compile reads it (its reading options below: the same \
      normalization, duplicates and blocking categories), through a container compiled in a \
      temporary folder and removed after. A dump's category column also gives each identity \
      its own category: rows whose category is one of --person-category are people, one of \
      --business-category businesses; --category is the rest's.
      --service-url and --issuer-url are checked against the rules iOS and macOS 26.4 apply \
      outside Xcode installs: HTTPS on the standard port, a subdomain rather than a path, no \
      trailing '/', and a domain name for the DNS TXT record onboarding asks for.
      Each dataset's request, response and evaluation-key sizes are printed, computed from its \
      configuration as Apple's PIR code sizes them, and with --devices and --lookups-per-day \
      the requests a day and at peak per continent: the figures Apple's onboarding checklist \
      asks for.
      An icon that is not HEIC, is over \(Self.iconLimit) bytes or cannot \
      be read fails the export, unless --skip-bad-icons is given.
      Exit statuses: 0 done (icons skipped with --skip-bad-icons, icon files ignored because \
      their name is not +E164.heic or no identity has their number, and numbers without an \
      E.164 form are named on stderr); 1 usage, input or output error, or a refused icon \
      without --skip-bad-icons (the folder's files are left as they were).
      """)

  @Option(
    name: .long, help: "The compiled container (calldir compile --out).", completion: .directory,
    transform: nonEmptyPath)
  var container: String?
  @Option(
    name: .customLong("dump"),
    help: ArgumentHelp(
      "A dump to export instead of a container, read as calldir compile reads it; FILE:CC for its national numbers' country (repeatable).",
      valueName: "file"), completion: .file(), transform: nonEmptyPath)
  var dumps: [String] = []
  @Option(
    name: .long, help: "The folder to write.", completion: .directory, transform: nonEmptyPath)
  var out: String
  @Option(
    name: .long,
    help: "The Live Caller ID Lookup extension's bundle identifier (names the use cases).")
  var bundleID: String
  @Option(
    name: .long,
    help: "The identities' category: business or person (with --dump, those without their own).")
  var category: IdentityCategoryArgument = .business
  @Option(
    name: .long,
    help: "With --dump: category values whose rows are people (comma-separated).")
  var personCategory = "person"
  @Option(
    name: .long,
    help: "With --dump: category values whose rows are businesses (comma-separated).")
  var businessCategory = "business"
  @Option(
    name: .long,
    help: "How long a device may keep an answer, in minutes (0: the system's default).")
  var cacheExpiryMinutes: UInt32 = 0
  @Option(
    name: .long,
    help: "A folder of +E164.heic icons, each at most \(Self.iconLimit) bytes.",
    completion: .directory, transform: nonEmptyPath)
  var icons: String?
  @Flag(
    name: .long,
    help:
      "Export without the icons that are refused (not HEIC, too large, unreadable), each named on stderr, rather than fail."
  )
  var skipBadIcons = false
  @Flag(
    name: .long,
    help:
      "Also write each dataset one processor input per shard, as the service's sha256 sharding assigns keywords, each with a configuration sizing its buckets by its own values, in OUT/sharded."
  )
  var preSharded = false
  @Flag(
    name: .long,
    help: "Leave out Apple's onboarding test identity (+14085551212 Johnny Appleseed).")
  var noTestIdentity = false
  @Option(
    name: .long, parsing: .unconditional,
    help:
      "The most entries the export takes (a row each; pattern ranges expand to a row per number).",
    transform: wholeNumber(in: 1...OptionBounds.entries.upperBound))
  var maxRows: Int = LiveLookupExporter.defaultMaximumRows
  @Option(
    name: .long,
    help: ArgumentHelp(
      "How a number picks its shard in each dataset: auto (sha256 wherever double-mod would assign the same shards, which it does while one shard count divides the other, as calldir writes them), double-mod (Apple's prescription for a number looked up in two datasets; iOS 18.2 and macOS 15.2 or later) or sha256 (every device).",
      valueName: "function"))
  var sharding: ShardingArgument = .automatic
  @Option(
    name: .long,
    help:
      "The service URL the extension's context will name: checked against iOS 26.4's rules (HTTPS, port 443, no path, no trailing '/') before anything is written."
  )
  var serviceURL: String?
  @Option(
    name: .long, help: "The Privacy Pass token issuer URL: checked as --service-url is.")
  var issuerURL: String?
  @OptionGroup(title: "Figures for Apple's onboarding checklist") var figures: ServiceFigureOptions
  @OptionGroup var progressOptions: ProgressOptions
  @OptionGroup(title: "Reading a dump (--dump)") var reading: DumpReadingOptions

  func validate() throws {
    for (flag, url) in [("--service-url", serviceURL), ("--issuer-url", issuerURL)] {
      guard let url else { continue }
      let broken = ServiceURLRules.violations(of: url)
      guard broken.isEmpty else {
        throw ValidationError(
          "\(flag) '\(url)': \(broken.map(\.description).joined(separator: "; ")) (iOS and macOS 26.4 refuse it outside Xcode installs; Apple's pir-service-example, Onboarding.md)"
        )
      }
    }
    let readsDump = !dumps.isEmpty || !reading.blockedInputs.isEmpty
    guard (container != nil) != readsDump else {
      throw ValidationError(
        container == nil
          ? "give --container DIR or --dump FILE" : "give --container or --dump, not both")
    }
    if container != nil, let flag = reading.givenFlags.first {
      throw ValidationError("\(flag) reads a dump: it applies with --dump, not --container")
    }
    let people = Set(Self.values(personCategory))
    if let both = Self.values(businessCategory).first(where: people.contains) {
      throw ValidationError(
        "'\(both)' is in both --person-category and --business-category: give it once")
    }
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
    guard !bundleID.isEmpty, bundleID.allSatisfy(allowed.contains), !bundleID.hasPrefix("."),
      !bundleID.hasSuffix(".")
    else {
      throw ValidationError(
        "--bundle-id '\(bundleID)' is not a bundle identifier (letters, digits, dots and dashes)")
    }
  }

  func run() throws {
    Interruption.watch([out])
    var options = LiveLookupExporter.Options(bundleID: bundleID)
    options.category = category.value
    options.cacheExpiryMinutes = cacheExpiryMinutes
    options.iconsFolder = icons
    options.includesTestIdentity = !noTestIdentity
    options.maximumRows = maxRows
    options.sharding = sharding.value
    options.skipsBadIcons = skipBadIcons
    options.preSharded = preSharded
    let clock = ContinuousClock()
    let start = clock.now
    let display = progressOptions.display(command: "export")
    let source: String
    var work: String?
    if let container {
      source = container
    } else {
      (source, work) = try compileDump(display: display)
      options.tagsFile = work.map { $0 + "/" + Self.tagsFileName }
    }
    defer { if let work { try? FileManager.default.removeItem(atPath: work) } }
    var exporter = LiveLookupExporter(container: source, options: options)
    exporter.progress = { done, total in
      display.update(phase: "writing", done: done, total: total, unit: "numbers")
    }
    let report = try display.finishing { try exporter.export(to: out) }
    let seconds = (clock.now - start) / .seconds(1)
    for line in report.refusedIcons + report.refusedIdentities {
      StandardError.write("calldir: refused \(line)\n")
    }
    for line in report.ignoredIcons.prefix(Self.ignoredIconLines) {
      StandardError.write("calldir: ignored icon \(line)\n")
    }
    if report.ignoredIcons.count > Self.ignoredIconLines {
      StandardError.write(
        "calldir: ignored \(report.ignoredIcons.count - Self.ignoredIconLines) more icon files\n")
    }
    if report.numbersWithoutE164 > 0 {
      StandardError.write(
        "calldir: \(report.numbersWithoutE164) numbers have more than 15 digits (no E.164 form): left out\n"
      )
    }
    if !dumps.isEmpty || !reading.blockedInputs.isEmpty {
      print(
        "identities: \(report.people) people, \(report.identityRows - report.people) businesses")
    }
    print(
      "wrote \(out): \(report.blockRows) block rows (\(report.blocked) blocked, \(ByteCount.format(report.blockBytes))), \(report.identityRows) identities (\(report.icons) with an icon, \(ByteCount.format(report.identityBytes)))"
    )
    for config in report.configs {
      let function: String
      let other = report.configs.first { $0.stem != config.stem }?.shardCount ?? 0
      switch config.shardingFunction {
      case .doubleMod(let other):
        function =
          ProcessingConfig.assignsAsSHA256(config.shardingFunction, shardCount: config.shardCount)
          ? "doubleMod \(other), the shards sha256 assigns; devices before iOS 18.2 and macOS 15.2 are refused it"
          : "doubleMod \(other); devices before iOS 18.2 and macOS 15.2 are refused it"
      case .sha256 where other > config.shardCount && sharding == .automatic:
        function = "sha256, the shards doubleMod \(other) would assign, on every device"
      case .sha256: function = "sha256"
      }
      print(
        "\(config.stem)-config.json: \(config.shardCount) shard\(config.shardCount == 1 ? "" : "s") (\(function)), \(config.bucketCount) buckets of \(config.bucketByteCount) bytes"
      )
    }
    for line in Self.preShardedLines(report.preShardedShards) { print(line) }
    for line in figures.lines(configs: report.configs, preSharded: report.preShardedShards) {
      print(line)
    }
    for line in report.parameterChanges { StandardError.write("calldir: note: \(line)\n") }
    for (name, url) in [("service URL", serviceURL), ("issuer URL", issuerURL)] {
      if let url { print("\(name) \(url): ok (iOS 26.4's rules)") }
    }
    print(
      String(
        format:
          "refused: %d icons, %d identities, %d numbers; ignored %d icon files; %.2f s, peak RSS %@",
        report.refusedIcons.count, report.refusedIdentities.count, report.numbersWithoutE164,
        report.ignoredIcons.count,
        seconds, ByteCount.format(MemoryStatusReader.current()?.peakResidentBytes ?? 0)))
  }
}

/// `--sharding`'s values.
enum ShardingArgument: String, ExpressibleByArgument, CaseIterable {
  case automatic = "auto"
  case doubleMod = "double-mod"
  case sha256
  var value: ProcessingConfig.Sharding {
    switch self {
    case .automatic: return .automatic
    case .doubleMod: return .doubleMod
    case .sha256: return .sha256
    }
  }
}

/// `--category`.
enum IdentityCategoryArgument: String, ExpressibleByArgument, CaseIterable {
  case business, person
  var value: CallIdentity.Category { self == .business ? .business : .person }
}

extension ExportLiveLookupCommand {
  /// `CallIdentity.maximumIconByteCount` as the article writes it, "63,487".
  static let iconLimit =
    String(CallIdentity.maximumIconByteCount / 1000) + ","
    + String(String(CallIdentity.maximumIconByteCount % 1000 + 1000).dropFirst())
  /// The tags file of a dump's compile: each entry's identity category from its row.
  static let tagsFileName = "identity-categories.tags"
  /// Ignored icon files named one per line on stderr before a count of the rest: a folder of
  /// photos exported from a phone would otherwise fill the terminal.
  static let ignoredIconLines = 20

  /// One line per dataset written pre-sharded: its inputs, and their bucket sizes by count.
  static func preShardedLines(_ shards: [PreShardedDatasets.Shard]) -> [String] {
    var lines: [String] = []
    for stem in ["block", "identity"] {
      let mine = shards.filter { $0.config.stem == stem }
      guard !mine.isEmpty else { continue }
      var sizes: [Int: Int] = [:]
      for shard in mine { sizes[shard.config.bucketByteCount, default: 0] += 1 }
      let described = sizes.sorted { $0.key < $1.key }.map {
        "\($0.value) of \($0.key)-byte buckets"
      }
      lines.append(
        "\(PreShardedDatasets.folderName)/: \(stem) in \(mine.count) inputs (\(stem)-N.binpb, \(stem)-N-config.json): \(described.joined(separator: ", ")), \(mine.map(\.data.rows).min() ?? 0)–\(mine.map(\.data.rows).max() ?? 0) rows each"
      )
    }
    return lines
  }

  /// Comma-separated values, trimmed, empty ones dropped.
  static func values(_ list: String) -> [String] {
    list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
      !$0.isEmpty
    }
  }

  /// Compiles the dumps into a container in a folder of its own (`--temp`, else beside
  /// `--out`), with each entry's identity category as its tag. Returns the container and the
  /// folder to remove when the export is done.
  /// - Throws: `ValidationError` for the compile's usage and input errors; the exit status of
  ///   a `--strict`-like refusal never arises (the export compiles leniently and reports).
  func compileDump(display: ProgressDisplay) throws -> (container: String, work: String) {
    let parent = reading.temp ?? (out as NSString).deletingLastPathComponent
    let work =
      (parent.isEmpty ? "." : parent)
      + "/.calldir-export-\(ProcessInfo.processInfo.processIdentifier)"
    try? FileManager.default.removeItem(atPath: work)
    do {
      try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    } catch {
      throw ValidationError("cannot make \(work): \(error.localizedDescription)")
    }
    let container = work + "/container"
    do {
      var options = try reading.compileOptions(inputs: dumps, output: container)
      // The server answers for every number: no seed set, and nothing to shrink from.
      options.seedSize = 0
      options.allowShrink = true
      for value in Self.values(personCategory) {
        options.entryTags[value] = UInt8(CallIdentity.Category.person.rawValue)
      }
      for value in Self.values(businessCategory) {
        options.entryTags[value] = UInt8(CallIdentity.Category.business.rawValue)
      }
      options.tagsFile = work + "/" + Self.tagsFileName
      let compiler = Compiler(options: options)
      CompileCommand.show(progressOf: compiler, on: display)
      let report: CompileReport
      do {
        report = try compiler.run()
      } catch let error as CompileError {
        throw ValidationError(error.description)
      }
      print(report.renderReading(), terminator: "")
    } catch {
      try? FileManager.default.removeItem(atPath: work)
      throw error
    }
    return (container, work)
  }
}
