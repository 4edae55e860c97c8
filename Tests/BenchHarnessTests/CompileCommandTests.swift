import BenchReporting
import Datasets
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@Suite("calldir compile, inspect and normalize on the command line")
struct CompileCommandTests {
  let samples = DatasetProfile.profilesDirectory().appendingPathComponent("samples").path

  @Test func strictFailsWithStatus4AndLeavesTheContainerAsItWas() throws {
    let folder = try TemporaryFolder()
    let out = folder.path("box")
    let strictFirst = try runProcess(
      try builtExecutable("calldir"),
      ["compile", samples + "/sample.tsv", "--out", out, "--strict"])
    #expect(strictFirst.status == 4, "\(strictFirst.stderr)")
    #expect(strictFirst.stdout.contains("rejected 1 × wrong length (first at sample.tsv:7)"))
    #expect(!FileManager.default.fileExists(atPath: out), "a refused first run leaves nothing")
    let relaxed = try runProcess(
      try builtExecutable("calldir"), ["compile", samples + "/sample.tsv", "--out", out])
    #expect(relaxed.status == 0)
    let before = try folderSnapshot(out)
    #expect(before[Manifest.fileName] != nil)
    // A refused recompile over a good container: it used to delete the manifest and replace the
    // seed set first.
    let strict = try runProcess(
      try builtExecutable("calldir"),
      ["compile", samples + "/sample.tsv", "--out", out, "--strict", "--seed-size", "1"])
    #expect(strict.status == 4)
    #expect(strict.stderr.split(separator: "\n").count == 1, "\(strict.stderr)")
    #expect(try folderSnapshot(out) == before, "every file byte-identical")
    // A refused run wrote nothing, and its report says only what it read.
    #expect(!strict.stdout.contains("wrote"), "\(strict.stdout)")
    #expect(strict.stderr.contains("1 line rejected; nothing written"), "\(strict.stderr)")
  }

  @Test(arguments: [
    (["chinese.json", "--category-column", "kind"], "--category-column does not apply to chinese"),
    (["chinese.json", "--blocking-category", "spam"], "--blocking-category does not apply"),
    (["russian.txt", "--quoting", "rfc4180"], "--quoting does not apply to russian"),
    (["sample.jsonl", "--quoting", "none"], "--quoting does not apply to jsonl"),
    (["russian.txt", "--country", "RU"], "--country does not apply to russian"),
    (["chinese.json", "--block", "chinese.json"], "given both as an input and with --block"),
  ])
  func aFlagNoInputReadsIsAUsageError(arguments: [String], message: String) throws {
    let folder = try TemporaryFolder()
    let resolved = arguments.map { $0.contains(".") ? samples + "/" + $0 : $0 }
    let run = try runProcess(
      try builtExecutable("calldir"), ["compile"] + resolved + ["--out", folder.path("box")])
    #expect(run.status == 1, "\(arguments): \(run.stdout)")
    #expect(run.stderr.contains(message), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1)
    #expect(!FileManager.default.fileExists(atPath: folder.path("box")))
    // Beside an input that reads it, the flag applies there.
    let mixed = try runProcess(
      try builtExecutable("calldir"),
      [
        "compile", samples + "/sample.tsv", "--category-column", "category",
        samples
          + "/chinese.json", "--out", folder.path("mixed"),
      ])
    #expect(mixed.status == 0, "\(mixed.stderr)")
  }

  @Test func aWholeInputCompilesAsABlockingList() throws {
    let folder = try TemporaryFolder()
    let out = folder.path("box")
    // The Chinese article's numbers are the spam users block; the directory beside them is not.
    let run = try runProcess(
      try builtExecutable("calldir"),
      ["compile", samples + "/sample.tsv", "--block", samples + "/chinese.json", "--out", out])
    #expect(run.status == 0, "\(run.stderr)")
    let manifest = try Manifest.read(container: out)
    let blocking = manifest.bases.filter { $0.role == .blocking }
    let chineseNumbers = try String(contentsOfFile: samples + "/chinese.json", encoding: .utf8)
      .split(separator: "\n").filter { $0.contains(":") }
      .map { $0.split(separator: "\"")[1] }
    // The dump's own spam row goes to its category's list; the whole input to `blocking`.
    #expect(blocking.first { $0.name == "blocking-blocking" }?.entries == Set(chineseNumbers).count)
    #expect(blocking.first { $0.name == "blocking-spam" }?.entries == 1)
    #expect(manifest.bases.contains { $0.role == .region && $0.entries > 0 }, "the directory")
    #expect(run.stdout.contains("blocking: \(Set(chineseNumbers).count + 1)"), "\(run.stdout)")
  }

