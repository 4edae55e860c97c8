import ArgumentParser
import Foundation
import LiveLookupExport
import ProcessMetrics

/// `calldir export`: the compiled directory in other targets' formats.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export a compiled container for other targets (Live Caller ID Lookup).",
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
      block-config.json and identity-config.json (PIRProcessDatabase's configurations, shards \
      and a fixed cuckoo bucket count sized for the data), and usecases.json (the service's \
      use cases, BUNDLE.block and BUNDLE.identity), last. A block value is 1 for a number of \
      a blocking list, else 0; an identity is the label, --category and \
      --cache-expiry-minutes, with the icon from --icons when there is one. Memory stays flat \
      in the number of entries. To export a dump, compile it first (calldir compile DUMP \
      --out BOX), which reads it as the Call Directory extension's data is read.
      Exit statuses: 0 done (refused icons and numbers without an E.164 form are counted on \
      stderr); 1 usage, input or output error (the folder's files are left as they were).
      """)

  @Option(
    name: .long, help: "The compiled container (calldir compile --out).", completion: .directory,
    transform: nonEmptyPath)
  var container: String
  @Option(
    name: .long, help: "The folder to write.", completion: .directory, transform: nonEmptyPath)
  var out: String
  @Option(
    name: .long,
    help: "The Live Caller ID Lookup extension's bundle identifier (names the use cases).")
  var bundleID: String
  @Option(name: .long, help: "Every identity's category: business or person.")
  var category: IdentityCategoryArgument = .business
  @Option(
    name: .long,
    help: "How long a device may keep an answer, in minutes (0: the system's default).")
  var cacheExpiryMinutes: UInt32 = 0
  @Option(
    name: .long, help: "A folder of +E164.heic icons (each under 63 KiB).",
    completion: .directory, transform: nonEmptyPath)
  var icons: String?
  @Flag(
    name: .long,
    help: "Leave out Apple's onboarding test identity (+14085551212 Johnny Appleseed).")
  var noTestIdentity = false
  @OptionGroup var progressOptions: ProgressOptions

  func validate() throws {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
    guard !bundleID.isEmpty, bundleID.allSatisfy(allowed.contains), !bundleID.hasPrefix("."),
      !bundleID.hasSuffix(".")
    else {
      throw ValidationError(
        "--bundle-id '\(bundleID)' is not a bundle identifier (letters, digits, dots and dashes)")
    }
  }

  func run() throws {
    var options = LiveLookupExporter.Options(bundleID: bundleID)
    options.category = category.value
    options.cacheExpiryMinutes = cacheExpiryMinutes
    options.iconsFolder = icons
    options.includesTestIdentity = !noTestIdentity
    let clock = ContinuousClock()
    let start = clock.now
    let display = progressOptions.display(command: "export")
    var exporter = LiveLookupExporter(container: container, options: options)
    exporter.progress = { done, total in
      display.update(phase: "writing", done: done, total: total, unit: "numbers")
    }
    let report: LiveLookupExporter.Report
    do {
      report = try exporter.export(to: out)
    } catch {
      display.finish()
      throw error
    }
    display.finish()
    let seconds = (clock.now - start) / .seconds(1)
    for line in report.refusedIcons + report.refusedIdentities {
      FileHandle.standardError.write(Data("calldir: refused \(line)\n".utf8))
    }
    if report.numbersWithoutE164 > 0 {
      FileHandle.standardError.write(
        Data(
          "calldir: \(report.numbersWithoutE164) numbers have more than 15 digits (no E.164 form): left out\n"
            .utf8))
    }
    print(
      "wrote \(out): \(report.blockRows) block rows (\(report.blocked) blocked, \(ByteCount.format(report.blockBytes))), \(report.identityRows) identities (\(report.icons) with an icon, \(ByteCount.format(report.identityBytes)))"
    )
    print(
      String(
        format: "refused: %d icons, %d identities, %d numbers; %.2f s, peak RSS %@",
        report.refusedIcons.count, report.refusedIdentities.count, report.numbersWithoutE164,
        seconds, ByteCount.format(MemoryStatusReader.current()?.peakResidentBytes ?? 0)))
  }
}

/// `--category`.
enum IdentityCategoryArgument: String, ExpressibleByArgument, CaseIterable {
  case business, person
  var value: CallIdentity.Category { self == .business ? .business : .person }
}
