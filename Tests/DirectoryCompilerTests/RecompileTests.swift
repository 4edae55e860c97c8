import BaseFormat
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@testable import DirectoryCompiler

@Suite("A recompile keeps the app's state; names from input stay apart")
struct RecompileTests {
  func compile(_ tsv: String, into out: String) throws -> Manifest {
    var options = CompileOptions(inputs: [(tsv, .tsv)], output: out)
    options.seedSize = 0
    _ = try Compiler(options: options).run()
    return try Manifest.read(container: out)
  }

  func write(_ rows: [String], to path: String) throws {
    try Data((["number\tlabel\tregion"] + rows).joined(separator: "\n").utf8).write(
      to: URL(fileURLWithPath: path))
  }

  @Test func chosenRegionsInstalledFilesAndTheFullSetRequestSurviveARecompile() throws {
    let folder = try TemporaryFolder()
    let out = folder.path("box")
    let dump = folder.path("dump.tsv")
    try write(
      ["+74951234567\tАптека\tMOW", "+78125550102\tКафе\tSPE", "+73832000000\tТакси\tNSK"],
      to: dump)
    _ = try compile(dump, into: out)
    // The app chose one region, asked for the full set, and the system installed it. The
    // transaction (and its lock) ends with the function.
    func appState() throws -> Manifest {
      let transaction = try ContainerTransaction(container: out)
      var app = try #require(transaction.current)
      app.chosenRegions = ["SPE"]
      app.fullSetRequested = true
      for index in app.bases.indices where app.bases[index].region != "MOW" {
        app.bases[index].installedFile = app.bases[index].file
        app.bases[index].installedSHA256 = app.bases[index].sha256
        app.bases[index].state = .installed
      }
      try transaction.commit(app)
      return app
    }
    let app = try appState()

    let same = try compile(dump, into: out)
    #expect(same.chosenRegions == ["SPE"])
    #expect(same.fullSetRequested)
    #expect(same.bases == app.bases, "same input: same files, still installed")

    // NSK is left out of the next dump: the system still holds it, so it retires.
    try write(["+74951234567\tАптека\tMOW", "+78125550102\tКафе 2\tSPE"], to: dump)
    let next = try compile(dump, into: out)
    #expect(next.chosenRegions == ["SPE"])
    let spe = try #require(next.bases.first { $0.region == "SPE" })
    #expect(spe.state == .ready, "a new file: not installed yet")
    #expect(spe.installedFile == app.bases.first { $0.region == "SPE" }?.file)
    let nsk = try #require(next.bases.first { $0.region == "NSK" })
    #expect(nsk.state == .retired)
    #expect(FileManager.default.fileExists(atPath: out + "/" + nsk.file))
  }

  @Test func regionsThatDifferOnlyInUnsafeCharactersGetTheirOwnBases() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("dump.tsv")
    try write(
      [
        "+74951234567\tA\tA B", "+74951234568\tB\tA_B", "+74951234569\tC\tA/B",
        "+74951234570\tD\tx.", "+74951234571\tE\tx,", "+74951234572\tF\t%2C", "+74951234573\tG\t-",
      ], to: dump)
    let manifest = try compile(dump, into: folder.path("box"))
    let regions = manifest.bases.compactMap(\.region)
    let expected: Set = ["A B", "A_B", "A/B", "x.", "x,", "%2C", "-"]
    #expect(Set(regions) == expected)
    #expect(Set(manifest.chosenRegions) == expected, "a comma, a % and a - stay names")
    #expect(Set(manifest.bases.map(\.name)).count == 7)
    #expect(manifest.bases.allSatisfy { $0.entries == 1 })
    #expect(try Manifest(parsing: manifest.encoded()) == manifest)
  }

  @Test func leftoversOfKilledWritersAndUnnamedBasesGoWithTheNextWriter() throws {
    let folder = try TemporaryFolder()
    let out = folder.path("box")
    let dump = folder.path("dump.tsv")
    try write(["+74951234567\tАптека\tMOW"], to: dump)
    _ = try compile(dump, into: out)
    let leftovers = [
      ".compile-99999/run-0", "manifest.cdm.tmp-99999", ".stage-99999.cdb", "bases/junk.cdb",
    ]
    try FileManager.default.createDirectory(
      atPath: out + "/.compile-99999", withIntermediateDirectories: true)
    for leftover in leftovers {
      #expect(FileManager.default.createFile(atPath: out + "/" + leftover, contents: Data([1])))
    }
    let manifest = try compile(dump, into: out)
    for leftover in leftovers + [".compile-99999"] {
      #expect(!FileManager.default.fileExists(atPath: out + "/" + leftover), "\(leftover)")
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: out + "/bases")
    #expect(Set(files.map { "bases/" + $0 }) == Set(manifest.bases.map(\.file)))
  }

  @Test func anEmptyOutputPathIsRefused() {
    #expect(throws: CompileError.self) {
      _ = try compile("/dev/null", into: "")
    }
  }

  /// Without a rank column the seed set is spread over the numbers, and said so; asking for it
  /// by rank is an error, not an empty seed set.
  @Test func withoutRanksTheSeedSetIsSpreadNotEmpty() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("dump.tsv")
    try write((0..<10).map { "+7495123450\($0)\tLabel \($0)\tMOW" }, to: dump)
    var options = CompileOptions(inputs: [(dump, .tsv)], output: folder.path("box"))
    options.seedSize = 3
    let report = try Compiler(options: options).run()
    #expect(report.seedEntries == 3)
    #expect(report.seedChoice == .spread)
    #expect(report.render().contains("seed set: 3 (spread evenly: the inputs have no rank column)"))
    options.seedBy = .rank
    options.output = folder.path("other")
    #expect(throws: CompileError.self) { _ = try Compiler(options: options).run() }
    #expect(!FileManager.default.fileExists(atPath: folder.path("other") + "/manifest.cdm"))
  }

  /// A header without a label column (and no category column for a blocking list), or without a
  /// column named on the command line, is an error naming the columns found: it used to compile
  /// every row as rejected and replace a good container with an empty one.
  @Test func aHeaderWithoutTheColumnsItNeedsIsAnError() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("dump.tsv")
    try Data("number\tcomment\n+74951234567\tАптека\n".utf8).write(to: URL(fileURLWithPath: dump))
    var options = CompileOptions(inputs: [(dump, .tsv)], output: folder.path("box"))
    do {
      _ = try Compiler(options: options).run()
      Issue.record("compiled without a label column")
    } catch let error as CompileError {
      #expect("\(error)".contains("number, comment"), "\(error)")
    }
    options.columns.label = "comment"
    options.columns.category = "kind"
    #expect(throws: CompileError.self) { _ = try Compiler(options: options).run() }
    options.columns.category = "category"
    #expect(try Compiler(options: options).run().accepted == 1)
  }

  /// A line over the limit is rejected and skipped in constant memory; the rows around it stay.
  @Test func anOverlongLineIsRejectedAndTheRowsAroundItStay() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("dump.tsv")
    var text = "number\tlabel\n+74951234567\tbefore\n+74951234568\t"
    text += String(repeating: "x", count: 3 << 20) + "\n+74951234569\tafter\n"
    try Data(text.utf8).write(to: URL(fileURLWithPath: dump))
    var options = CompileOptions(inputs: [(dump, .tsv)], output: folder.path("box"))
    options.seedSize = 0
    let report = try Compiler(options: options).run()
    #expect(report.accepted == 2)
    #expect(report.rejected[.lineTooLong]?.places == ["dump.tsv:3"])
  }
}
