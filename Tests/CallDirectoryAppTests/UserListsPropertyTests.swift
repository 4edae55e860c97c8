import CallDirectoryApp
import CallDirectoryHost
import CallDirectoryLoader
import Datasets
import DirectoryCompiler
import DirectoryContainer
import Foundation
import HostTestSupport
import ReleaseFormat
import Testing

/// Random sequences of the user's edits, pauses, compiles into the container, releases applied
/// with `update(from:)`, region choices and extensions killed at a durable step, with a sync
/// after each: the simulated store equals an independent oracle, table by table (the chosen
/// regions' labels with the user's over them; the directory's blocking lists and pattern with
/// the user's blocks, less the allowed numbers, and nothing while paused), and
/// `DirectoryLookup` agrees with the store for every number tried.
/// `CALLDIR_USER_LISTS_SEQUENCES` runs more sequences (the closing note's figure).
@Suite("The user's lists: random edits and kills against an oracle")
struct UserListsPropertyTests {
  /// The oracle's model of the user's lists: plain sets, written from the documented rules,
  /// not from `UserLists`.
  struct Model {
    var blocked = Set<Int64>()
    var ranges = Set<ClosedRange<Int64>>()
    var allowed = Set<Int64>()
    var labels: [Int64: String] = [:]
    var paused = false
  }

  /// One version of the directory: labelled numbers, spam numbers and whether the pattern is in.
  struct Directory {
    var labels: [Int64: String] = [:]
    var spam = Set<Int64>()
    var pattern = true
  }

  static let directoryNumbers = (0..<120).map { 79_161_230_000 + Int64($0) * 7 }
  /// Two regions by prefix (`--regions-file`): 79161230000–399 are A, the rest B.
  static let regionPrefixes =
    (0...3).map { "79161230\($0)\tA\n" } + (4...8).map { "79161230\($0)\tB\n" }
  static func region(of number: Int64) -> String { number < 79_161_230_400 ? "A" : "B" }
  static let patternNumbers: [Int64] = Array(Int64(79_165_555_500)...79_165_555_599)
  static let prefixes = ["+7 916 777 77 ##", "+7 916 888 88 ##"]
  static func prefixRange(_ index: Int) -> ClosedRange<Int64> {
    index == 0 ? 79_167_777_700...79_167_777_799 : 79_168_888_800...79_168_888_899
  }
  /// The numbers the edits pick from and the checks look up.
  static let pool: [Int64] =
    directoryNumbers + Array(patternNumbers.prefix(20)) + [
      79_167_777_705, 79_168_888_850, 79_169_999_999,
    ]

  func compile(
    _ directory: Directory, into container: String, in fixture: HostFixture, _ step: Int,
    version: Int = 1
  ) throws {
    var dump = "number\tlabel\tcategory\n"
    for (number, label) in directory.labels.sorted(by: { $0.key < $1.key }) {
      dump += "+\(number)\t\(label)\t\n"
    }
    for number in directory.spam.sorted() { dump += "+\(number)\tJunk\tspam\n" }
    let dumpPath = fixture.folder.path("dump-\(step).tsv")
    try dump.write(toFile: dumpPath, atomically: true, encoding: .utf8)
    var options = CompileOptions(inputs: [(dumpPath, .tsv)], output: container)
    // No seed set: the full set is the seed set, the chosen regions and the blocking lists, so a
    // seed entry of a region the user left out stays shown (as designed, and tested in the
    // two-phase tests); this oracle models regions and the user's lists.
    options.seedSize = 0
    options.threads = 1
    options.version = version
    options.regionsFile = fixture.folder.path("regions.tsv")
    try Self.regionPrefixes.joined().write(
      toFile: options.regionsFile!, atomically: true, encoding: .utf8)
    if directory.pattern {
      let patterns = fixture.folder.path("patterns.tsv")
      try "pattern\tlabel\n+7 916 555 55 ##\tTelemarketing\n".write(
        toFile: patterns, atomically: true, encoding: .utf8)
      options.blockPatternFiles = [patterns]
    }
    options.allowShrink = true
    _ = try Compiler(options: options).run()
  }

  func randomDirectory(_ random: inout SplitMix64) -> Directory {
    var directory = Directory()
    for number in Self.directoryNumbers {
      // The first number of each region always has a label, so both regions are published.
      if number == Self.directoryNumbers[0] || number == Self.directoryNumbers[60] {
        directory.labels[number] = "Caller \(random.next() % 4)"
        continue
      }
      switch random.next() % 6 {
      case 0: continue
      case 1: directory.spam.insert(number)
      default: directory.labels[number] = "Caller \(random.next() % 4)"
      }
    }
    directory.pattern = random.next() % 4 != 0
    return directory
  }

