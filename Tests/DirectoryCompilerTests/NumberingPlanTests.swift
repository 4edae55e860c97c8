import Datasets
import Foundation
import TestSupport
import Testing

@testable import DirectoryCompiler

/// National plans read as published (issue 67): ARCEP's MAJNUM.csv in ISO-8859-1 with quoted
/// territories, Russia's register in UTF-8 with a BOM; rows that are not dialable ranges are
/// rejected with their line, and the filters keep what they name.
@Suite("Numbering plans read as their regulators publish them")
struct NumberingPlanTests {
  /// ARCEP's header and rows, in ISO-8859-1 as the file ships (é is one byte, 0xE9).
  static let arcep = """
    EZABPQM;Tranche_Debut;Tranche_Fin;Mnémo;Territoire;Date_Attribution
    016200;0162000000;0162009999;LGC;Métropole;21/01/2021
    016201;0162010000;0162019999;DIAB;Métropole;01/01/2023
    0590;0590000000;0590099999;ORNG;"Guadeloupe, St Martin et St Barthélemy";01/01/2017
    0262;0262100000;0262199999;SRR;La Réunion - Océan indien;01/01/2017
    1010;1010;1010;FRTE;National;01/01/2017
    0700000;07000000000000;07000009999999;FRTE;Métropole;01/01/2017
    0163;0163000000;0163999999;LGC;Atlantide;01/01/2017
    0164;0164000000;0164999999;LGC;Métropole;2017-01-01

    """

  func write(_ text: String, latin1: Bool, to path: String, bom: Bool = false) throws {
    var bytes: [UInt8] = bom ? [0xEF, 0xBB, 0xBF] : []
    if latin1 {
      for scalar in text.unicodeScalars {
        let value = try #require(scalar.value < 256 ? UInt8(scalar.value) : nil)
        bytes.append(value)
      }
    } else {
      bytes += Array(text.utf8)
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  @Test func arcepRowsBecomeE164RangesOfTheirTerritorysCountry() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("MAJNUM.csv")
    try write(Self.arcep, latin1: true, to: path)
    let contents = try NumberingPlan.read(path, format: .arcep)
    #expect(contents.rowsRead == 8)
    #expect(
      contents.ranges.map(\.pattern) == [
        "+33162000000..+33162009999", "+33162010000..+33162019999",
        "+590590000000..+590590099999", "+262262100000..+262262199999",
      ])
    #expect(contents.ranges[0].operator == "LGC" && contents.ranges[0].allocated == "2021-01-21")
    #expect(contents.ranges[2].region == "Guadeloupe, St Martin et St Barthélemy")
    #expect(contents.ranges[0].line == 2 && contents.ranges[3].line == 5)
    let reasons = Dictionary(uniqueKeysWithValues: contents.rejections.map { ($0.line, $0.reason) })
    #expect(reasons.keys.sorted() == [6, 7, 8, 9])
    #expect(reasons[6]?.contains("short code") == true, "\(reasons)")
    #expect(reasons[7]?.contains("not a number of FR's plan") == true, "\(reasons)")
    #expect(reasons[8]?.contains("unknown territory \"Atlantide\"") == true, "\(reasons)")
    #expect(reasons[9]?.contains("not DD/MM/YYYY") == true, "\(reasons)")
  }

