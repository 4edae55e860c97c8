import ArgumentParser
import DirectoryCompiler
import Foundation
import ReleaseDownload
import SystemCalls

/// `calldir feed`: a versioned community blocklist (PhoneBlock's `/blocklist` shape) synced
/// into a snapshot beside the container, and the dump `compile` reads written from it
/// (issue 67, item 2).
struct FeedCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "feed",
    abstract: "Sync a versioned blocklist feed into a snapshot and write the dump compile reads.",
    discussion: """
      Reads a feed shaped as PhoneBlock's blocklist API returns it, \
      {"numbers":[{"phone":"+49…","rating":"G_FRAUD","votes":4},…],"version":N}, from a file \
      or from an http(s) URL. From a URL with a snapshot newer than --full-every-days it asks \
      for the changes only (?since=VERSION), else for the whole list (PhoneBlock asks for a \
      full sync at most monthly and a delta at most daily). A delta's entries replace the \
      snapshot's, and votes 0 removes a number; a whole list replaces the snapshot. The \
      snapshot is written last, atomically, after the dump, so a failed, refused or killed \
      sync leaves it as it was, and the next sync starts from it again. The dump holds the \
      numbers with at least --min-votes votes and one of --ratings, each labelled by its \
      rating and of category spam, which compile blocks: calldir compile DUMP --out BOX, then \
      calldir publish ships the change as a patch.
      Exit statuses: 0 synced; 1 usage, input, feed or network error (the snapshot and the \
      dump are left as they were).
      """)

  @Argument(help: "The feed: a JSON file, or an http(s) URL of the list (without since).")
  var source: String
  @Option(
    name: .long, help: "The snapshot kept between syncs (made by the first).",
    completion: .file(), transform: nonEmptyPath)
  var snapshot: String
  @Option(
    name: .long, help: "The dump to write (number, label, category).", completion: .file(),
    transform: nonEmptyPath)
  var out: String
  @Flag(name: .long, help: "The feed file holds changes since the snapshot's version.")
  var delta = false
  @Flag(name: .long, help: "Take the whole list, whatever the snapshot's age.")
  var full = false
  @Option(
    name: .long, parsing: .unconditional, help: "Keep numbers with at least this many votes.",
    transform: wholeNumber(in: 1...1_000_000))
  var minVotes = 1
  @Option(
    name: .long,
    help:
      "Ratings to block (comma-separated): missed, ping, poll, advertising, gamble, fraud, legitimate, other.",
    transform: { text in try FeedCommand.ratings(text) })
  var ratings: Set<BlocklistFeed.Rating> = Set(BlocklistFeed.Rating.allCases).subtracting([
    .legitimate
  ])
  @Option(
    name: .long, parsing: .unconditional, help: "The most entries a feed may hold.",
    transform: wholeNumber(in: 1...50_000_000))
  var maxEntries = BlocklistFeed.defaultMaximumEntries
  @Option(
    name: .long, parsing: .unconditional,
    help: "Take the whole list from a URL when the last full sync is older than this (days).",
    transform: wholeNumber(in: 1...3_650))
  var fullEveryDays = 30
  @Option(
    name: .long,
    help: "An environment variable holding the feed's bearer token (never the token itself).")
  var tokenEnv: String?
  @Option(
    name: .long, parsing: .unconditional, help: "Seconds without a byte before a fetch gives up.",
    transform: wholeNumber(in: 1...86_400))
  var timeout = 30
  @Option(
    name: .long, parsing: .unconditional, help: "The most bytes a fetched feed may have.",
    transform: wholeNumber(in: 1...(1 << 34)))
  var maxBytes = 1 << 30

  static func ratings(_ text: String) throws -> Set<BlocklistFeed.Rating> {
    var chosen = Set<BlocklistFeed.Rating>()
    for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      if name == "other" {
        chosen.insert(.unknown)
      } else if let rating = BlocklistFeed.Rating(name: name) {
        chosen.insert(rating)
      } else {
        throw ValidationError("--ratings: '\(name)' is not a rating")
      }
    }
    guard !chosen.isEmpty else { throw ValidationError("--ratings: give at least one rating") }
    return chosen
  }

  var url: URL? {
    guard source.hasPrefix("http://") || source.hasPrefix("https://") else { return nil }
    return URL(string: source)
  }

  func validate() throws {
    if source.hasPrefix("http://") || source.hasPrefix("https://") {
      guard url != nil else { throw ValidationError("'\(source)' is not a URL") }
      if delta { throw ValidationError("--delta is for a feed file; a URL asks with since=") }
    }
    if delta && full { throw ValidationError("give --delta or --full, not both") }
    if let tokenEnv, ProcessEnvironment.value(tokenEnv)?.isEmpty ?? true {
      throw ValidationError("--token-env: the environment has no \(tokenEnv)")
    }
  }

  func run() async throws {
    let now = Int64(Date().timeIntervalSince1970)
    let kept: FeedSnapshot?
    do {
      kept = try FeedSnapshot.read(snapshot)
    } catch {
      throw ValidationError("\(error)")
    }
    if delta && kept == nil {
      throw ValidationError("--delta: there is no snapshot at \(snapshot) to apply it to")
    }
    let stale = kept.map { now - $0.fullSyncSeconds > Int64(fullEveryDays) * 86_400 } ?? true
    let takesDelta = kept != nil && !full && (url == nil ? delta : !stale)
    let feedPath: String
    var downloaded: String?
    if let url, let kept {
      let asked = takesDelta ? Self.url(url, since: kept.version) : url
      downloaded = try await fetch(asked)
      feedPath = downloaded!
    } else if let url {
      downloaded = try await fetch(url)
      feedPath = downloaded!
    } else {
      feedPath = source
    }
    defer { if let downloaded { try? FileManager.default.removeItem(atPath: downloaded) } }
    if url == nil, delta, stale {
      StandardError.write(
        "calldir: note: the last full sync is over \(fullEveryDays) days old; a whole list (--full) takes back what a missed delta left out\n"
      )
    }
    var next: FeedSnapshot
    let (version, read): (Int64, Int)
    do {
      var feed = try BlocklistFeed.read(path: feedPath, maximumEntries: maxEntries)
      (version, read) = (feed.version, feed.entries.count)
      if takesDelta, var current = kept {
        try current.apply(delta: feed, from: source)
        next = current
      } else {
        next = try FeedSnapshot(taking: &feed, at: now, from: source)
      }
    } catch {
      throw ValidationError("\(error)".replacingOccurrences(of: feedPath, with: source))
    }
    let written: Int
    do {
      // The dump first, the snapshot last: a sync killed between them leaves the old snapshot,
      // and the next one applies the same changes to it again.
      written = try next.writeDump(to: out, minimumVotes: Int32(minVotes), ratings: ratings)
      try next.write(to: snapshot)
    } catch {
      throw ValidationError("\(error)")
    }
    print(
      "feed version \(version) (\(takesDelta ? "changes since \(kept!.version)" : "the whole list")): \(read) entries read; the snapshot holds \(next.entries.count) numbers"
    )
    print(
      "wrote \(out): \(written) numbers to block (at least \(minVotes) vote\(minVotes == 1 ? "" : "s"); \(ratings.map(\.feedName).sorted().joined(separator: ", ")))"
    )
  }

  /// `url` with `since=VERSION` added to its query.
  static func url(_ url: URL, since version: Int64) -> URL {
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
    components.queryItems =
      (components.queryItems ?? []) + [
        URLQueryItem(name: "since", value: String(version))
      ]
    return components.url!
  }

  /// Fetches `url` into a file beside the snapshot (removed by the caller).
  private func fetch(_ url: URL) async throws -> String {
    let destination = snapshot + ".download"
    try? FileManager.default.removeItem(atPath: destination)
    let source = HTTPReleaseSource(
      base: url, idleTimeout: TimeInterval(timeout), totalTimeout: TimeInterval(timeout) * 20)
    do {
      try await source.fetch(
        url: url, to: destination, maximumByteCount: maxBytes,
        bearerToken: tokenEnv.flatMap(ProcessEnvironment.value))
    } catch {
      try? FileManager.default.removeItem(atPath: destination)
      throw ValidationError("\(url.absoluteString): \(error)")
    }
    return destination
  }
}
