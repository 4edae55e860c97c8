import CallDirectoryHost
import Foundation
import TestSupport
import Testing

/// Number patterns end to end, as a user runs them (issue 54): compile with a pattern file, an
/// explicit list and exceptions; enable and sync through the simulated system past its cap;
/// the store read back; a prefix added and removed by an incremental sync; lookups, inspection
/// and bad input.
@Suite("Number patterns: compiled into rule bases, expanded by the extension")
struct PatternRulesTests {
  let calldir = builtExecutablePath("calldir")
  let bundleID = "com.example.patterns"

  /// Three French prefixes of four `#` each (30,000 numbers), in the plan's own form.
  static let plan = """
    pattern\tcategory\tpriority
    +33 1 62 00 ## ##\ttelemarketing\t
    +33 1 63 00 ## ##\ttelemarketing\t
    +33 9 48 00 ## ##\ttelemarketing\t5
    """

  func write(_ text: String, _ path: String) throws {
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  func store(_ host: String) throws -> CallDirectoryStore.Tables {
    try CallDirectoryStore(path: host + "/" + SimulatedSystem.databaseFileName).tables()
  }

  /// The prefixes' numbers, each range whole, less `allowed`.
  func expanded(_ prefixes: [Int64], less allowed: Set<Int64>) -> Set<Int64> {
    var numbers = Set<Int64>()
    for prefix in prefixes {
      for suffix in 0..<Int64(10_000) where !allowed.contains(prefix * 10_000 + suffix) {
        numbers.insert(prefix * 10_000 + suffix)
      }
    }
    return numbers
  }

  @Test func aPlanInstallsPastTheCapWithItsExceptionsAbsentAndChangesByThePrefix() throws {
    let folder = try TemporaryFolder()
    try write(Self.plan, folder.path("plan.tsv"))
    try write("number\n+33162001234\n+33948009999\n", folder.path("allow.txt"))
    // An explicit list: some numbers inside the ranges (given once), some outside, and one
    // allowed number (explicit lists keep it).
    try write(
      "number\tlabel\n+33162000005\tx\n+33612345678\tx\n+33612345679\tx\n+33162001234\tx\n",
      folder.path("list.tsv"))
    let box = folder.path("box")
    let host = folder.path("host")
    func compile(_ plan: String) throws -> ProcessRun {
      try runProcess(
        calldir,
        [
          "compile", "--block", folder.path("list.tsv"), "--out", box, "--block-patterns", plan,
          "--allow", folder.path("allow.txt"), "--country", "FR", "--allow-shrink",
        ])
    }
    let compiled = try compile(folder.path("plan.tsv"))
    #expect(compiled.status == 0, "\(compiled.stderr)")
    #expect(
      compiled.stdout.contains("rules-blocking: 3 pattern rules in 4 ranges, 29998 numbers"),
      "\(compiled.stdout)")
    // A cap of 12,000 entries a request: the rules and the list take three.
    let hostFlags = ["--host-dir", host, "--max-entries", "12001"]
    let enabled = try runProcess(
      calldir, ["host", "enable", bundleID, "--container", box] + hostFlags)
    #expect(enabled.status == 0, "\(enabled.stderr)")
    var synced = ""
    for _ in 0..<6 {
      let sync = try runProcess(calldir, ["app", "sync", bundleID, "--container", box] + hostFlags)
      #expect(sync.status == 0, "\(sync.stderr)")
      synced += sync.stdout
      if sync.stdout.contains("nothing pending") { break }
    }
    #expect(synced.contains("nothing pending"), "\(synced)")
    let allowed: Set<Int64> = [33_162_001_234, 33_948_009_999]
    var expected = expanded([3_316_200, 3_316_300, 3_394_800], less: allowed)
    expected.formUnion([33_612_345_678, 33_612_345_679, 33_162_001_234])
    let tables = try store(host)
    #expect(tables.blocking.count == expected.count)
    #expect(Set(tables.numbers) == expected, "each range whole, the exceptions absent")

    // `app status` says what each rule base holds and how much of it is installed, in one
    // line; with --verbose, range by range (issue 65, item 6).
    let summary = try runProcess(
      calldir, ["app", "status", bundleID, "--container", box, "--host-dir", host])
    #expect(summary.status == 0, "\(summary.stderr)")
    #expect(
      summary.stdout.contains(
        "rules-blocking: 29998 numbers in 4 pattern ranges, 29998 installed (--verbose lists them)"),
      "\(summary.stdout)")
    #expect(!summary.stdout.contains("33163000000 … 33163009999"), "\(summary.stdout)")
    let status = try runProcess(
      calldir, ["app", "status", bundleID, "--container", box, "--host-dir", host, "--verbose"])
    #expect(status.status == 0, "\(status.stderr)")
    #expect(
      status.stdout.contains("rules-blocking: 29998 numbers in 4 pattern ranges\n"),
      "\(status.stdout)")
    #expect(
      status.stdout.contains("33163000000 … 33163009999\t10000 numbers, 10000 installed"),
      "\(status.stdout)")
    // A lookup names the rule that blocks a number; the rule base lists its ranges.
    let lookup = try runProcess(
      calldir,
      ["host", "lookup", "01 63 00 12 34", "--country", "FR", "--container", box] + hostFlags)
    #expect(lookup.status == 0, "\(lookup.stderr)")
    #expect(lookup.stdout.contains("blocked"), "\(lookup.stdout)")
    #expect(lookup.stdout.contains("telemarketing · plan.tsv:3"), "\(lookup.stdout)")
    let manifest = try String(contentsOfFile: box + "/manifest.cdm", encoding: .utf8)
    let ruleFile = try #require(
      manifest.split(separator: "\n").first { $0.hasPrefix("base\trules-blocking") }?
        .split(separator: "\t")[10])
    let inspected = try runProcess(calldir, ["inspect", box + "/" + ruleFile])
    #expect(inspected.status == 0, "\(inspected.stderr)")
    #expect(inspected.stdout.contains("29998 in 4 ranges"), "\(inspected.stdout)")
    #expect(inspected.stdout.contains("33163000000 … 33163009999\t10000"), "\(inspected.stdout)")

    // One prefix more: the incremental request adds that prefix's numbers and nothing else.
    try write(Self.plan + "\n+33 9 49 00 ## ##\ttelemarketing\t\n", folder.path("plan2.tsv"))
    #expect(try compile(folder.path("plan2.tsv")).status == 0)
    let added = try runProcess(calldir, ["app", "sync", bundleID, "--container", box] + hostFlags)
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout.contains("(10000 added, 0 removed)"), "\(added.stdout)")
    // And one prefix less: its numbers go, the rest stay.
    try write(
      "pattern\tcategory\n+33 1 62 00 ## ##\tt\n+33 9 48 00 ## ##\tt\n+33 9 49 00 ## ##\tt\n",
      folder.path("plan3.tsv"))
    #expect(try compile(folder.path("plan3.tsv")).status == 0)
    let removed = try runProcess(
      calldir, ["app", "sync", bundleID, "--container", box] + hostFlags)
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(removed.stdout.contains("(0 added, 10000 removed)"), "\(removed.stdout)")

    // The store after those changes equals a fresh install of the last version.
    let freshHost = folder.path("fresh")
    let freshFlags = ["--host-dir", freshHost, "--max-entries", "12001"]
    #expect(
      try runProcess(calldir, ["host", "enable", bundleID, "--container", box] + freshFlags).status
        == 0)
    for _ in 0..<6 {
      let sync = try runProcess(
        calldir, ["app", "sync", bundleID, "--container", box] + freshFlags)
      if sync.stdout.contains("nothing pending") { break }
    }
    #expect(try store(host) == store(freshHost))
  }

  @Test(arguments: [
    ("+33 1 62 ## ## #x", "plan.tsv:2: 'x'"),
    ("+33162000000..+3316299999", "plan.tsv:2: the range's ends have different lengths"),
    ("+33162999999..+33162000000", "plan.tsv:2: the range runs backwards"),
    ("33 1 62 ## ## ##", "plan.tsv:2: \"33 1 62 ## ## ##\" does not start with '+'"),
    (
      "+44##########",
      "plan.tsv:2: +44########## holds 10000000000 numbers, past --max-pattern-entries"
    ),
    ("+33 1 ##", "plan.tsv:2: +33 1 ## holds numbers its country's plan refuses"),
  ])
  func aBadPatternIsRefusedWithItsLineAndNothingIsWritten(pattern: String, message: String) throws {
    let folder = try TemporaryFolder()
    try write("pattern\n\(pattern)\n", folder.path("plan.tsv"))
    try write("number\tlabel\n+33612345678\tx\n", folder.path("list.tsv"))
    let run = try runProcess(
      calldir,
      [
        "compile", folder.path("list.tsv"), "--out", folder.path("box"), "--block-patterns",
        folder.path("plan.tsv"), "--country", "FR",
      ])
    #expect(run.status == 1)
    #expect(run.stderr.contains(message), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("box")))
  }

  /// An allowed number that is not a number stops the compile with its line; so does `--allow`
  /// without a pattern to cut it from.
  @Test func aBadAllowListIsRefusedWithItsLine() throws {
    let folder = try TemporaryFolder()
    try write("pattern\n+33 1 62 00 ## ##\n", folder.path("plan.tsv"))
    try write("number\tlabel\n+33612345678\tx\n", folder.path("list.tsv"))
    try write("number\n+33162000001\nnot a number\n", folder.path("allow.txt"))
    let common = [
      "compile", folder.path("list.tsv"), "--out", folder.path("box"), "--country", "FR",
      "--allow", folder.path("allow.txt"),
    ]
    let bad = try runProcess(calldir, common + ["--block-patterns", folder.path("plan.tsv")])
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("allow.txt:3: not a number"), "\(bad.stderr)")
    let alone = try runProcess(calldir, common)
    #expect(alone.status == 1)
    #expect(alone.stderr.contains("there are no patterns to allow numbers from"), "\(alone.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("box")))
  }

  /// `#` in a dump's number column is a rejected row, as before: patterns come only from the
  /// pattern flags.
  @Test func aPatternInADumpIsARejectedRow() throws {
    let folder = try TemporaryFolder()
    try write("number\tlabel\n+33 1 62 ## ## ##\tx\n+33612345678\tx\n", folder.path("list.tsv"))
    let run = try runProcess(
      calldir, ["compile", folder.path("list.tsv"), "--out", folder.path("box"), "--country", "FR"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("accepted: 1; rejected: 1"), "\(run.stdout)")
  }

  /// `export lcidl` expands a rule base into a row per number, and refuses past --max-rows with
  /// the figure before it writes anything.
  @Test func theLiveLookupExportExpandsRulesWithinItsRowBudget() throws {
    let folder = try TemporaryFolder()
    try write("pattern\n+33 1 62 00 ## ##\n", folder.path("plan.tsv"))
    try write("number\tlabel\n+33612345678\tx\n", folder.path("list.tsv"))
    let box = folder.path("box")
    let compiled = try runProcess(
      calldir,
      [
        "compile", folder.path("list.tsv"), "--out", box, "--block-patterns",
        folder.path("plan.tsv"), "--country", "FR",
      ])
    #expect(compiled.status == 0, "\(compiled.stderr)")
    let out = folder.path("lcidl")
    let refused = try runProcess(
      calldir,
      [
        "export", "lcidl", "--container", box, "--out", out, "--bundle-id", "com.example.x",
        "--max-rows", "5000",
      ])
    #expect(refused.status == 1)
    #expect(
      refused.stderr.contains("hold 10001 entries, past --max-rows 5000"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out + "/block.binpb"))
    let exported = try runProcess(
      calldir,
      ["export", "lcidl", "--container", box, "--out", out, "--bundle-id", "com.example.x"])
    #expect(exported.status == 0, "\(exported.stderr)")
    #expect(exported.stdout.contains("10000 blocked"), "\(exported.stdout)")
  }

  /// Random rule edits (a prefix added, dropped, relabelled, a range moved, an exception added),
  /// each compiled and synced incrementally: after every one the store equals a fresh install of
  /// that version, table by table (issue 54, item 5).
  @Test func aStoreAfterRandomRuleEditsEqualsAFreshInstall() throws {
    let folder = try TemporaryFolder()
    var generator = SystemRandomNumberGenerator()
    try write("number\tlabel\n+33612345678\tx\n", folder.path("list.tsv"))
    // Identification rules: labels change too. Prefixes of two `#`: 100 numbers each.
    var rules: [Int: String] = [10: "A", 20: "B", 30: "C"]
    var allowed: Set<Int> = []
    func compile(_ box: String) throws {
      var plan = "pattern\tlabel\n"
      for (prefix, label) in rules.sorted(by: { $0.key < $1.key }) {
        plan += "+33 1 62 00 \(prefix) ##\t\(label)\n"
      }
      try write(plan, folder.path("plan.tsv"))
      try write(
        "number\n" + allowed.sorted().map { "+3316200\($0)\n" }.joined(), folder.path("allow.txt"))
      let run = try runProcess(
        calldir,
        [
          "compile", folder.path("list.tsv"), "--out", box, "--identify-patterns",
          folder.path("plan.tsv"), "--country", "FR", "--allow-shrink",
        ] + (allowed.isEmpty ? [] : ["--allow", folder.path("allow.txt")]))
      #expect(run.status == 0, "\(run.stderr)")
    }
    func install(_ box: String, _ host: String, enable: Bool) throws {
      let flags = ["--container", box, "--host-dir", host]
      if enable {
        #expect(try runProcess(calldir, ["host", "enable", bundleID] + flags).status == 0)
      }
      let sync = try runProcess(calldir, ["app", "sync", bundleID] + flags)
      #expect(sync.status == 0, "\(sync.stderr)")
    }
    try compile(folder.path("box"))
    try install(folder.path("box"), folder.path("host"), enable: true)
    for step in 0..<8 {
      switch Int.random(in: 0..<5, using: &generator) {
      case 0: rules[Int.random(in: 10...99, using: &generator)] = "New \(step)"
      case 1: if rules.count > 1, let key = rules.keys.randomElement() { rules[key] = nil }
      case 2: if let key = rules.keys.randomElement() { rules[key] = "Relabelled \(step)" }
      case 3:
        if let key = rules.keys.randomElement() {
          let label = rules[key]
          rules[key] = nil
          rules[(key + 37) % 90 + 10] = label
        }
      default:
        if let key = rules.keys.randomElement() {
          allowed.insert(key * 100 + Int.random(in: 0...99, using: &generator))
        }
      }
      try compile(folder.path("box"))
      try install(folder.path("box"), folder.path("host"), enable: false)
      let fresh = folder.path("fresh-\(step)")
      try FileManager.default.copyItem(atPath: folder.path("box"), toPath: fresh + "-box")
      try install(fresh + "-box", fresh, enable: true)
      #expect(try store(folder.path("host")) == store(fresh), "after edit \(step): \(rules)")
    }
  }

  /// `bench patterns` runs both methods through the simulated system and both stores hold the
  /// plan: calldir in one request past enabling, saracroche in one request per 5,000 numbers of
  /// each pattern (here 100 numbers a pattern: twelve requests), plus the two fake numbers.
  @Test func theBenchInstallsThePlanBothWays() throws {
    let folder = try TemporaryFolder()
    let run = try runProcess(
      calldir,
      [
        "bench", "patterns", "--wildcards", "2", "--repeat", "1", "--out",
        folder.path("patterns.csv"), "--work", folder.path("work"),
      ])
    #expect(run.status == 0, "\(run.stderr)")
    let csv = try String(contentsOfFile: folder.path("patterns.csv"), encoding: .utf8)
    let rows = csv.split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",") }
    let calldirRow = try #require(rows.first { $0.first == "calldir" })
    let anchorRow = try #require(rows.first { $0.first == "saracroche" })
    // method, repeat, requests, store_entries, …
    #expect(calldirRow[2] == "2" && calldirRow[3] == "1200", "\(csv)")
    #expect(anchorRow[2] == "13" && anchorRow[3] == "1201", "\(csv)")
    let chart = try String(
      contentsOfFile: folder.path("patterns.svg"), encoding: .utf8)
    #expect(chart.hasPrefix("<svg") && chart.contains("saracroche"))
  }

  /// A release of a plan, then of the plan with one prefix more: publish sends the rule base
  /// whole (under 1 KiB; no patch is diffed from its 12 M numbers), and the app's update takes
  /// it.
  @Test func aNewPrefixIsPublishedAndFetchedAsARuleBaseUnder1KiB() throws {
    let folder = try TemporaryFolder()
    let plan = "pattern\n" + ["1 62", "1 63", "2 70"].map { "+33 \($0) ## ## ##\n" }.joined()
    try write(plan, folder.path("plan.tsv"))
    try write(plan + "+33 2 71 ## ## ##\n", folder.path("plan2.tsv"))
    let (box, release) = (folder.path("box"), folder.path("release"))
    for (step, file) in ["plan.tsv", "plan2.tsv"].enumerated() {
      let compiled = try runProcess(
        calldir,
        ["compile", "--out", box, "--block-patterns", folder.path(file), "--country", "FR"])
      #expect(compiled.status == 0, "\(compiled.stderr)")
      let published = try runProcess(calldir, ["publish", box, "--out", release])
      #expect(published.status == 0, "\(published.stderr)")
      if step == 0 { try FileManager.default.copyItem(atPath: box, toPath: folder.path("app")) }
    }
    let updated = try runProcess(
      calldir, ["app", "update", "--from", release, "--container", folder.path("app")])
    #expect(updated.status == 0, "\(updated.stderr)")
    #expect(updated.stdout.contains("1 fetched whole"), "\(updated.stdout)")
    let downloaded = updated.stdout.split(separator: ";").last.flatMap {
      Int($0.split(separator: " ").first { Int($0) != nil } ?? "")
    }
    #expect((downloaded ?? .max) < 1024, "\(updated.stdout)")
    let manifest = try String(contentsOfFile: folder.path("app/manifest.cdm"), encoding: .utf8)
    #expect(manifest.contains("\t4000000\t"), "\(manifest)")
  }
}
