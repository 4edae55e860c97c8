import Datasets
import Foundation
import TestSupport
import Testing

@testable import DirectoryCompiler

/// A versioned blocklist feed read as PhoneBlock publishes it, applied to a snapshot, and every
/// bad feed refused with its place (issue 67, item 2).
@Suite("Blocklist feeds: read, applied to a snapshot, bad ones refused")
struct BlocklistFeedTests {
  func file(_ text: String, in folder: TemporaryFolder, _ name: String = "feed.json") throws
    -> String
  {
    let path = folder.path(name)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func aWholeListThenADeltaGiveTheListTheFeedDescribes() throws {
    let folder = try TemporaryFolder()
    let whole = try file(
      """
      {"version": 41, "numbers": [
        {"phone": "+4930123456", "rating": "G_FRAUD", "votes": 4, "lastActivity": 1700000000000},
        {"phone": "+390456789123", "rating": "F_GAMBLE", "votes": 10},
        {"phone": "+4989111222", "rating": "E_ADVERTISING", "votes": 2, "extra": {"a": [1, 2.5e3, null, true]}},
        {"phone": "+4940555666", "rating": "Z_NEW", "votes": 1},
        {"phone": "+4940777888", "rating": "B_MISSED", "votes": 0}
      ]}
      """, in: folder)
    var feed = try BlocklistFeed.read(path: whole)
    #expect(feed.version == 41 && feed.entries.count == 5)
    var snapshot = try FeedSnapshot(taking: &feed, at: 1_000, from: whole)
    #expect(feed.entries.isEmpty, "the entries are taken, not copied")
    // Votes 0 in a whole list is no entry; an unknown rating is kept as "other".
    #expect(
      snapshot.entries.map(\.number) == [
        4_930_123_456, 4_940_555_666, 4_989_111_222, 390_456_789_123,
      ])
    #expect(snapshot.entries.first { $0.number == 4_940_555_666 }?.rating == .unknown)
    let delta = try file(
      """
      {"numbers":[{"phone":"+4930123456","votes":0},{"phone":"+4989111222","rating":"G_FRAUD","votes":7},
      {"phone":"\\u002b4971112233","rating":"C_PING","votes":3}],"version":42}
      """, in: folder, "delta.json")
    try snapshot.apply(delta: try BlocklistFeed.read(path: delta), from: delta)
    #expect(snapshot.version == 42 && snapshot.fullSyncSeconds == 1_000)
    #expect(
      snapshot.entries == [
        .init(number: 4_940_555_666, votes: 1, rating: .unknown),
        .init(number: 4_971_112_233, votes: 3, rating: .ping),
        .init(number: 4_989_111_222, votes: 7, rating: .fraud),
        .init(number: 390_456_789_123, votes: 10, rating: .gamble),
      ])
    // Written, read back the same; the dump keeps what the thresholds keep.
    let path = folder.path("snapshot")
    try snapshot.write(to: path)
    #expect(try FeedSnapshot.read(path) == snapshot)
    let dump = folder.path("dump.tsv")
    let written = try snapshot.writeDump(
      to: dump, minimumVotes: 3, ratings: [.fraud, .gamble, .ping])
    #expect(written == 3)
    #expect(
      try String(contentsOfFile: dump, encoding: .utf8)
        == "number\tlabel\tcategory\n+4971112233\tPing call\tspam\n+4989111222\tFraud\tspam\n+390456789123\tGambling\tspam\n"
    )
  }

  @Test(arguments: [
    ("{\"version\": 1, \"numbers\": [", "the text ends early"),
    ("[1,2]", "expected an object"),
    ("{\"numbers\": []}", "has no \"version\""),
    ("{\"version\": 3}", "has no \"numbers\""),
    ("{\"version\": -2, \"numbers\": []}", "a negative version"),
    ("{\"version\": 1.5, \"numbers\": []}", "not a whole number"),
    ("{\"version\": 99999999999999999999, \"numbers\": []}", "past 64 bits"),
    ("{\"version\": 1, \"version\": 2, \"numbers\": []}", "a second \"version\""),
    (
      "{\"version\": 1, \"numbers\": [{\"phone\": \"+49abc\", \"votes\": 1}]}",
      "entry 1 (byte 27): '+49abc' is not a phone number"
    ),
    (
      "{\"version\": 1, \"numbers\": [{\"phone\": \"030123456\", \"votes\": 1}]}",
      "not in international form"
    ),
    ("{\"version\": 1, \"numbers\": [{\"votes\": 1}]}", "entry 1 (byte 27) has no \"phone\""),
    (
      "{\"version\": 1, \"numbers\": [{\"phone\": \"+4930123456\", \"phone\": \"+4930999999\"}]}",
      "a second \"phone\""
    ),
    (
      "{\"version\": 1, \"numbers\": [{\"phone\": \"+4930123456\", \"votes\": -1}]}", "has -1 votes"
    ),
    ("{\"version\": 1, \"numbers\": [{\"phone\": \"+4930\\ud800\"}]}", "a lone surrogate"),
    ("{\"version\": 1, \"numbers\": []} trailing", "text after the feed's object"),
    ("not json at all", "expected an object"),
  ])
  func aBadFeedIsRefusedWithItsPlace(text: String, expected: String) throws {
    let folder = try TemporaryFolder()
    let path = try file(text, in: folder)
    #expect {
      _ = try BlocklistFeed.read(path: path)
    } throws: { error in
      let message = "\(error)"
      return message.contains(path) && message.contains(expected)
    }
  }

  /// Strings read alike in one chunk and across the 1 MiB chunk boundary, plain or escaped
  /// (`\u0033` is "3", `\/` is "/"): every entry of a feed longer than a chunk is read as it
  /// was written; a control character or a string past its limit is refused, on either path.
  @Test func stringsReadAlikeWithinAChunkAndAcrossItsEnd() throws {
    let folder = try TemporaryFolder()
    var entries: [String] = []
    var expected: [Int64] = []
    var length = 0
    var index = 0
    while length < 3 * (1 << 20) / 2 {  // past the reader's 1 MiB chunk
      let number = Int64(4_930_100_000_000) + Int64(index)
      let digits = String(number)
      // Every third phone escapes its last digit, every fifth rating its underscore's slash.
      let phone =
        index % 3 == 0
        ? "+" + digits.dropLast() + "\\u003" + String(digits.last!) : "+" + digits
      let rating = index % 5 == 0 ? "G\\/FRAUD" : "G_FRAUD"
      let entry = "{\"phone\":\"\(phone)\",\"rating\":\"\(rating)\",\"votes\":2}"
      entries.append(entry)
      expected.append(number)
      length += entry.utf8.count + 1
      index += 1
    }
    let path = try file(
      "{\"version\":7,\"numbers\":[" + entries.joined(separator: ",") + "]}", in: folder)
    let feed = try BlocklistFeed.read(path: path)
    #expect(feed.version == 7)
    #expect(feed.entries.map(\.number) == expected)
    #expect(
      feed.entries.filter { $0.rating == .fraud }.count == expected.count - (expected.count + 4) / 5
    )
    for (text, message) in [
      (
        "{\"version\":1,\"numbers\":[{\"phone\":\"+4930\u{01}123\"}]}",
        "a control character in a string"
      ),
      (
        "{\"version\":1,\"numbers\":[{\"phone\":\"+49" + String(repeating: "1", count: 80)
          + "\"}]}", "a string over 64 bytes"
      ),
    ] {
      let bad = try file(text, in: folder)
      #expect(throws: CompileError.self) { try BlocklistFeed.read(path: bad) }
      do { _ = try BlocklistFeed.read(path: bad) } catch {
        #expect("\(error)".contains(message), "\(error)")
      }
    }
  }

  /// A delta applied in place gives what a dictionary of the numbers gives: random snapshots
  /// and deltas of removals, replacements, additions (before, between and after the held
  /// numbers) and removals of numbers never held, each with its seed.
  @Test(arguments: 1...40)
  func aDeltaAppliedInPlaceIsTheDictionarysAnswer(seed: UInt64) throws {
    var generator = SplitMix64(seed: seed)
    let held = Int.random(in: 0...300, using: &generator)
    var numbers = Set<Int64>()
    while numbers.count < held {
      numbers.insert(Int64.random(in: 4_930_000_000...4_930_001_000, using: &generator))
    }
    var whole = BlocklistFeed(
      version: 1,
      entries: numbers.map { BlocklistFeed.Entry(number: $0, votes: 2, rating: .fraud) })
    var snapshot = try FeedSnapshot(taking: &whole, at: 0, from: "whole")
    var oracle = Dictionary(uniqueKeysWithValues: numbers.map { ($0, Int32(2)) })
    var changed = Set<Int64>()
    let count = Int.random(in: 0...200, using: &generator)
    while changed.count < count {
      changed.insert(Int64.random(in: 4_929_999_900...4_930_001_100, using: &generator))
    }
    let changes = changed.map { number in
      BlocklistFeed.Entry(
        number: number, votes: Int32.random(in: 0...3, using: &generator), rating: .ping)
    }
    for change in changes {
      oracle[change.number] = change.votes > 0 ? change.votes : nil
    }
    try snapshot.apply(delta: BlocklistFeed(version: 2, entries: changes), from: "delta")
    #expect(snapshot.entries.map(\.number) == oracle.keys.sorted(), "seed \(seed)")
    #expect(
      snapshot.entries.map(\.votes) == oracle.keys.sorted().map { oracle[$0]! }, "seed \(seed)")
  }

  @Test func aFeedPastItsEntriesAFeedThatGoesBackAndATwiceListedNumberAreRefused() throws {
    let folder = try TemporaryFolder()
    let three = try file(
      #"{"version":5,"numbers":[{"phone":"+4930111111"},{"phone":"+4930222222"},{"phone":"+4930333333"}]}"#,
      in: folder)
    #expect {
      _ = try BlocklistFeed.read(path: three, maximumEntries: 2)
    } throws: { "\($0)".contains("more than 2 entries (--max-entries)") }
    var feed = try BlocklistFeed.read(path: three)
    var snapshot = try FeedSnapshot(taking: &feed, at: 0, from: three)
    let older = try file(#"{"version":4,"numbers":[]}"#, in: folder, "older.json")
    let before = snapshot
    #expect {
      try snapshot.apply(delta: try BlocklistFeed.read(path: older), from: older)
    } throws: { "\($0)".contains("version 4 is older than the snapshot's 5") }
    #expect(snapshot == before)
    let twice = try file(
      #"{"version":6,"numbers":[{"phone":"+4930111111","votes":2},{"phone":"+49 30 111111","votes":0}]}"#,
      in: folder, "twice.json")
    #expect {
      try snapshot.apply(delta: try BlocklistFeed.read(path: twice), from: twice)
    } throws: { "\($0)".contains("+4930111111 is listed twice") }
    #expect(snapshot == before)
  }

  @Test func aDamagedSnapshotIsNamedWithItsLine() throws {
    let folder = try TemporaryFolder()
    let path = try file(
      "# calldir feed snapshot 1\n# version 3\n# full-sync 10\n+4930222222\t2\tG_FRAUD\n+4930111111\t1\tG_FRAUD\n",
      in: folder, "snapshot")
    #expect {
      _ = try FeedSnapshot.read(path)
    } throws: { "\($0)".contains("line 5: not '+NUMBER<TAB>VOTES<TAB>RATING' in ascending order") }
    let other = try file("number\tlabel\n", in: folder, "other")
    #expect {
      _ = try FeedSnapshot.read(other)
    } throws: { "\($0)".contains("not a calldir feed snapshot") }
    #expect(try FeedSnapshot.read(folder.path("missing")) == nil)
  }
}