  /// What the store must hold.
  func expected(_ directory: Directory, _ user: Model, chosen: Set<String>) -> (
    identification: [(Int64, String)], blocking: [Int64]
  ) {
    var labels = directory.labels.filter { chosen.contains(Self.region(of: $0.key)) }
    for (number, label) in user.labels { labels[number] = label }
    var blocking = directory.spam.union(user.blocked)
    if directory.pattern { blocking.formUnion(Self.patternNumbers) }
    for range in user.ranges { blocking.formUnion(Array(range)) }
    blocking.subtract(user.allowed)
    if user.paused { blocking = [] }
    return (labels.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, blocking.sorted())
  }

  /// A script that runs the real extension killed (`_exit`, as SIGKILL) at durable step `step`.
  func killedExtension(_ fixture: HostFixture, atStep step: Int) throws -> String {
    let path = fixture.folder.path("killed-at-\(step).sh")
    try "#!/bin/sh\nCALLDIR_FAULT_AT=\(step) exec '\(fixture.extensionPath)' \"$@\"\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    return path
  }

  func edit(_ editor: UserListsEditor, _ user: inout Model, _ random: inout SplitMix64) async throws
    -> String
  {
    let number = Self.pool[Int(random.next() % UInt64(Self.pool.count))]
    let written = "+\(number)"
    switch random.next() % 12 {
    case 0, 1:
      try await editor.block(written)
      user.blocked.insert(number)
      user.allowed.remove(number)
      return "block \(number)"
    case 2, 3:
      try await editor.allow(written)
      user.allowed.insert(number)
      user.blocked.remove(number)
      return "allow \(number)"
    case 4:
      try await editor.unblock(written)
      user.blocked.remove(number)
      user.allowed.remove(number)
      return "unblock \(number)"
    case 5, 6:
      let label = random.next() % 3 == 0 ? nil : "Mine \(random.next() % 3)"
      try await editor.label(written, label)
      user.labels[number] = label
      return "label \(number) \(label ?? "-")"
    case 7:
      let index = Int(random.next() % 2)
      try await editor.blockPrefix(Self.prefixes[index])
      user.ranges.insert(Self.prefixRange(index))
      return "prefix \(index)"
    case 8:
      let index = Int(random.next() % 2)
      try await editor.unblockPrefix(Self.prefixes[index])
      user.ranges.remove(Self.prefixRange(index))
      return "unprefix \(index)"
    case 9:
      try await editor.pause()
      user.paused = true
      return "pause"
    case 10:
      try await editor.resume()
      user.paused = false
      return "resume"
    default:
      if random.next() % 4 == 0 {
        try await editor.clear()
        user = Model()
        return "clear"
      }
      try await editor.resume()
      user.paused = false
      return "resume"
    }
  }