  @Test func filtersKeepTheOperatorsRegionsAndDatesTheyName() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("MAJNUM.csv")
    try write(Self.arcep, latin1: true, to: path)
    var filter = NumberingPlan.Filter()
    filter.operators = ["lgc", "orng"]
    let named = try NumberingPlan.read(path, format: .arcep, filter: filter)
    #expect(named.ranges.map(\.code) == ["016200", "0590"])
    // FRTE's short code (line 6) and machine block (7) are another operator's: left out, not
    // reported as rejected (ARCEP's real file with `--operator LGC,SDCI` reported 268 before);
    // LGC's own unreadable rows (8, 9) still are.
    #expect(named.filteredOut == 4)
    #expect(named.rejections.map(\.line) == [8, 9])
    filter.operators = []
    filter.regions = ["réunion"]
    #expect(
      try NumberingPlan.read(path, format: .arcep, filter: filter).ranges.map(\.code) == [
        "0262"
      ])
    filter.regions = []
    filter.allocatedSince = "2021-01-01"
    let recent = try NumberingPlan.read(path, format: .arcep, filter: filter)
    #expect(recent.ranges.map(\.code) == ["016200", "016201"])
    // Left out before its numbers are read: 0590 and 0262 (2017), and the 2017 machine block
    // of line 7, which the plan check would reject had the filter kept it.
    #expect(recent.filteredOut == 3)
    #expect(recent.rejections.map(\.line) == [6, 8, 9])
    #expect(
      recent.ranges[0].label("{operator} · {region} · {allocated} · {code}")
        == "LGC · Métropole · 2021-01-21 · 016200")
  }

  @Test func russiasRegisterReadsCodeAndSubscriberRanges() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("DEF-9xx.csv")
    try write(
      """
      АВС/ DEF;От;До;Емкость;Оператор;Регион;Территория ГАР;ИНН
      900;0000000;0061999;62000;ООО "Т2 Мобайл";Краснодарский край;Краснодарский край;7743895280
      916;1000000;1999999;1000000;ПАО "Мобильные ТелеСистемы";-;г. Москва;7740000076
      916;2000000;2000999;999;ПАО "МТС";г. Москва;г. Москва;7740000076
      9160;1;2;2;x;y;z;1

      """, latin1: false, to: path, bom: true)
    let contents = try NumberingPlan.read(path, format: .russia)
    #expect(
      contents.ranges.map(\.pattern) == [
        "+79000000000..+79000061999", "+79161000000..+79161999999",
      ])
    #expect(contents.ranges[0].operator == "ООО \"Т2 Мобайл\"")
    #expect(contents.ranges[1].region == "г. Москва", "the GAR territory when the region is '-'")
    #expect(contents.ranges[1].operatorID == "7740000076")
    #expect(contents.rejections.map(\.line) == [4, 5])
    #expect(contents.rejections[0].reason.contains("capacity says 999, the range holds 1000"))
    var byINN = NumberingPlan.Filter()
    byINN.operators = ["7743895280"]
    #expect(try NumberingPlan.read(path, format: .russia, filter: byINN).ranges.count == 1)
  }

  /// NANPA's allutlzd.txt: tab-separated, fields padded with spaces, columns found by the
  /// header's names; each assigned NPA-NXX is its ten thousand numbers, an unassigned one or a
  /// code that is not NPA-NXX is rejected with its line.
  @Test func nanpasCodesInUseAreTenThousandNumbersEach() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("allutlzd.txt")
    try write(
      [
        "State \tNPA-NXX\tOCN \tCompany                       \tRateCenter  \tEffectiveDate\tUse\tAssignDate",
        "NJ    \t201-200\t9102\tVERIZON NEW JERSEY, INC.      \tJERSEYCITY  \t01/01/2000   \tAS \t",
        "PR    \t787-200\t3391\tPUERTO RICO TELEPHONE COMPANY \tSAN JUAN    \t5/12/2003 00:00:00\tAS \t",
        "NJ    \t201-201\t    \t                              \tJERSEYCITY  \t             \tUA \t",
        "NJ    \t201-2X2\t9102\tVERIZON NEW JERSEY, INC.      \tJERSEYCITY  \t01/01/2000   \tAS \t",
        "NJ    \t201-203\t9102\tVERIZON NEW JERSEY, INC.      \tJERSEYCITY  \t2000-01-01   \tAS \t",
        "",
      ].joined(separator: "\n"), latin1: false, to: path)
    let contents = try NumberingPlan.read(path, format: .nanpa)
    #expect(contents.rowsRead == 5)
    #expect(
      contents.ranges.map(\.pattern) == [
        "+12012000000..+12012009999", "+17872000000..+17872009999",
      ])
    #expect(contents.ranges.allSatisfy { $0.numberCount == 10_000 })
    #expect(
      contents.ranges[0].operator == "VERIZON NEW JERSEY, INC."
        && contents.ranges[0].operatorID == "9102")
    #expect(
      contents.ranges[0].region == "JERSEYCITY, NJ" && contents.ranges[1].allocated == "2003-05-12")
    let reasons = Dictionary(uniqueKeysWithValues: contents.rejections.map { ($0.line, $0.reason) })
    #expect(reasons.keys.sorted() == [4, 5, 6])
    #expect(reasons[4]?.contains("201-201 is not assigned (Use UA)") == true, "\(reasons)")
    #expect(reasons[5]?.contains("is not two 3-digit codes") == true, "\(reasons)")
    #expect(reasons[6]?.contains("not MM/DD/YYYY") == true, "\(reasons)")
    var filter = NumberingPlan.Filter()
    filter.operators = ["3391"]
    #expect(
      try NumberingPlan.read(path, format: .nanpa, filter: filter).ranges.map(\.code) == ["787-200"]
    )
    filter.operators = []
    filter.regions = ["nj"]
    #expect(
      try NumberingPlan.read(path, format: .nanpa, filter: filter).ranges.map(\.code) == ["201-200"]
    )
    // The columns are found by name: a file whose columns come in another order reads the same.
    let reordered = folder.path("reordered.txt")
    try write(
      "Use\tCompany\tNPA-NXX\nAS\tX\t201-200\n", latin1: false, to: reordered)
    #expect(
      try NumberingPlan.read(reordered, format: .nanpa).ranges.map(\.pattern) == [
        "+12012000000..+12012009999"
      ])
    #expect(throws: CompileError.self) { try NumberingPlan.read(path, format: .arcep) }
  }

  /// Writes a zip archive at `path` with Python's zipfile (an independent writer): each member
  /// is (its name in the archive, a file to take or a text to write), deflated unless `stored`.
  func zip(_ path: String, _ members: [(String, String)], stored: Bool = false) throws {
    let script = """
      import sys, zipfile
      method = zipfile.ZIP_STORED if sys.argv[2] == "stored" else zipfile.ZIP_DEFLATED
      with zipfile.ZipFile(sys.argv[1], "w", method) as archive:
          for pair in sys.argv[3:]:
              name, source = pair.split("=", 1)
              archive.write(source, name)
      """
    let folder = (path as NSString).deletingLastPathComponent
    var arguments = ["python3", "-c", script, path, stored ? "stored" : "deflated"]
    for (index, (name, text)) in members.enumerated() {
      if FileManager.default.fileExists(atPath: text) {
        arguments.append("\(name)=\(text)")
      } else {
        let source = folder + "/.member-\(index)"
        try text.write(toFile: source, atomically: true, encoding: .utf8)
        arguments.append("\(name)=\(source)")
      }
    }
    let run = try runProcess("/usr/bin/env", arguments)
    #expect(run.status == 0, "\(run.stderr)")
  }

  /// Why reading `path` as NANPA's plan failed ("read" when it did not).
  func refusal(_ path: String, entry: String? = nil) -> String {
    do {
      _ = try NumberingPlan.read(path, format: .nanpa, entry: entry)
      return "read"
    } catch {
      return "\(error)"
    }
  }

  /// A plan in a zip reads as the plan itself: stored or deflated, in a folder of the archive,
  /// inside a zip inside the zip (BNetzA ships one), or named with `entry` among several; a
  /// damaged or ambiguous archive is refused with its reason.
  @Test(.enabled(if: isInPath("python3"), "needs python3's zipfile to write the archives"))
  func aPlanInAZipReadsAsThePlan() throws {
    let folder = try TemporaryFolder()
    let plain = folder.path("allutlzd.txt")
    let text = "State\tNPA-NXX\tCompany\tUse\nNJ\t201-200\tX\tAS\nNJ\t201-201\tY\tAS\n"
    try text.write(toFile: plain, atomically: true, encoding: .utf8)
    let expected = try NumberingPlan.read(plain, format: .nanpa).ranges
    #expect(expected.count == 2)
    let deflated = folder.path("allutlzd.zip")
    try zip(deflated, [("allutlzd.txt", plain), ("readme.pdf", "not a plan")])
    #expect(try NumberingPlan.read(deflated, format: .nanpa).ranges == expected)
    let stored = folder.path("stored.zip")
    try zip(stored, [("data/allutlzd.txt", plain)], stored: true)
    #expect(try NumberingPlan.read(stored, format: .nanpa).ranges == expected)
    let nested = folder.path("nested.zip")
    try zip(nested, [("inner.zip", deflated)])
    #expect(try NumberingPlan.read(nested, format: .nanpa).ranges == expected)
    let several = folder.path("several.zip")
    try zip(several, [("a.txt", plain), ("b.txt", plain)])
    #expect(try NumberingPlan.read(several, format: .nanpa, entry: "b.txt").ranges == expected)
    #expect(
      refusal(several).contains(
        "several files could be the plan (a.txt, b.txt): name one with --entry"))
    #expect(refusal(several, entry: "c.txt").contains("no entry c.txt in the archive"))
    #expect(refusal(plain, entry: "x.txt").contains("not a zip archive"))
    // A byte of the stored member changed: its CRC-32 gives it away.
    var damaged = try [UInt8](Data(contentsOf: URL(fileURLWithPath: stored)))
    let marker = Array("201-201".utf8)
    let at = try #require(
      (0..<(damaged.count - marker.count)).first {
        Array(damaged[$0..<($0 + marker.count)]) == marker
      })
    damaged[at] ^= 0x01
    let broken = folder.path("broken.zip")
    try Data(damaged).write(to: URL(fileURLWithPath: broken))
    #expect(
      refusal(broken).contains("its CRC-32 is not the one the archive states"), "\(refusal(broken))"
    )
    let cut = folder.path("cut.zip")
    try Data(damaged.prefix(damaged.count / 2)).write(to: URL(fileURLWithPath: cut))
    #expect(refusal(cut).contains("a zip archive whose directory does not read"), "\(refusal(cut))")
  }

  /// Damaged archives never trap: 300 copies of a real zip, each with bytes changed at random
  /// (its headers, sizes, offsets and stream alike), are each read or refused with a reason.
  @Test(.enabled(if: isInPath("python3"), "needs python3's zipfile to write the archives"))
  func aDamagedArchiveIsReadOrRefusedNeverATrap() throws {
    let folder = try TemporaryFolder()
    let plain = folder.path("allutlzd.txt")
    try "State\tNPA-NXX\tCompany\tUse\nNJ\t201-200\tX\tAS\nNJ\t201-201\tY\tAS\n".write(
      toFile: plain, atomically: true, encoding: .utf8)
    let archive = folder.path("allutlzd.zip")
    try zip(archive, [("allutlzd.txt", plain)])
    let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: archive)))
    let expected = try NumberingPlan.read(plain, format: .nanpa).ranges
    var generator = SplitMix64(seed: 67)
    var refused = 0
    for round in 0..<300 {
      var damaged = original
      for _ in 0...Int.random(in: 0...3, using: &generator) {
        damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
          in: 0...255, using: &generator)
      }
      let path = folder.path("damaged-\(round).zip")
      try Data(damaged).write(to: URL(fileURLWithPath: path))
      if refusal(path) != "read" {
        refused += 1
      } else {
        // What reads is what was zipped: the CRC-32 holds the member's bytes.
        #expect(try NumberingPlan.read(path, format: .nanpa).ranges == expected, "round \(round)")
      }
    }
    #expect(refused > 0, "some damage is found")
  }

  /// A member that inflates past the plan's limit is stopped as it inflates, whatever size the
  /// archive states.
  @Test(.enabled(if: isInPath("python3"), "needs python3's zipfile to write the archives"))
  func aZipBombIsStoppedAtThePlansLimit() throws {
    let folder = try TemporaryFolder()
    let bomb = folder.path("bomb.zip")
    let script = """
      import sys, zipfile
      with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as archive:
          with archive.open("allutlzd.txt", "w") as member:
              member.write(b"State\\tNPA-NXX\\tCompany\\tUse\\n")
              for _ in range(65):
                  member.write(b" " * (1 << 20))
      """
    let run = try runProcess("/usr/bin/env", ["python3", "-c", script, bomb])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(refusal(bomb).contains("inflates past 64 MiB"), "\(refusal(bomb))")
  }

  /// The filter's comparisons without case: ASCII folded byte by byte, other text lowercased,
  /// as `lowercased()` would answer.
  @Test(arguments: [
    ("JERSEYCITY, NJ", ", nj", true), ("JerseyCity", "cityx", false), ("ab", "abc", false),
    ("La Réunion - Océan indien", "réunion", true), ("Краснодарский край", "краснодар", true),
    ("", "", false), ("x", "", false),
  ])
  func filtersCompareWithoutCase(text: String, term: String, holds: Bool) {
    #expect(CaseFolding.contains(text, term) == holds)
    #expect(CaseFolding.contains(text, term) == text.lowercased().contains(term))
    #expect(CaseFolding.equal(text, text.lowercased()))
    #expect(CaseFolding.equal(text, term) == (text.lowercased() == term))
  }

  @Test func aFileInAnotherFormatOrEncodingIsRefusedWhole() throws {
    let folder = try TemporaryFolder()
    let arcep = folder.path("MAJNUM.csv")
    try write(Self.arcep, latin1: true, to: arcep)
    #expect(throws: CompileError.self) { try NumberingPlan.read(arcep, format: .russia) }
    do {
      _ = try NumberingPlan.read(arcep, format: .russia)
    } catch {
      #expect("\(error)".contains("not UTF-8"), "\(error)")
    }
    let tsv = folder.path("dump.tsv")
    try write("number\tlabel\n+79161234567\tA\n", latin1: false, to: tsv)
    do {
      _ = try NumberingPlan.read(tsv, format: .arcep)
      Issue.record("a dump read as a plan")
    } catch {
      #expect("\(error)".contains("the header should be"), "\(error)")
    }
    #expect(throws: CompileError.self) {
      try NumberingPlan.read(folder.path("missing.csv"), format: .arcep)
    }
  }
}
