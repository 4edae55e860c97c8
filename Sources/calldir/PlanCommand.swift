import ArgumentParser
import BaseFormat
import DirectoryCompiler
import Foundation
import SystemCalls

/// `calldir plan`: a national numbering plan, as its regulator publishes it, turned into a
/// pattern file that `compile --block-patterns` or `--identify-patterns` reads (issue 67).
struct PlanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plan",
    abstract: "Turn a published numbering plan into a pattern file for compile.",
    discussion: """
      Reads a plan file as its publisher ships it (ARCEP's MAJNUM.csv in ISO-8859-1; Russia's \
      register of numbering capacity, DEF-9xx.csv or ABC-3xx.csv, in UTF-8 with a BOM; NANPA's \
      allutlzd.txt, the US central office codes in use, tab-separated), zipped or not (a zip \
      inside a zip too; --entry names the file), keeps \
      the rows the filters keep, converts each range's ends to E.164 through the numbering \
      tables (an ARCEP row's territory gives its country: Guadeloupe +590, La Réunion +262…), \
      checks them against that country's plan, and writes one range per row: \
      pattern<TAB>label<TAB>category, the category being the operator. Rows that do not \
      describe dialable numbers (short codes, a territory or a date that does not read, a \
      capacity that disagrees with the range) are reported with their line and reason, and \
      left out.
      Then: calldir compile DUMP --block-patterns OUT (or --identify-patterns OUT, labels \
      from --label).
      Exit statuses: 0 written (rejected rows are reported); 1 usage, input or output error \
      (the output is left as it was); 4 --strict and at least one row was rejected (nothing \
      is written then).
      """)

  @Argument(help: "The plan file as published.", completion: .file(), transform: nonEmptyPath)
  var file: String
  @Option(help: "The file's format: arcep, russia or nanpa.")
  var format: PlanFormat
  @Option(
    help:
      "Keep these operators only: ARCEP mnemonics (LGC,SDCI), company names, INNs or NANPA's OCNs.",
    transform: { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
  var `operator`: [String] = []
  @Option(
    help: "Keep rows whose region or territory holds one of these (comma-separated).",
    transform: { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
  var region: [String] = []
  @Option(help: "Keep rows allocated on or after this date (YYYY-MM-DD).")
  var allocatedSince: String?
  @Option(
    help:
      "Each range's label: {operator}, {operator_id}, {region}, {allocated} and {code} are replaced (e.g. '{operator} · {region}').",
  )
  var label: String?
  @Option(
    name: .long, help: "The pattern file to write.", completion: .file(), transform: nonEmptyPath)
  var out: String
  @Option(
    help:
      "In a zip archive, the plan's file (default: the archive's one .csv, or .txt for nanpa, inside a zip inside it too)."
  )
  var entry: String?
  @Flag(help: "Refuse the plan when any row is rejected (exit 4), writing nothing.")
  var strict = false

  func validate() throws {
    guard let allocatedSince else { return }
    let parts = allocatedSince.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4,
      PlanFormat.isoDate(fromDayMonthYear: "\(parts[2])/\(parts[1])/\(parts[0])") == allocatedSince
    else {
      throw ValidationError("--allocated-since \(allocatedSince): not a date YYYY-MM-DD")
    }
  }

  func run() throws {
    var filter = NumberingPlan.Filter()
    filter.operators = Set(`operator`.map { $0.lowercased() })
    filter.regions = region
    filter.allocatedSince = allocatedSince
    let contents = try NumberingPlan.read(file, format: format, filter: filter, entry: entry)
    for rejection in contents.rejections.prefix(20) {
      StandardError.write("calldir: \(file):\(rejection.line): \(rejection.reason); left out\n")
    }
    if contents.rejections.count > 20 {
      StandardError.write("calldir: … and \(contents.rejections.count - 20) more rows left out\n")
    }
    if strict, !contents.rejections.isEmpty {
      StandardError.write(
        "calldir: \(contents.rejections.count) rows rejected and --strict given: \(out) was not written\n"
      )
      throw ExitStatus.strictRejected.exitCode
    }
    guard !contents.ranges.isEmpty else {
      throw ValidationError(
        "\(file): no row is left (\(contents.rowsRead) read, \(contents.filteredOut) filtered out, \(contents.rejections.count) rejected); \(out) was not written"
      )
    }
    var text = label == nil ? "pattern\tcategory\n" : "pattern\tlabel\tcategory\n"
    for range in contents.ranges {
      let category = Self.cell(range.operator)
      if let label {
        text += "\(range.pattern)\t\(Self.cell(range.label(label)))\t\(category)\n"
      } else {
        text += "\(range.pattern)\t\(category)\n"
      }
    }
    let writer = try AtomicFileWriter(path: out)
    try writer.write(text.utf8)
    try writer.commit()
    let numbers = contents.ranges.reduce(Int64(0)) { $0 + $1.numberCount }
    print(
      "\(file): \(contents.rowsRead) rows read; \(contents.ranges.count) ranges written to \(out) (\(numbers) numbers); \(contents.filteredOut) filtered out; \(contents.rejections.count) rejected"
    )
  }

  /// A value as one TSV cell: tabs and line ends become spaces.
  static func cell(_ value: String) -> String {
    String(value.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
  }
}

extension PlanFormat: ExpressibleByArgument {}
