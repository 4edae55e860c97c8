import DirectoryContainer
import Foundation
import TestSupport
import Testing

/// Issue 53: `calldir gate` on a team's container, as the Action runs it: data judged on
/// budgets (never on data-dependent counts), calldir judged A/B only when it changed, the bases
/// named by the manifest, usage errors one line with status 1.
@Suite("calldir gate: data on budgets, calldir A/B", .serialized)
struct TeamGateTests {
  let calldir = builtExecutablePath("calldir")

  /// A git repository holding a compiled container of `entries` rows, committed on main.
  func repository(_ folder: TemporaryFolder, entries: String = "20000") throws -> String {
    let repo = folder.path("repo")
    try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
    try git(repo, ["init", "-q", "-b", "main"])
    let made = try runProcess(
      calldir,
      [
        "generate", "--profile", "ci-smoke", "--entries", entries, "--format", "tsv", "--out",
        repo + "/dump.tsv",
      ])
    #expect(made.status == 0, "\(made.stderr)")
    try compile(repo)
    try git(repo, ["add", "-A"])
    try git(repo, ["commit", "-qm", "directory"])
    return repo
  }

  func compile(_ repo: String, _ extra: [String] = []) throws {
    try? FileManager.default.removeItem(atPath: repo + "/directory")
    let run = try runProcess(
      calldir, ["compile", repo + "/dump.tsv", "--out", repo + "/directory"] + extra)
    #expect(run.status == 0, "\(run.stderr)")
  }

  func git(_ repo: String, _ arguments: [String]) throws {
    let run = try runProcess(
      "/usr/bin/env",
      ["git", "-C", repo, "-c", "user.email=t@example.com", "-c", "user.name=t"] + arguments)
    #expect(run.status == 0, "git \(arguments): \(run.stderr)")
  }

  func gate(_ repo: String, _ arguments: [String]) throws -> ProcessRun {
    try runProcess(
      calldir,
      ["gate", "--data", repo + "/directory", "--out", repo + "/../out", "--quiet"] + arguments)
  }

  func report(_ repo: String) throws -> String {
    try String(contentsOfFile: repo + "/../out/gate.md", encoding: .utf8)
  }