  func check(
    _ fixture: HostFixture, _ directory: Directory, _ user: Model, chosen: Set<String>,
    _ trail: [String]
  ) throws -> Int {
    let (identification, blocking) = try fixture.system.store.contents(of: fixture.bundleID)
    let wanted = expected(directory, user, chosen: chosen)
    let held = Set(identification.map { "\($0.0) \($0.1)" })
    let labelsWanted = Set(wanted.identification.map { "\($0.0) \($0.1)" })
    #expect(
      held == labelsWanted && identification.count == wanted.identification.count,
      "identification: extra \(held.subtracting(labelsWanted).sorted().prefix(5)), missing \(labelsWanted.subtracting(held).sorted().prefix(5)) after \(trail.suffix(6))"
    )
    let (blockedHeld, blockedWanted) = (Set(blocking), Set(wanted.blocking))
    #expect(
      blockedHeld == blockedWanted && blocking.count == wanted.blocking.count,
      "blocking: extra \(blockedHeld.subtracting(blockedWanted).sorted().prefix(5)), missing \(blockedWanted.subtracting(blockedHeld).sorted().prefix(5)) after \(trail.suffix(6))"
    )
    let lookup = try DirectoryLookup(container: fixture.app.container)
    let labels = Dictionary(identification, uniquingKeysWith: { first, _ in first })
    let blocked = Set(blocking)
    var agreed = 0
    for number in Self.pool {
      let answer = try lookup.lookup(number)
      #expect(
        answer.label == labels[number], "lookup's label of \(number) after \(trail.suffix(4))")
      #expect(
        answer.isBlocked == blocked.contains(number), "lookup of \(number) after \(trail.suffix(4))"
      )
      #expect(
        try lookup.isBlocked(number) == answer.isBlocked,
        "isBlocked(\(number)) after \(trail.suffix(4))")
      if answer.label == labels[number], answer.isBlocked == blocked.contains(number) {
        agreed += 1
      }
    }
    return agreed
  }

  @Test func randomEditsCompilesUpdatesAndKillsMatchTheOracle() async throws {
    let sequences =
      ProcessInfo.processInfo.environment["CALLDIR_USER_LISTS_SEQUENCES"].flatMap(Int.init) ?? 3
    var steps = 0
    var agreements = 0
    var kills = 0
    var updates = 0
    var choices = 0
    for seed in 0..<sequences {
      let fixture = try HostFixture()
      var random = SplitMix64(seed: UInt64(1000 + seed))
      var directory = randomDirectory(&random)
      var user = Model()
      // The regions the store must show: every region until the user chooses (a compile or an
      // update keeps a choice of some, and chooses every region again for one of all).
      var chosen: Set<String> = ["A", "B"]
      var trail: [String] = []
      var releaseVersion = 1
      let editor = fixture.app.userLists()
      let listsPath = fixture.app.container + "/" + UserListsFile.currentName
      try compile(directory, into: fixture.app.container, in: fixture, 0)
      let enabled = try fixture.app.enable(
        system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
      #expect(enabled.succeeded, "\(enabled.detail)")
      for step in 1...24 {
        steps += 1
        switch random.next() % 12 {
        case 0:
          // A compile into the container leaves the user's lists byte for byte.
          let before = FileManager.default.contents(atPath: listsPath)
          directory = randomDirectory(&random)
          try compile(directory, into: fixture.app.container, in: fixture, step)
          #expect(
            FileManager.default.contents(atPath: listsPath) == before, "a compile left the lists")
          trail.append("compile")
        case 1:
          // A release, published from a team's container of its own, applied as the app
          // applies one; the user's lists stay byte for byte.
          let before = FileManager.default.contents(atPath: listsPath)
          directory = randomDirectory(&random)
          releaseVersion += 1
          let team = fixture.folder.path("team")
          try compile(directory, into: team, in: fixture, step, version: releaseVersion)
          let releases = fixture.folder.path("releases")
          _ = try ReleasePublisher(releases: releases, allowShrink: true).publish(container: team)
          _ = try await fixture.app.update(
            from: FolderReleaseSource(folder: releases), allowShrink: true, allowDowngrade: true)
          #expect(
            FileManager.default.contents(atPath: listsPath) == before, "an update left the lists")
          updates += 1
          trail.append("update to \(releaseVersion)")
        case 2:
          let choice: [String] = [["A"], ["B"], ["A", "B"]][Int(random.next() % 3)]
          try await fixture.app.choose(regions: choice)
          chosen = Set(choice)
          choices += 1
          trail.append("choose \(choice)")
        case 3:
          // An edit, then a sync whose extension dies at a durable step (the journal's
          // writes and its commit mark), then a sync that must mend whatever it left.
          trail.append(try await edit(editor, &user, &random))
          let step = 1 + Int(random.next() % 6)
          trail.append("kill at \(step)")
          let killed = try? await fixture.app.sync(
            system: fixture.system, bundleID: fixture.bundleID,
            executable: try killedExtension(fixture, atStep: step))
          if killed?.contains(where: { !$0.succeeded }) ?? true { kills += 1 }
        default:
          trail.append(try await edit(editor, &user, &random))
        }
        let results = try await fixture.app.sync(
          system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
        let failures = results.filter { !$0.succeeded }.map { $0.detail }
        #expect(failures.isEmpty, "\(failures) after \(trail.suffix(4))")
        agreements += try check(fixture, directory, user, chosen: chosen, trail)
        let pending = try await editor.pending()
        #expect(pending.isEmpty, "nothing pending after a sync")
      }
    }
    print(
      "user lists property: \(sequences) sequences, \(steps) steps, \(updates) updates, \(choices) region choices, \(kills) syncs killed, \(agreements) lookups agreed"
    )
    #expect(kills > 0, "some extensions were killed")
    #expect(updates > 0 && choices > 0, "some releases were applied and some regions chosen")
  }
}
