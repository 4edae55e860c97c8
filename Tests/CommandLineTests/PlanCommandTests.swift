import CallDirectoryHost
import Foundation
import TestSupport
import Testing

/// `calldir plan` then `compile`, `host enable` and `app sync` (issue 67, item 1): an operator's
/// ranges from ARCEP's file are blocked on the phone, and its neighbours' are not.
@Suite("calldir plan: a published plan into patterns the phone blocks")
struct PlanCommandTests {
  let calldir = builtExecutablePath("calldir")

  /// Two operators' ranges in ARCEP's form and encoding (ISO-8859-1), and a short code of the
  /// operator the test keeps (another's would be left out unread).
  static let plan: [UInt8] = Array(
    """
    EZABPQM;Tranche_Debut;Tranche_Fin;Mn\u{E9}mo;Territoire;Date_Attribution
    016200;0162000000;0162009999;LGC;M\u{E9}tropole;21/01/2021
    016201;0162010000;0162019999;DIAB;M\u{E9}tropole;01/01/2023
    0162106;0162106000;0162106999;LGC;M\u{E9}tropole;27/03/2025
    1010;1010;1010;LGC;National;01/01/2017

    """.unicodeScalars.map { UInt8($0.value) })

  @Test func anOperatorsRangesAreBlockedAndTheirNeighboursAreNot() throws {
    let folder = try TemporaryFolder()
    let planPath = folder.path("MAJNUM.csv")
    try Data(Self.plan).write(to: URL(fileURLWithPath: planPath))
    let patterns = folder.path("lgc.tsv")
    let planned = try runProcess(
      calldir,
      [
        "plan", planPath, "--format", "arcep", "--operator", "LGC", "--label", "{operator}",
        "--out", patterns,
      ])
    #expect(planned.status == 0, "\(planned.stderr)")
    #expect(
      planned.stdout.contains("4 rows read; 2 ranges written")
        && planned.stdout.contains("(11000 numbers)")
        && planned.stdout.contains("1 filtered out; 1 rejected"), "\(planned.stdout)")
    #expect(planned.stderr.contains("MAJNUM.csv:5: 1010 is a short code"), "\(planned.stderr)")
    #expect(
      try String(contentsOfFile: patterns, encoding: .utf8)
        == "pattern\tlabel\tcategory\n+33162000000..+33162009999\tLGC\tLGC\n+33162106000..+33162106999\tLGC\tLGC\n"
    )
    let dump = folder.path("dump.tsv")
    try "number\tlabel\n+79161234567\tA\n".write(toFile: dump, atomically: true, encoding: .utf8)
    let box = ["--container", folder.path("box"), "--host-dir", folder.path("host")]
    let compiled = try runProcess(
      calldir, ["compile", dump, "--out", folder.path("box"), "--block-patterns", patterns])
    #expect(compiled.status == 0, "\(compiled.stderr)")
    #expect(try runProcess(calldir, ["host", "enable", "x.plan"] + box).status == 0)
    #expect(try runProcess(calldir, ["app", "sync", "x.plan"] + box).status == 0)
    let store = try CallDirectoryStore(
      path: folder.path("host") + "/" + SimulatedSystem.databaseFileName)
    let blocked = Set(try store.contents(of: "x.plan").blocking)
    #expect(blocked.count == 11_000)
    for number: Int64 in [33_162_000_000, 33_162_009_999, 33_162_106_000, 33_162_106_999] {
      #expect(blocked.contains(number), "+\(number) is LGC's")
    }
    for number: Int64 in [33_162_010_000, 33_162_105_999, 33_162_107_000] {
      #expect(!blocked.contains(number), "+\(number) is not LGC's")
    }
  }

  @Test func badPlansAreOneLineAndWriteNothing() throws {
    let folder = try TemporaryFolder()
    let planPath = folder.path("MAJNUM.csv")
    try Data(Self.plan).write(to: URL(fileURLWithPath: planPath))
    let out = folder.path("out.tsv")
    let strict = try runProcess(
      calldir, ["plan", planPath, "--format", "arcep", "--strict", "--out", out])
    #expect(strict.status == 4, "\(strict.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
    let wrongFormat = try runProcess(
      calldir, ["plan", planPath, "--format", "russia", "--out", out])
    #expect(
      wrongFormat.status == 1 && wrongFormat.stderr.contains("not UTF-8"), "\(wrongFormat.stderr)")
    let none = try runProcess(
      calldir, ["plan", planPath, "--format", "arcep", "--operator", "NOBODY", "--out", out])
    #expect(none.status == 1 && none.stderr.contains("no row is left"), "\(none.stderr)")
    let date = try runProcess(
      calldir,
      ["plan", planPath, "--format", "arcep", "--allocated-since", "21/01/2021", "--out", out])
    #expect(date.status == 1 && date.stderr.contains("not a date YYYY-MM-DD"), "\(date.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