  @Test func inspectVerifiesAndNamesTheOffsetOfCorruption() throws {
    let folder = try TemporaryFolder()
    let out = folder.path("box")
    _ = try runProcess(
      try builtExecutable("calldir"), ["compile", samples + "/sample.tsv", "--out", out])
    let base =
      out + "/"
      + (try #require(try Manifest.read(container: out).bases.first { $0.name == "region-RU-MOW" }))
      .file
    let sound = try runProcess(try builtExecutable("calldir"), ["inspect", base])
    #expect(sound.status == 0)
    #expect(sound.stdout.contains("compact"))
    let dump = try runProcess(try builtExecutable("calldir"), ["inspect", base, "--dump"])
    #expect(dump.stdout == "74951234567\tАптека Ригла\n79160001122\tТакси Быстрое\n")
    var data = try Data(contentsOf: URL(fileURLWithPath: base))
    data[data.count - 2] ^= 0x10
    try data.write(to: URL(fileURLWithPath: base))
    let corrupt = try runProcess(try builtExecutable("calldir"), ["inspect", base])
    #expect(corrupt.status == 1)
    #expect(corrupt.stderr.contains("at byte"), "\(corrupt.stderr)")
  }

  @Test func compileTakesACountryPerInput() throws {
    let folder = try TemporaryFolder()
    let german = folder.path("german.tsv")
    try Data("number\tlabel\n030 12345678\tBerlin\n".utf8).write(
      to: URL(fileURLWithPath: german))
    let out = folder.path("box")
    let run = try runProcess(
      try builtExecutable("calldir"), ["compile", german + ":DE", "--out", out, "--seed-size", "0"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("accepted: 1;"), "\(run.stdout)")
    let unknown = try runProcess(
      try builtExecutable("calldir"), ["compile", german + ":XX", "--out", out])
    #expect(unknown.status == 1)
    #expect(unknown.stderr.contains("german.tsv:XX: unknown country 'XX'"), "\(unknown.stderr)")
  }

  @Test func benchCompileRunsCompileBesideTheExportSortAndNormalize() throws {
    let folder = try TemporaryFolder()
    let csv = folder.path("compile.csv")
    let run = try runProcess(
      try builtExecutable("calldir"),
      ["bench", "compile", "--entries", "2000", "--repeat", "2", "--out", csv],
      directory: URL(fileURLWithPath: folder.path("")))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("compile / sort -u: "), "\(run.stdout)")
    #expect(run.stdout.contains("export lcidl / compile: "), "\(run.stdout)")
    let table = try CSVTable(parsing: String(contentsOfFile: csv, encoding: .utf8))
    let tools = ["compile", "export lcidl", "compile -j1", "sort -u", "normalize"]
    #expect(table.column("tool") == tools + tools)
    // Every tool read every row of the same dump: 2,000 entries and their duplicates.
    let rows = Set(table.column("rows") ?? [])
    #expect(rows.count == 1 && (Int(rows.first ?? "") ?? 0) > 2_000, "\(rows)")
    #expect(table.column("peak_rss_bytes")?.allSatisfy { (Int($0) ?? 0) > 0 } == true)
  }

  /// A list of sizes measures the scale: compile and sort -u at each, the CSV with the sort's
  /// figures, the chart beside it, the exponents printed, and the progress as JSON lines.
  @Test func benchCompileOverSizesWritesTheScaleAndItsChart() throws {
    let folder = try TemporaryFolder()
    let csv = folder.path("scale.csv")
    let run = try runProcess(
      try builtExecutable("calldir"),
      [
        "bench", "compile", "--profile", "ci-smoke", "--entries", "20k,10k", "--repeat", "2",
        "--memory", "1MiB", "--out", csv, "--progress", "json",
      ],
      directory: URL(fileURLWithPath: folder.path("")))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("compile grows as: wall time N^"), "\(run.stdout)")
    let table = try CSVTable(parsing: String(contentsOfFile: csv, encoding: .utf8))
    #expect(
      table.column("entries") == [
        "10000", "10000", "10000", "10000", "20000", "20000", "20000", "20000",
      ])
    #expect(
      table.column("tool") == Array(repeating: ["compile", "sort -u"], count: 4).flatMap { $0 })
    // A 1 MiB budget spills the 20k dump into runs, which the report names and the CSV keeps.
    let runs = zip(table.column("tool") ?? [], table.column("sort_runs") ?? []).filter {
      $0.0 == "compile"
    }.map { Int($0.1) ?? 0 }
    #expect(runs.last ?? 0 > 1, "\(runs)")
    let chart = try String(contentsOfFile: folder.path("scale.svg"), encoding: .utf8)
    #expect(chart.hasPrefix("<svg") && chart.contains("peak RSS N^"))
    // `calldir chart` draws the same chart again from the CSV alone.
    let redrawn = try runProcess(
      try builtExecutable("calldir"), ["chart", csv, "--out", folder.path("again.svg")])
    #expect(redrawn.status == 0, "\(redrawn.stderr)")
    #expect(try String(contentsOfFile: folder.path("again.svg"), encoding: .utf8) == chart)
    let objects = try ProgressLines.objects(run.stderr)
    #expect(
      objects.count >= 8 && objects.allSatisfy { $0["command"] as? String == "bench compile" })
    // Entries of the runs done, of every run's: the last run (20k entries) is starting.
    #expect(objects.last?["done"] as? Int == 100_000 && objects.last?["total"] as? Int == 120_000)
    // A folder that is not there is refused before anything runs.
    let refused = try runProcess(
      try builtExecutable("calldir"),
      ["bench", "compile", "--entries", "2k,4k", "--out", folder.path("none/scale.csv")],
      directory: URL(fileURLWithPath: folder.path("")))
    #expect(refused.status == 1 && refused.stderr.contains("does not exist"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path(".calldir/bench/compile/box")))
  }

  /// A ci-smoke dump of 20,000 entries (and its duplicates) in `folder`.
  func generatedDump(_ folder: TemporaryFolder, calldir: String) throws -> String {
    let dump = folder.path("dump.tsv")
    let run = try runProcess(
      calldir,
      ["generate", "--profile", "ci-smoke", "--entries", "20k", "--format", "tsv", "--out", dump])
    #expect(run.status == 0, "\(run.stderr)")
    return dump
  }

  /// `--progress json`: one JSON object per update on stderr, each phase in order with its
  /// share; on a pipe by default, no redraw (no carriage return, no escape) reaches stderr.
  @Test func progressIsJSONLinesOnAskingAndNothingOnAPipe() throws {
    let folder = try TemporaryFolder()
    let calldir = try builtExecutable("calldir")
    let dump = try generatedDump(folder, calldir: calldir)
    let json = try runProcess(
      calldir, ["compile", dump, "--out", folder.path("a"), "--progress", "json"])
    #expect(json.status == 0, "\(json.stderr)")
    let objects = try ProgressLines.objects(json.stderr)
    let phases = objects.compactMap { $0["phase"] as? String }
    // Each phase's updates together, in the compile's order.
    let order = ProgressLines.phaseOrder(objects)
    #expect(order == ["reading", "sorting", "merging", "writing", "hashing"], "\(phases)")
    #expect(objects.allSatisfy { $0["command"] as? String == "compile" && $0["done"] is Int })
    let reading = objects.filter { $0["phase"] as? String == "reading" }
    #expect(
      reading.allSatisfy { ($0["total"] as? Int ?? 0) > 0 && $0["unit"] as? String == "bytes" })
    let last = try #require(objects.last)
    #expect(last["share"] as? Double == 1 && last["done"] as? Int == last["total"] as? Int)
    // The summary is still on stdout, and JSON is all of stderr.
    #expect(json.stdout.contains("accepted: "), "\(json.stdout)")
    for arguments in [[], ["--quiet"]] {
      let piped = try runProcess(
        calldir, ["compile", dump, "--out", folder.path("b")] + arguments)
      #expect(piped.status == 0)
      #expect(piped.stderr.isEmpty, "\(arguments): \(piped.stderr.debugDescription)")
    }
  }

  /// `--temp DIR` takes the sort's runs (and leaves nothing there); a compile whose runs would
  /// not fit the volume is refused before it reads a row, with both figures and the flag.
  @Test func theSortsDiskIsNamedMeasuredAndCheckedFirst() throws {
    let folder = try TemporaryFolder()
    let calldir = try builtExecutable("calldir")
    let dump = try generatedDump(folder, calldir: calldir)
    let temp = folder.path("spare")
    try FileManager.default.createDirectory(atPath: temp, withIntermediateDirectories: true)
    let compiled = try runProcess(
      calldir, ["compile", dump, "--out", folder.path("box"), "--temp", temp, "--memory", "1MiB"])
    #expect(compiled.status == 0, "\(compiled.stderr)")
    #expect(compiled.stdout.contains("in \(temp)"), "\(compiled.stdout)")
    #expect(
      !compiled.stdout.contains("temporary space 0 B"), "runs were written: \(compiled.stdout)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: temp).isEmpty)
    // 10 TiB of input, sparse: its runs cannot fit this volume.
    let huge = folder.path("huge.tsv")
    #expect(FileManager.default.createFile(atPath: huge, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
    try handle.truncate(atOffset: 10 << 40)
    try handle.close()
    let refused = try runProcess(calldir, ["compile", huge, "--out", folder.path("never")])
    #expect(refused.status == 1)
    #expect(
      refused.stderr.contains("of temporary space") && refused.stderr.contains("--temp DIR"),
      "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("never")))
  }

  @Test func normalizeListsEveryCountry() throws {
    let list = try runProcess(try builtExecutable("calldir"), ["normalize", "--list-countries"])
    #expect(list.status == 0)
    #expect(list.stdout.contains("RU\t+7\t810\t8\n"), "\(list.stdout.prefix(200))")
    #expect(list.stdout.contains("AU\t+61\t0011\t0\n"))
    #expect(list.stdout.split(separator: "\n").count > 240)
  }

  func normalize(_ arguments: [String], input: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try builtExecutable("calldir"))
    process.arguments = ["normalize"] + arguments
    let stdin = Pipe()
    let output = Pipe()
    process.standardInput = stdin
    process.standardOutput = output
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text
  }

  @Test func normalizeIsAFilter() throws {
    #expect(
      try normalize(["--country", "CN"], input: "0755-12345678\r\n185 1234 8497\nabc\n")
        == "8675512345678\n8618512348497\nerror: no digits\n")
  }

  @Test func normalizeValidatesAsAsked() throws {
    let input = "(415) 555-1212\n(115) 555-1212\n"
    #expect(try normalize(["--country", "US"], input: input) == "14155551212\n11155551212\n")
    #expect(
      try normalize(["--country", "US", "--validate", "valid"], input: input)
        == "14155551212\nerror: +1 1155551212 is not a valid number of US\n")
  }
}

