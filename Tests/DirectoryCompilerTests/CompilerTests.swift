import BaseFormat
import CallDirectoryLoader
import Datasets
import DirectoryContainer
import Foundation
import SystemCalls
import TestSupport
import Testing

@testable import DirectoryCompiler

@Suite("calldir compile: inputs, rejections, sort, split, round trip")
struct CompilerTests {
  static let samples = DatasetProfile.profilesDirectory().appendingPathComponent("samples").path

  func compile(
    _ inputs: [(String, InputFormat)], folder: TemporaryFolder,
    configure: (inout CompileOptions) -> Void = { _ in }
  ) throws -> (CompileReport, Manifest, String) {
    let out = folder.path("box")
    var options = CompileOptions(inputs: inputs, output: out)
    options.seedSize = 0
    configure(&options)
    let report = try Compiler(options: options).run()
    return (report, try Manifest.read(container: out), out)
  }

  /// Every entry of a container's region and blocking bases, read with both readers.
  func entries(_ out: String, _ manifest: Manifest, role: Manifest.Role) throws -> [String] {
    var result: [String] = []
    for base in manifest.bases where base.role == role {
      let mapped = try MappedBaseReader(path: out + "/" + base.file).readAll()
      let buffered = try BufferedBaseReader(path: out + "/" + base.file).readAll()
      #expect(mapped == buffered)
      #expect(SHA256.hexDigest(ofFile: out + "/" + base.file) == base.sha256)
      result += mapped.map { "\($0.number) \($0.label)" }
    }
    return result.sorted()
  }

