import Foundation
import TestSupport
import Testing

/// `calldir export lcidl --dump`: a dump exported as `calldir compile` reads it, with each
/// identity's category from its own row (issue 43).
@Suite("export lcidl --dump: the compiler's reading and a category per row")
struct ExportFromDumpTests {
  let calldir = builtExecutablePath("calldir")

  /// Number → (category, name) of every identity row, and the block rows' bytes by number.
  func read(_ out: String) throws -> (
    identities: [String: (category: UInt64, name: String)], block: [String: [UInt8]]
  ) {
    var identities: [String: (UInt64, String)] = [:]
    for row in try KeywordDatabaseReader.rows(of: out + "/identity.binpb") {
      identities[row.keyword] = (
        try KeywordDatabaseReader.category(in: row.value),
        try KeywordDatabaseReader.name(in: row.value)
      )
    }
    var block: [String: [UInt8]] = [:]
    for row in try KeywordDatabaseReader.rows(of: out + "/block.binpb") {
      block[row.keyword] = row.value
    }
    return (identities, block)
  }

  func export(_ arguments: [String], out: String) throws -> ProcessRun {
    try runProcess(
      calldir, ["export", "lcidl", "--out", out, "--bundle-id", "com.example.live"] + arguments)
  }

  @Test func eachIdentityHasItsOwnRowsCategoryAsTheChosenRowSaysIt() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("d.tsv")
    try """
    number\tlabel\tcategory
    +79161234567\tIvan Petrov\tperson
    +79161234568\tPizza Roma\tbusiness
    +79161234569\tSpam caller\tspam
    +79161234570\tNo category\t
    89161234571\tLocal form\tчеловек
    +79161234567\tIvan's shop\tbusiness
    bad\tBad\tperson

    """.write(toFile: dump, atomically: true, encoding: .utf8)
    let first = try export(
      ["--dump", dump, "--person-category", "person,человек", "--category", "business"],
      out: folder.path("first"))
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("rejected 1 × no digits"), "\(first.stdout)")
    #expect(first.stdout.contains("identities: 3 people, 2 businesses"), "\(first.stdout)")
    let (identities, block) = try read(folder.path("first"))
    // The first of two rows for a number wins (the compiler's default), with its category.
    #expect(identities["+79161234567"]?.category == 1)
    #expect(identities["+79161234567"]?.name == "Ivan Petrov")
    #expect(identities["+79161234568"]?.category == 2)
    // A row without a category of its own takes --category.
    #expect(identities["+79161234570"]?.category == 2)
    // A national number is read with the compiler's country (RU), its category kept.
    #expect(identities["+79161234571"]?.category == 1)
    #expect(identities["+14085551212"]?.category == 1, "the test identity is a person")
    #expect(identities["+79161234569"] == nil, "a spam row is blocked, not an identity")
    #expect(block["+79161234569"] == [1])
    #expect(block["+79161234567"] == [0])
    #expect(block.count == 6)
    // --duplicates last: the last row wins, with its name and its category.
    let last = try export(
      ["--dump", dump, "--duplicates", "last", "--person-category", "person,человек"],
      out: folder.path("last"))
    #expect(last.status == 0, "\(last.stderr)")
    let lastRead = try read(folder.path("last"))
    #expect(lastRead.identities["+79161234567"]?.name == "Ivan's shop")
    #expect(lastRead.identities["+79161234567"]?.category == 2)
    // Nothing of the compile is left beside the output.
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(!left.contains { $0.hasPrefix(".calldir-export-") }, "\(left)")
  }

  /// Without categories of their own, the two paths give the same bytes: the dump's export is
  /// the export of the container `calldir compile` makes of it.
  @Test func aDumpExportsAsItsCompiledContainerDoes() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("dump.tsv")
    #expect(
      try runProcess(
        calldir,
        [
          "generate", "--profile", "ci-smoke", "--entries", "20000", "--format", "tsv", "--out",
          dump,
        ]
      ).status == 0)
    let box = folder.path("box")
    let compile = try runProcess(calldir, ["compile", dump, "--out", box, "--seed-size", "0"])
    #expect(compile.status == 0, "\(compile.stderr)")
    let viaContainer = try export(["--container", box], out: folder.path("a"))
    #expect(viaContainer.status == 0, "\(viaContainer.stderr)")
    let viaDump = try export(["--dump", dump], out: folder.path("b"))
    #expect(viaDump.status == 0, "\(viaDump.stderr)")
    for name in ["block.binpb", "identity.binpb", "block-config.json", "identity-config.json"] {
      let a = try Data(contentsOf: URL(fileURLWithPath: folder.path("a/" + name)))
      let b = try Data(contentsOf: URL(fileURLWithPath: folder.path("b/" + name)))
      #expect(a == b, "\(name) differs")
    }
    #expect(try read(folder.path("b")).block.count > 19_000)
  }

  @Test(arguments: [
    ([], "give --container DIR or --dump FILE"),
    (["--container", "x", "--dump", "y.tsv"], "not both"),
    (["--container", "x", "--label-column", "name"], "--label-column reads a dump"),
    (
      ["--dump", "y.tsv", "--business-category", "a,b", "--person-category", "b"], "'b' is in both"
    ),
    (["--dump", "missing.tsv"], "cannot read missing.tsv"),
  ])
  func usageErrorsSayWhatIsWrongAndWriteNothing(arguments: [String], message: String) throws {
    let folder = try TemporaryFolder()
    let result = try runProcess(
      calldir,
      ["export", "lcidl", "--out", folder.path("out"), "--bundle-id", "com.example.live"]
        + arguments, directory: folder.url)
    #expect(result.status != 0)
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("out/block.binpb")))
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(!left.contains { $0.hasPrefix(".calldir-export-") }, "\(left)")
  }

  /// A service URL iOS 26.4 would refuse ends the export before anything is written (exit 1,
  /// the rules named); good ones are confirmed in the output.
  @Test func serviceURLsAreCheckedAgainstTheRulesBeforeAnythingIsWritten() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("d.tsv")
    try "number\tlabel\n+79161234567\tPizza Roma\n".write(
      toFile: dump, atomically: true, encoding: .utf8)
    let refused = try export(
      ["--dump", dump, "--service-url", "http://example.net:8080/lookup"], out: folder.path("bad"))
    #expect(refused.status == 1)
    #expect(
      refused.stderr.contains(
        "--service-url 'http://example.net:8080/lookup': not HTTPS; a port other than HTTPS's 443; a path"
      ), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("bad")))
    let issuer = try export(
      ["--dump", dump, "--issuer-url", "https://issuer.example.net/"], out: folder.path("bad"))
    #expect(issuer.status == 1 && issuer.stderr.contains("trailing '/'"), "\(issuer.stderr)")
    let good = try export(
      [
        "--dump", dump, "--service-url", "https://service.example.net", "--issuer-url",
        "https://issuer.example.net",
      ], out: folder.path("good"))
    #expect(good.status == 0, "\(good.stderr)")
    #expect(good.stdout.contains("service URL https://service.example.net: ok"), "\(good.stdout)")
    #expect(good.stdout.contains("issuer URL https://issuer.example.net: ok"))
  }

  /// The checklist's figures: each dataset's request, response and key sizes, always; the
  /// traffic per continent with --devices and --lookups-per-day; a bad --devices refused
  /// before anything is written.
  @Test func theChecklistsSizesAndTrafficAreStated() throws {
    let folder = try TemporaryFolder()
    let dump = folder.path("d.tsv")
    try "number\tlabel\n+79161234567\tPizza Roma\n".write(
      toFile: dump, atomically: true, encoding: .utf8)
    let plain = try export(["--dump", dump], out: folder.path("plain"))
    #expect(plain.status == 0, "\(plain.stderr)")
    #expect(
      plain.stdout.contains(
        "  block: request 28.2 KB (1 ciphertext), response 24.6 KB (2 ciphertexts)"),
      "\(plain.stdout)")
    #expect(!plain.stdout.contains("traffic ("))
    let traffic = try export(
      [
        "--dump", dump, "--devices", "europe=200000,asia=1000", "--lookups-per-day", "3",
        "--busiest-hour-percent", "12",
      ], out: folder.path("traffic"))
    #expect(traffic.status == 0, "\(traffic.stderr)")
    #expect(
      traffic.stdout.contains(
        "  europe: 200,000 devices, 1,200,000 requests a day, peak 40 requests a second"),
      "\(traffic.stdout)")
    #expect(
      traffic.stdout.contains(
        "  asia: 1,000 devices, 6,000 requests a day, peak 0.2 requests a second"))
    for (arguments, message) in [
      (
        ["--devices", "europa=3", "--lookups-per-day", "1"],
        "--devices: unknown continent \"europa\""
      ),
      (["--devices", "europe=3"], "--devices needs --lookups-per-day"),
      (["--lookups-per-day", "2"], "--lookups-per-day applies with --devices"),
      (
        ["--devices", "europe=3", "--lookups-per-day", "1", "--busiest-hour-percent", "0"],
        "busiest hour"
      ),
    ] {
      let refused = try export(["--dump", dump] + arguments, out: folder.path("bad"))
      #expect(
        refused.status == 1 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
      #expect(!FileManager.default.fileExists(atPath: folder.path("bad")))
    }
  }

  /// An export whose PIR parameters differ from the previous one's in the folder says so, with
  /// the old and new values and refreshPIRParameters; the same export again says nothing.
  @Test func aChangeOfPIRParametersIsNamedWithTheCallThatRefreshesThem() throws {
    let folder = try TemporaryFolder()
    let small = folder.path("small.tsv")
    try "number\tlabel\n+79161234567\tPizza Roma\n".write(
      toFile: small, atomically: true, encoding: .utf8)
    let large = folder.path("large.tsv")
    try
      ("number\tlabel\n"
      + (0..<12_000).map { "+7916\(2_000_000 + $0 * 3)\tShop \($0 % 50)\n" }.joined())
      .write(toFile: large, atomically: true, encoding: .utf8)
    let out = folder.path("out")
    let first = try export(["--dump", small], out: out)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(!first.stderr.contains("refreshPIRParameters"), "no previous export: \(first.stderr)")
    let again = try export(["--dump", small], out: out)
    #expect(!again.stderr.contains("refreshPIRParameters"), "\(again.stderr)")
    let grown = try export(["--dump", large], out: out)
    #expect(grown.status == 0, "\(grown.stderr)")
    let note = grown.stderr.split(separator: "\n").first {
      $0.contains("identity-config.json: shards 1 → ")
    }
    #expect(
      note?.contains("LiveCallerIDLookupManager.refreshPIRParameters") == true, "\(grown.stderr)")
  }

  /// The icon limit is one number in the help, the article and the refusal; a refused icon
  /// fails the export unless --skip-bad-icons; the default sharding writes sha256 where
  /// doubleMod would assign the same shards, and double-mod names the devices it shuts out
  /// (issue 69, item 5).
  @Test func theIconLimitIsOneNumberAndTheShardingSaysWhatItCosts() throws {
    let help = try runProcess(calldir, ["export", "lcidl", "--help"])
    let article = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/calldir/calldir.docc/LiveCallerIDLookup.md"),
      encoding: .utf8)
    let flatHelp = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(flatHelp.contains("icons, each at most 63,487 bytes"), "\(help.stdout)")
    #expect(flatHelp.contains("is over 63,487 bytes or cannot be read fails the export"))
    #expect(
      article.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(
        "a HEIC image of at most 63,487 bytes"))
    let folder = try TemporaryFolder()
    let dump = folder.path("d.tsv")
    try
      ("number\tlabel\n"
      + (0..<12_000).map { "+7916\(2_000_000 + $0 * 3)\tShop \($0 % 50)\n" }.joined())
      .write(toFile: dump, atomically: true, encoding: .utf8)
    let icons = folder.path("icons")
    try FileManager.default.createDirectory(atPath: icons, withIntermediateDirectories: true)
    let heic: [UInt8] = [0, 0, 0, 16] + Array("ftypheic".utf8) + [0, 0, 0, 0]
    try Data(heic + [UInt8](repeating: 1, count: 63_487 - heic.count)).write(
      to: URL(fileURLWithPath: icons + "/+79162000000.heic"))
    try Data(heic + [UInt8](repeating: 1, count: 63_488 - heic.count)).write(
      to: URL(fileURLWithPath: icons + "/+79162000003.heic"))
    let out = folder.path("out")
    let refused = try export(["--dump", dump, "--icons", icons], out: out)
    #expect(refused.status == 1, "\(refused.stderr)")
    #expect(
      refused.stderr.contains(
        "refused icon +79162000003.heic: 63488 bytes, over the 63487 an identity leaves for its icon; nothing was exported"
      ), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out + "/identity.binpb"))
    let skipped = try export(["--dump", dump, "--icons", icons, "--skip-bad-icons"], out: out)
    #expect(skipped.status == 0, "\(skipped.stderr)")
    #expect(skipped.stderr.contains("calldir: refused +79162000003.heic: 63488 bytes"))
    #expect(skipped.stdout.contains("(1 with an icon"), "\(skipped.stdout)")
    #expect(
      skipped.stdout.contains(
        "block-config.json: 1 shard (sha256, the shards doubleMod 4 would assign, on every device)"
      ), "\(skipped.stdout)")
    let forced = try export(["--dump", dump, "--sharding", "double-mod"], out: out)
    #expect(
      forced.stdout.contains(
        "block-config.json: 1 shard (doubleMod 4, the shards sha256 assigns; devices before iOS 18.2 and macOS 15.2 are refused it)"
      ), "\(forced.stdout)")
  }
}