@Suite("calldir host lookup reads numbers as normalize does")
struct LookupCommandTests {
  @Test func nationalFormsNeedACountryAndBadNumbersAreOneLine() throws {
    let samples = DatasetProfile.profilesDirectory().appendingPathComponent("samples").path
    let folder = try TemporaryFolder()
    let calldir = try builtExecutable("calldir")
    let box = folder.path("box")
    let host = ["--host-dir", folder.path("host")]
    #expect(
      try runProcess(calldir, ["compile", samples + "/sample.tsv", "--out", box]).status == 0)
    let enabled = try runProcess(
      calldir, ["host", "enable", "com.example.lookup", "--container", box] + host)
    #expect(enabled.status == 0, "\(enabled.stderr)")
    func lookup(_ arguments: [String]) throws -> ProcessRun {
      try runProcess(calldir, ["host", "lookup"] + arguments + host)
    }
    // The seed set holds the highest-ranked number, 74951234567.
    for written in ["74951234567", "+7 (495) 123-45-67", "+7 495 123 45 67 доб. 12"] {
      let run = try lookup([written])
      #expect(run.stdout == "Аптека Ригла\n", "\(written): \(run.stderr)")
    }
    let national = try lookup(["8 (495) 123-45-67", "--country", "ru"])
    #expect(national.stdout == "Аптека Ригла\n", "\(national.stderr)")
    let international = try lookup(["810 7 495 123-45-67", "--country", "RU"])
    #expect(international.stdout == "Аптека Ригла\n", "\(international.stderr)")
    for bad in [
      ["+7 495 x"], ["0"], ["abc"], ["123456789012345678901"], ["8 495", "--country", "RU"],
    ] {
      let run = try lookup(bad)
      #expect(run.status == 1, "\(bad)")
      #expect(run.stderr.hasPrefix("calldir: '"), "\(bad): \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(bad): \(run.stderr)")
    }
    let unknownCountry = try lookup(["84951234567", "--country", "XX"])
    #expect(unknownCountry.status == 1)
    #expect(unknownCountry.stderr.contains("unknown country 'XX'"), "\(unknownCountry.stderr)")
  }
}