  @Test func theSampleTSVNormalizesDeduplicatesAndSplits() throws {
    let folder = try TemporaryFolder()
    let (report, manifest, out) = try compile(
      [(Self.samples + "/sample.tsv", .tsv)], folder: folder
    ) {
      $0.seedSize = 2
    }
    #expect(report.rejected[.number(.wrongLength)]?.count == 1)
    #expect(report.rejected[.number(.wrongLength)]?.places == ["sample.tsv:7"])
    #expect(report.duplicatesDropped == 1)
    #expect(
      try entries(out, manifest, role: .region) == [
        "74951234567 Аптека Ригла", "78125550102 Кафе «Теремок»", "79160001122 Такси Быстрое",
      ])
    #expect(try entries(out, manifest, role: .blocking) == ["78001000000 "])
    // The seed set: the two highest ranks (900 and 700).
    #expect(
      try entries(out, manifest, role: .seed) == [
        "74951234567 Аптека Ригла", "79160001122 Такси Быстрое",
      ])
    #expect(Set(manifest.bases.compactMap(\.region)) == ["RU-MOW", "RU-SPE"])
  }

  @Test func lineEndsOfEverySystemGiveTheSameBases() throws {
    let sample = try String(contentsOfFile: Self.samples + "/sample.tsv", encoding: .utf8)
    let lines = sample.split(separator: "\n", omittingEmptySubsequences: false)
    var results: [[String]] = []
    var lineCounts: [Int] = []
    for ending in ["\n", "\r\n", "\r"] {
      let folder = try TemporaryFolder()
      let path = folder.path("sample.tsv")
      try Data(lines.joined(separator: ending).utf8).write(to: URL(fileURLWithPath: path))
      let (report, manifest, out) = try compile([(path, .tsv)], folder: folder)
      results.append(try entries(out, manifest, role: .region))
      lineCounts.append(report.linesRead)
      #expect(report.rejected[.number(.wrongLength)]?.places == ["sample.tsv:7"], "\(ending)")
    }
    #expect(results[0].count == 3)
    #expect(Set(results.map { $0 }).count == 1, "\(results)")
    #expect(Set(lineCounts).count == 1, "\(lineCounts)")
  }

  @Test func gzipAndBOMInputsGiveTheSameBases() throws {
    let plain = try TemporaryFolder()
    let zipped = try TemporaryFolder()
    let (_, plainManifest, plainOut) = try compile(
      [(Self.samples + "/sample.tsv", .tsv)], folder: plain)
    let (_, zippedManifest, zippedOut) = try compile(
      [(Self.samples + "/sample.tsv.gz", .tsv)], folder: zipped)
    #expect(
      try entries(plainOut, plainManifest, role: .region)
        == entries(zippedOut, zippedManifest, role: .region))
  }

  @Test func everyArticleFormatIsRead() throws {
    let folder = try TemporaryFolder()
    let (report, manifest, out) = try compile(
      [(Self.samples + "/chinese.json", .chinese), (Self.samples + "/sample.jsonl", .jsonl)],
      folder: folder
    ) {
      $0.country = "CN"
      $0.regionsFile = Self.samples + "/regions.tsv"
    }
    #expect(report.rejectedCount == 0)
    let all = try entries(out, manifest, role: .region)
    #expect(all.count == 12)
    #expect(all.contains("86196852102 骚扰电话"))
    #expect(all.contains("8675512345678 深圳市腾达科技有限公司"))
    #expect(all.contains("861012345678 北京市宏图物流有限公司"))
    #expect(manifest.bases.contains { $0.region == "CN-GD" })

    let russian = try TemporaryFolder()
    let (_, russianManifest, russianOut) = try compile(
      [(Self.samples + "/russian.txt", .russian)], folder: russian)
    #expect(
      try entries(russianOut, russianManifest, role: .region) == [
        "79161112233 Иван Петров", "79819810349 Анастасия Малышева",
      ])

    let csv = try TemporaryFolder()
    let (csvReport, csvManifest, csvOut) = try compile(
      [(Self.samples + "/sample.csv", .csv)], folder: csv
    ) {
      $0.country = "US"
    }
    // A quoted field may span lines, but a label is one line of text (BaseFormat.LabelRule):
    // the two-line name is a rejected row, named, not a label with a line break.
    #expect(csvReport.rejected[.labelControlCharacter]?.places == ["sample.csv:4"])
    #expect(
      try entries(csvOut, csvManifest, role: .region) == [
        "12125550100 Pizza \"Uno\" Downtown", "14155551212 Bright Dental Care, LLC",
      ])
  }

  /// A label that bidirectional controls or a byte order mark inside would disguise ("‮knaB"
  /// shows as "Bank") never reaches the system's store: the row is rejected, counted and named
  /// (issue 52, item 13).
  @Test func labelsWithBidirectionalControlsAreRejectedAndCounted() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("bidi.tsv")
    try
      "number\tlabel\n+74951234501\t\u{202E}knaB\n+74951234502\tBank\u{FEFF}Pay\n+74951234503\tBank\n"
      .write(toFile: dump, atomically: true, encoding: .utf8)
    let (report, manifest, out) = try compile([(dump, .tsv)], folder: folder) {
      $0.country = "RU"
    }
    #expect(report.rejected[.labelControlCharacter]?.places == ["bidi.tsv:2", "bidi.tsv:3"])
    #expect(try entries(out, manifest, role: .region) == ["74951234503 Bank"])
  }

  @Test func eachMalformedInputClassIsCountedByReason() throws {
    let folder = try TemporaryFolder()
    // TSV has no quoting, so the quoting class is checked in CSV.
    var bytes = Array("number,label\n".utf8)
    bytes += Array("8 495 111 22 33,ok\n".utf8)
    bytes += Array("8 495 111 22 34,\"unterminated\n".utf8)  // bad quoting (never closes)
    let rest: [[UInt8]] = [
      Array("8 495 111 22 35\n".utf8),  // missing column
      Array("8 495 111 22 36\tbad ".utf8) + [0xFF, 0xFE] + Array("\n".utf8),  // bad UTF-8
      Array("8 495 111 22 37\t\n".utf8),  // empty label
      Array("8 495 111 22 38\t\(String(repeating: "я", count: 600))\n".utf8),  // over-long label
      Array("позвоните нам\tno number\n".utf8),  // non-numeric number
    ]
    // The unterminated quote swallows the following lines, so check the other classes in a
    // second file.
    let first = folder.path("quoting.csv")
    try Data(bytes).write(to: URL(fileURLWithPath: first))
    let second = folder.path("classes.tsv")
    try Data(Array("number\tlabel\n".utf8) + rest.joined()).write(to: URL(fileURLWithPath: second))
    let (report, _, _) = try compile([(first, .csv), (second, .tsv)], folder: folder)
    for reason: RejectionReason in [
      .badQuoting, .missingColumn, .badUTF8, .emptyLabel, .labelTooLong, .number(.noDigits),
    ] {
      #expect(report.rejected[reason]?.count == 1, "\(reason): \(report.rejected)")
    }
    #expect(report.accepted == 1)

    // A gzip file cut short, or with a wrong CRC, fails the run: a good container stays as it was.
    let gzipped = try Data(contentsOf: URL(fileURLWithPath: Self.samples + "/sample.tsv.gz"))
    let truncated = folder.path("truncated.tsv.gz")
    try gzipped.prefix(gzipped.count - 12).write(to: URL(fileURLWithPath: truncated))
    var badCRC = gzipped
    badCRC[badCRC.count - 6] ^= 0xFF
    let wrongCheck = folder.path("crc.tsv.gz")
    try badCRC.write(to: URL(fileURLWithPath: wrongCheck))
    let other = try TemporaryFolder()
    let (_, good, out) = try compile([(Self.samples + "/sample.tsv", .tsv)], folder: other)
    for damaged in [truncated, wrongCheck] {
      #expect(throws: CompileError.self, "\(damaged)") {
        _ = try compile([(damaged, .tsv)], folder: other)
      }
      #expect(try Manifest.read(container: out) == good)
    }
  }

  @Test(arguments: [DuplicatePolicy.first, .last, .priority])
  func theDuplicatePolicyChoosesTheSurvivor(policy: DuplicatePolicy) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("dups.tsv")
    try
      "number\tlabel\trank\n+74951110000\tfirst\t5\n+74951110000\tbest\t9\n+74951110000\tlast\t1\n"
      .write(toFile: path, atomically: true, encoding: .utf8)
    let (report, manifest, out) = try compile([(path, .tsv)], folder: folder) {
      $0.duplicates = policy
    }
    #expect(report.duplicatesDropped == 2)
    let expected = ["first": DuplicatePolicy.first, "last": .last, "best": .priority].first {
      $0.value == policy
    }!.key
    #expect(try entries(out, manifest, role: .region) == ["74951110000 \(expected)"])
  }

  @Test func theExternalSortEqualsAnInMemorySortWithManyRuns() throws {
    let folder = try TemporaryFolder()
    let sorter = ExternalSorter(budget: 64 * 1024, directory: folder.url.path)
    var generator = SplitMix64(seed: 77)
    var records: [SortRecord] = []
    for sequence in 0..<30_000 {
      let record = SortRecord(
        number: 70_000_000_000 + Int64(generator.next() % 50_000),
        rank: Int64(generator.next() % 100),
        sequence: UInt64(sequence), label: "Метка \(generator.next() % 1000)",
        region: "R\(sequence % 7)",
        category: sequence % 11 == 0 ? "spam" : "")
      records.append(record)
      try sorter.add(record)
    }
    #expect(sorter.runPaths.count > 10, "a tiny budget must force many runs")
    let merged = try sorter.sorted()
    var result: [SortRecord] = []
    while try merged.next({ result.append(SortRecord($0)) }) {}
    let expected = records.sorted {
      $0.number != $1.number ? $0.number < $1.number : $0.sequence < $1.sequence
    }
    #expect(result == expected)
    sorter.removeRuns()
  }

  /// More runs than one merge reads at once: they are merged in passes of the fan-in into
  /// longer runs first, in the same order as one merge, and no run file is left once the
  /// sorter is done.
  @Test(arguments: [(fanIn: 4, passes: 2), (fanIn: 5, passes: 1), (fanIn: 30, passes: 0)])
  func moreRunsThanTheFanInAreMergedInPasses(fanIn: Int, passes: Int) throws {
    let folder = try TemporaryFolder()
    let sorter = ExternalSorter(budget: 64 * 1024, directory: folder.url.path)
    var generator = SplitMix64(seed: 91)
    var records: [SortRecord] = []
    var sequence: UInt64 = 0
    while sorter.runPaths.count < 21 {
      let record = SortRecord(
        number: 70_000_000_000 + Int64(generator.next() % 200_000), rank: 0,
        sequence: sequence, label: "Метка \(generator.next() % 1000)", region: "R1",
        category: "")
      sequence += 1
      records.append(record)
      try sorter.add(record)
    }
    try sorter.spillRemainder()
    // 21 or 22 runs: 4 at a time take two passes (to 6, then 2), 5 at a time one (to 5).
    let merged = try ExternalSorter.merge(
      sorter.runPaths, budget: 64 * 1024, directory: folder.url.path, prefix: "", fanIn: fanIn)
    #expect(merged.passes == passes, "\(sorter.runPaths.count) runs, \(fanIn) at a time")
    var result: [SortRecord] = []
    while try merged.next({ result.append(SortRecord($0)) }) {}
    let expected = records.sorted {
      $0.number != $1.number ? $0.number < $1.number : $0.sequence < $1.sequence
    }
    #expect(result == expected)
    sorter.removeRuns()
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
  }

  /// A record longer than a run's read buffer (16 KiB here; a label may take 65,535 bytes)
  /// widens that run's buffer, and the merge still hands every record over whole, in order.
  @Test func recordsLongerThanTheReadBufferMergeWhole() throws {
    let folder = try TemporaryFolder()
    let sorter = ExternalSorter(budget: 64 * 1024, directory: folder.url.path)
    var records: [SortRecord] = []
    for index in 0..<40 {
      let label = String(repeating: "Ж", count: index % 3 == 0 ? 30_000 : 10 + index)
      let record = SortRecord(
        number: 70_000_000_000 + Int64((index * 7919) % 40), rank: 0, sequence: UInt64(index),
        label: label, region: "R\(index % 4)", category: "")
      records.append(record)
      try sorter.add(record)
    }
    try sorter.spillRemainder()
    #expect(sorter.runPaths.count > 4)
    let merged = try ExternalSorter.merge(
      sorter.runPaths, budget: 64 * 1024, directory: folder.url.path, prefix: "", fanIn: 64)
    var result: [SortRecord] = []
    while try merged.next({ result.append(SortRecord($0)) }) {}
    #expect(
      result
        == records.sorted {
          $0.number != $1.number ? $0.number < $1.number : $0.sequence < $1.sequence
        })
    sorter.removeRuns()
  }

  /// The fan-in is the most the open-file limit allows beside the compile's other files, raised
  /// toward it first: never under the floor, never over the ceiling.
  @Test func theFanInFollowsTheOpenFileLimit() throws {
    let fanIn = ExternalSorter.fanIn()
    #expect((ExternalSorter.minimumFanIn...ExternalSorter.maximumFanIn).contains(fanIn))
    let limit = try #require(ProcessEnvironment.openFileLimit(raisingTo: 0))
    #expect(fanIn == max(16, min(ExternalSorter.maximumFanIn, limit - 256)))
  }

  /// A killed compile's scratch folder (its sort runs) is gone after the next compile of the
  /// same container.
  @Test func aKilledCompilesRunsAreRemovedByTheNext() throws {
    let folder = try TemporaryFolder()
    let parameters = DatasetParameters(entries: 2_000, plans: ["RU"], duplicateShare: 0, seed: 5)
    let tsv = folder.path("raw.tsv")
    try DatasetGenerator(parameters: parameters).write(.tsv, to: tsv)
    let (_, _, out) = try compile([(tsv, .tsv)], folder: folder) { _ in }
    let stale = out + "/.compile-999999"
    try FileManager.default.createDirectory(atPath: stale, withIntermediateDirectories: true)
    try Data(repeating: 1, count: 4096).write(to: URL(fileURLWithPath: stale + "/run-0.bin"))
    _ = try compile([(tsv, .tsv)], folder: folder) { _ in }
    #expect(!FileManager.default.fileExists(atPath: stale))
    let left = try FileManager.default.contentsOfDirectory(atPath: out).filter {
      $0.hasPrefix(".compile-")
    }
    #expect(left.isEmpty, "\(left)")
  }

  @Test func aGeneratedDumpRoundTripsThroughBothReaders() throws {
    let folder = try TemporaryFolder()
    let parameters = DatasetParameters(entries: 20_000, plans: ["RU"], duplicateShare: 0.1, seed: 3)
    let generator = try DatasetGenerator(parameters: parameters)
    let tsv = folder.path("raw.tsv")
    try generator.write(.tsv, to: tsv)
    let (report, manifest, out) = try compile([(tsv, .tsv)], folder: folder) {
      $0.memoryBudget = 1 << 20
    }
    #expect(report.sortRuns > 1)
    #expect(report.rejectedCount == 0)
    #expect(report.duplicatesDropped == 2_000)
    let expected = generator.numbers.indices.map {
      "\(generator.numbers[$0]) \(generator.label(at: $0))"
    }.sorted()
    #expect(try entries(out, manifest, role: .region) == expected)
  }

  /// Russian company names are full of quotes: TSV takes them as characters, CSV takes a quote
  /// inside an unquoted field literally, and `--quoting` overrides either.
  @Test func quotesInsideFieldsAreCharacters() throws {
    let folder = try TemporaryFolder()
    let tsv = folder.path("names.tsv")
    try Data(
      "number\tlabel\n8 495 111 22 33\tООО \"Ромашка\"\n8 495 111 22 34\t\"Вектор\" ИП\n".utf8
    ).write(to: URL(fileURLWithPath: tsv))
    let csv = folder.path("names.csv")
    try Data(
      "number,label\n8 495 111 22 35,ООО \"Ромашка\"\n8 495 111 22 36,\"ИП \"\"Вектор\"\", Москва\"\n"
        .utf8
    ).write(to: URL(fileURLWithPath: csv))
    let (report, manifest, out) = try compile([(tsv, .tsv), (csv, .csv)], folder: folder)
    #expect(report.rejectedCount == 0, "\(report.rejected)")
    #expect(
      try entries(out, manifest, role: .region) == [
        "74951112233 ООО \"Ромашка\"", "74951112234 \"Вектор\" ИП", "74951112235 ООО \"Ромашка\"",
        "74951112236 ИП \"Вектор\", Москва",
      ])
    let quoted = try TemporaryFolder()
    let (strict, _, _) = try compile([(tsv, .tsv)], folder: quoted) { $0.quoting = .rfc4180 }
    #expect(strict.accepted == 1, "RFC 4180 on TSV: the opening quote of line 3 never closes")
  }

  /// Numbers in the Chinese article's file and the Russian guide's lines are CallKit digits: a
  /// short one is checked as international (and rejected for its length), never prefixed again.
  @Test func callKitDigitInputsAreNeverReadAsNationalNumbers() throws {
    let folder = try TemporaryFolder()
    let chinese = folder.path("short.json")
    try Data("[\n{\"86109\": \"short\"},\n{\"86196852102\": \"full\"},\n]\n".utf8).write(
      to: URL(fileURLWithPath: chinese))
    let russian = folder.path("short.txt")
    try Data("7495123\u{D7FF}short\n79161112233\u{D7FF}full\n".utf8).write(
      to: URL(fileURLWithPath: russian))
    for (path, format, country, kept) in [
      (chinese, InputFormat.chinese, "CN", "86196852102 full"),
      (russian, .russian, "RU", "79161112233 full"),
    ] {
      let out = try TemporaryFolder()
      let (report, manifest, box) = try compile([(path, format)], folder: out) {
        $0.country = country
      }
      #expect(try entries(box, manifest, role: .region) == [kept], "\(format)")
      #expect(report.rejected[.number(.wrongLength)]?.count == 1, "\(format): \(report.rejected)")
    }
  }

  /// One stray quote rejects its own line, named where the quote opened; the rows after it are
  /// read as rows (they used to disappear, uncounted, into the unclosed field).
  @Test func anUnbalancedQuoteRejectsOnlyItsLine() throws {
    let folder = try TemporaryFolder()
    let csv = folder.path("stray.csv")
    var text = "number,label\n"
    for index in 0..<1_000 {
      let label = index == 9 ? "\"Unbalanced \(index)" : "Label \(index)"
      text += "+7495\(String(1_000_000 + index)),\(label)\n"
    }
    text += "+74953000000,\"A label\nover two lines\"\n"
    try Data(text.utf8).write(to: URL(fileURLWithPath: csv))
    let (report, _, _) = try compile([(csv, .csv)], folder: folder)
    #expect(report.accepted == 999, "999 single-line rows")
    // The two-line field is read as one row, then refused: a label is one line.
    #expect(report.rejected[.labelControlCharacter]?.places == ["stray.csv:1002"])
    #expect(report.rejected[.badQuoting]?.count == 1)
    #expect(report.rejected[.badQuoting]?.places == ["stray.csv:11"], "where the quote opened")
  }
}