  /// A data pull request (new rows, relabels) against its merge base passes: the data is inside
  /// every budget, the A/B is skipped and says why, and instructions per entry are reported
  /// beside the base revision's, not gated.
  @Test func aDataChangeIsJudgedOnBudgetsNotOnCounts() throws {
    let folder = try TemporaryFolder()
    let repo = try repository(folder)
    try git(repo, ["checkout", "-q", "-b", "pr"])
    var lines = try String(contentsOfFile: repo + "/dump.tsv", encoding: .utf8)
      .split(separator: "\n").map(String.init)
    for index in stride(from: 1, to: lines.count, by: 25) {
      var fields = lines[index].split(separator: "\t", omittingEmptySubsequences: false)
        .map(String.init)
      fields[1] = fields[1] + " — a much longer label than before"
      lines[index] = fields.joined(separator: "\t")
    }
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: repo + "/dump.tsv", atomically: true, encoding: .utf8)
    try compile(repo)
    try git(repo, ["commit", "-qam", "relabel"])
    let run = try gate(repo, ["--against-rev", "main"])
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    let text = try report(repo)
    #expect(text.hasPrefix("## calldir gate — ✅ passed"), "\(text)")
    #expect(text.contains("### calldir — ⏭️ A/B skipped"))
    #expect(text.contains("calldir did not change"))
    #expect(text.contains("### data — ✅ within every budget"))
    #expect(text.contains("| update download |"))
    let counts = try #require(
      text.split(separator: "\n").first { $0.hasPrefix("| instructions per entry") })
    // Both revisions counted (valgrind), or neither: never gated either way.
    #expect(counts.contains("%") || counts.contains("| – | – |"), "\(counts)")
  }

  /// A directory replaced outright by other numbers, each with a person's name, fails (issue
  /// 65, item 3): every number and label new, the head's bases grown by the unique labels, so
  /// a download measured against the head's own bases looked small. Against what clients hold,
  /// and by the numbers changed, it is named for what it is.
  @Test func aDirectoryReplacedOutrightFails() throws {
    let folder = try TemporaryFolder()
    let repo = try repository(folder)
    try git(repo, ["checkout", "-q", "-b", "pr"])
    let rows =
      try String(contentsOfFile: repo + "/dump.tsv", encoding: .utf8)
      .split(separator: "\n").count - 1
    var text = "number\tlabel\n"
    for index in 0..<rows {
      text += "+7916\(String(format: "%07d", index))\tPerson number \(index * 7_919 % 1_000_003)\n"
    }
    try text.write(toFile: repo + "/dump.tsv", atomically: true, encoding: .utf8)
    try compile(repo)
    try git(repo, ["add", "-A"])
    try git(repo, ["commit", "-qm", "replaced"])
    let run = try gate(repo, ["--against-rev", "main"])
    #expect(run.status == 2, "\(run.stdout)\n\(run.stderr)")
    let failures = run.stderr.split(separator: "\n").filter { $0.hasPrefix("gate failed: data:") }
    #expect(
      failures.contains { $0.contains("numbers changed") && $0.contains("replaced outright") },
      "\(run.stderr)")
  }

  /// A pull request that adds the data folder is gated on budgets alone (issue 65, item 15:
  /// `--against-rev` failed with "not in the merge base"): the report says the folder is new.
  @Test func aPullRequestThatAddsTheDataIsGatedOnBudgets() throws {
    let folder = try TemporaryFolder()
    let repo = folder.path("repo")
    try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
    try git(repo, ["init", "-q", "-b", "main"])
    try "a team's directory\n".write(toFile: repo + "/README", atomically: true, encoding: .utf8)
    try git(repo, ["add", "-A"])
    try git(repo, ["commit", "-qm", "start"])
    try git(repo, ["checkout", "-q", "-b", "pr"])
    let made = try runProcess(
      calldir,
      [
        "generate", "--profile", "ci-smoke", "--entries", "5000", "--format", "tsv", "--out",
        repo + "/dump.tsv",
      ])
    #expect(made.status == 0, "\(made.stderr)")
    try compile(repo)
    try git(repo, ["add", "-A"])
    try git(repo, ["commit", "-qm", "the directory"])
    let run = try runProcess(
      calldir,
      [
        "gate", "--data", repo + "/directory", "--out", repo + "/../out", "--against-rev", "main",
      ])
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    #expect(run.stderr.contains("this pull request adds it, so it is gated on budgets alone"))
    let text = try report(repo)
    #expect(text.contains("has no such folder"), "\(text)")
    #expect(text.contains("### data — ✅ within every budget"), "\(text)")
  }

  /// Each budget can fail the data, with one line naming the figure and its budget: a tight
  /// label budget from the settings file, a seed time from --set, the update's share.
  @Test func budgetsFailTheDataWithOneLineEach() throws {
    let folder = try TemporaryFolder()
    let repo = try repository(folder)
    let settings = folder.path("gate.yml")
    try "budgets:\n  label-bytes-per-entry: 2\n".write(
      toFile: settings, atomically: true, encoding: .utf8)
    let run = try gate(
      repo, ["--settings", settings, "--set", "budgets.seed-seconds-to-enabled=0.05"])
    #expect(run.status == 2, "\(run.stdout)\n\(run.stderr)")
    let failures = run.stderr.split(separator: "\n").filter { $0.hasPrefix("gate failed: data:") }
    #expect(failures.count == 2, "\(run.stderr)")
    #expect(failures.contains { $0.contains("label bytes per labelled entry") })
    #expect(failures.contains { $0.contains("seed set to enabled on iphone13") })
    #expect(try report(repo).contains("### data — ❌ 2 failures"))
  }

  /// Apple's processor's log of a Live Caller ID Lookup dataset puts its figures in the data
  /// section, with the server time and the reply per query against their budgets (issue 69,
  /// item 4).
  @Test func theProcessorsFiguresAreGatedFromItsLog() throws {
    let folder = try TemporaryFolder()
    let repo = try repository(folder)
    let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Datasets/samples/pir-process-database-identity.log").path
    // The reply's budget is missed too, but listed report-only: shown, never failing.
    let run = try gate(
      repo,
      [
        "--lcidl-log", sample, "--set", "budgets.lcidl-server-ms=1", "--set",
        "budgets.lcidl-response-kb=1", "--report-only", "lcidl-response-kb",
      ])
    #expect(run.status == 2, "\(run.stdout)\n\(run.stderr)")
    let failures = run.stderr.split(separator: "\n").filter { $0.hasPrefix("gate failed: data:") }
    #expect(failures.count == 1, "\(run.stderr)")
    #expect(
      failures.first?.contains(
        "Live Caller ID Lookup identity: server time per query") == true, "\(run.stderr)")
    let markdown = try report(repo)
    #expect(markdown.contains("Live Caller ID Lookup, from Apple's processor's log"))
    #expect(markdown.contains("| identity | 3 | 10001 | "), "\(markdown)")
    #expect(
      markdown.split(separator: "\n").contains {
        $0.hasPrefix("| Live Caller ID Lookup identity: reply per query | ")
          && $0.hasSuffix("| ⚠️ over (report only) |")
      }, "\(markdown)")
    #expect(markdown.contains("One call queries each dataset once: "))
  }

  /// A main branch's runs with `--record-history` keep each budget's figure at its commit;
  /// from the third month on, the report shows each budget's time to the limit, fitted to those
  /// commits by their commit times; a pull request's run reads the history and leaves it
  /// byte-identical (issue 70, item 2).
  @Test func theHistoryGivesEachBudgetItsTimeToTheLimit() throws {
    let folder = try TemporaryFolder()
    let repo = try repository(folder, entries: "10000")
    let history = folder.path("gate-history.sqlite")
    let day = 86_400
    // Month 0 is the repository's first commit, made now; the next ones 30 days apart after it.
    let origin = Int(Date().timeIntervalSince1970)
    for month in 0..<3 {
      if month > 0 {
        let made = try runProcess(
          calldir,
          [
            "generate", "--profile", "ci-smoke", "--entries", String(10_000 + 10_000 * month),
            "--format", "tsv", "--out", repo + "/dump.tsv",
          ])
        #expect(made.status == 0, "\(made.stderr)")
        try compile(repo)
        try git(repo, ["add", "-A"])
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_COMMITTER_DATE"] = "@\(origin + month * 30 * day) +0000"
        let committed = try runProcess(
          "/usr/bin/env",
          [
            "git", "-C", repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit",
            "-qm", "month \(month)",
          ], environment: environment)
        #expect(committed.status == 0, "\(committed.stderr)")
      }
      // A full install's budget close enough above the small directory for its line to reach.
      let run = try gate(
        repo, ["--history", history, "--record-history", "--set", "budgets.full-install-mib=1.5"])
      #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
      let markdown = try report(repo)
      #expect(markdown.contains("| budget | measured | allowed | room left |"))
      #expect(
        markdown.contains("Time to the limit: no trend yet") == (month < 2), "\(markdown)")
    }
    let markdown = try report(repo)
    let install = try #require(
      markdown.split(separator: "\n").first { $0.hasPrefix("| full install | ") })
    #expect(install.contains(" | in about "), "\(install)")
    #expect(markdown.contains("full install +"), "\(markdown)")
    #expect(markdown.contains("a month over the last 3 commits (60 days)"), "\(markdown)")
    // A pull request reads the history and never writes it; the container is named by its
    // place in the repository, so a relative --data finds the same history.
    let before = try Data(contentsOf: URL(fileURLWithPath: history))
    let pullRequest = try runProcess(
      calldir,
      [
        "gate", "--data", "directory", "--out", repo + "/../out", "--quiet", "--history", history,
        "--set", "budgets.full-install-mib=1.5",
      ],
      directory: URL(fileURLWithPath: repo))
    #expect(pullRequest.status == 0, "\(pullRequest.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: history)) == before)
    #expect(try report(repo).contains(" | in about "))
  }

  /// `--write-settings` writes the budgets from this run's figures, each with its comment, and
  /// judges the data by them: a budget the defaults' file would fail passes its own figure plus
  /// a quarter. It never replaces a file (issue 70, item 3).
  @Test func writtenSettingsAreTheFiguresWithTheirMargin() throws {
    let folder = try TemporaryFolder()
    let repo = try repository(folder)
    let file = folder.path("written.yml")
    let run = try gate(
      repo, ["--write-settings", file, "--set", "budgets.label-bytes-per-entry=2"])
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let row = try #require(
      try report(repo).split(separator: "\n").first {
        $0.hasPrefix("| label bytes per labelled entry | ")
      })
    let figure = try #require(
      Double(row.split(separator: "|")[1].trimmingCharacters(in: .whitespaces)))
    let written = try #require(
      text.split(separator: "\n").first { $0.hasPrefix("  label-bytes-per-entry: ") })
    let value = try #require(Double(written.split(separator: " ").last ?? ""))
    #expect(abs(value - (figure * 1.25 * 10).rounded(.up) / 10) < 0.051, "\(written) for \(figure)")
    #expect(text.contains("  # label bytes per labelled entry: "))
    #expect(text.contains("  # entries-per-request stays iOS's limit (1999999)"))
    #expect(text.contains("  footprint-margin-percent: "))
    #expect(row.hasSuffix("| ✅ |"), "judged by the written budget: \(row)")
    // The file is read back as a settings file, and never replaced by a second run.
    let again = try gate(repo, ["--settings", file, "--write-settings", file])
    #expect(again.status == 1 && again.stderr.contains("the file exists"), "\(again.stderr)")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
  }

  /// The bases measured are the manifest's: a larger file of a previous generation left in
  /// bases/ is never the one benched.
  @Test func theManifestNamesTheBasesMeasured() throws {
    let folder = try TemporaryFolder()
    let repo = try repository(folder)
    let manifest = try Manifest.read(container: repo + "/directory")
    let largest = try #require(manifest.bases.max { $0.entries < $1.entries })
    // A stale, larger base beside the current ones (a previous generation's name and bytes).
    let stale = repo + "/directory/bases/region-stale.0000000000000000.cdb"
    let bytes = try Data(contentsOf: URL(fileURLWithPath: repo + "/directory/" + largest.file))
    try (bytes + bytes).write(to: URL(fileURLWithPath: stale))
    let run = try gate(repo, [])
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    let text = try report(repo)
    #expect(text.contains("instructions per entry (\(largest.name))"), "\(text)")
    #expect(!text.contains("stale"))
  }

  /// The A/B runs only when calldir changed: a base build whose extension is this one byte for
  /// byte is skipped and said so.
  @Test func anIdenticalBaseBuildSkipsTheAB() throws {
    let folder = try TemporaryFolder()
    let repo = try repository(folder)
    let base = folder.path("base-build")
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: builtExecutablePath("calldir-extension"), toPath: base + "/calldir-extension")
    let run = try gate(repo, ["--base-calldir", base])
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    #expect(try report(repo).contains("byte for byte"))
  }

  /// Bad input is one line and status 1: a folder that is not a container, a revision that is
  /// not there, an unknown setting, a value out of range, a settings file that is not YAML.
  @Test func usageErrorsAreOneLine() throws {
    let folder = try TemporaryFolder()
    let repo = try repository(folder)
    let notYAML = folder.path("bad.yml")
    try "budgets: [unclosed\n".write(toFile: notYAML, atomically: true, encoding: .utf8)
    let unknown = folder.path("unknown.yml")
    try "budgets:\n  footprint: 3\n".write(toFile: unknown, atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(
      atPath: folder.path("empty"), withIntermediateDirectories: true)
    let fifo = folder.path("settings.fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    let cases: [([String], String)] = [
      (["--against-rev", "no-such-branch"], "is not a commit"),
      (["--set", "budgets.requests=0"], "budgets.requests must be a whole number from 1"),
      (["--set", "budgets.nothing=1"], "unknown setting 'budgets.nothing'"),
      // Issue 65, items 12 and 15: no key traps no more; a % on a count is refused.
      (["--set", "="], "--set takes KEY=VALUE"),
      (["--set", "=="], "--set takes KEY=VALUE"),
      (["--set", "budgets.requests=12%"], "budgets.requests must be a whole number from 1"),
      (["--settings", notYAML], "not YAML"),
      (["--settings", unknown], "unknown.yml:2: unknown setting 'budgets.footprint'"),
      (["--settings", folder.path("missing.yml")], "the gate settings: cannot read"),
      // Issue 65, item 15: a FIFO, a device or a folder is named, not waited on or read.
      (["--settings", fifo], "the gate settings: \(fifo) is not a regular file"),
      (["--settings", "/dev/zero"], "the gate settings: /dev/zero is not a regular file"),
      (["--settings", folder.path("empty")], "is not a regular file"),
      (["--lcidl-log", repo + "/dump.tsv"], "no shard in it (not PIRProcessDatabase's log"),
      (["--lcidl-log", folder.path("missing.log")], "--lcidl-log: cannot read"),
      (["--report-only", "speed"], "--report-only: 'speed' is not a budget (known: "),
      (["--record-history"], "--record-history adds to a history: name it with --history FILE"),
      (["--history", notYAML], "not a bench history"),
      (["--history", fifo], "not a regular file"),
      (["--history", folder.path("h"), "--history-window", "2"], "--history-window"),
    ]
    for (arguments, message) in cases {
      let run = try gate(repo, arguments)
      #expect(run.status == 1, "\(arguments): \(run.stderr)")
      #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
    }
    let notContainer = try runProcess(
      calldir, ["gate", "--data", folder.path("empty"), "--out", folder.path("o")])
    #expect(notContainer.status == 1)
    #expect(notContainer.stderr.contains("not a container"), "\(notContainer.stderr)")
  }
}

/// Issue 53, item 6: `calldir chart` draws every CSV calldir writes, or names the command that
/// does (bench update's and bench compile's tables carry no run rows).
@Suite("calldir chart names the command for the CSVs it does not draw")
struct ChartEveryCSVTests {
  @Test func theUpdateAndCompileTablesNameTheirCommand() throws {
    let folder = try TemporaryFolder()
    let results = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Results")
    for (file, command) in [
      ("update.csv", "calldir bench update"), ("compile-vs-sort.csv", "calldir bench compile"),
      ("patterns.csv", "calldir bench patterns"),
    ] {
      let run = try runProcess(
        builtExecutablePath("calldir"),
        ["chart", results.appendingPathComponent(file).path, "--out", folder.path("x.svg")])
      #expect(run.status == 1, "\(file): \(run.stderr)")
      #expect(run.stderr.contains(command), "\(file): \(run.stderr)")
      #expect(!run.stderr.contains("missing column"), "\(file): \(run.stderr)")
    }
  }
}
