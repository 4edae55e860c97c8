import PhoneNormalization

/// A versioned community blocklist feed, in the shape PhoneBlock publishes its blocklist
/// (haumacher/phoneblock, `phoneblock/src/main/webapp/api/phoneblock.json`, commit 027a0a8,
/// `GET /blocklist`):
///
/// ```json
/// {"numbers": [{"phone": "+49123456789", "rating": "G_FRAUD", "votes": 4}, …], "version": 42}
/// ```
///
/// Without `since` the feed is the whole list; with `since=VERSION` only the changes since
/// that version, where `votes: 0` means the number was removed. The API asks clients to sync
/// fully at most once a month and by delta at most once a day. Members other than these are
/// skipped (`lastActivity`, and whatever a later version adds).
public struct BlocklistFeed: Sendable {
  /// PhoneBlock's ratings, in its order (the API's `rating` enum); a feed's rating that is
  /// none of these reads as ``unknown`` rather than failing the sync.
  public enum Rating: UInt8, Sendable, CaseIterable {
    case legitimate, missed, ping, poll, advertising, gamble, fraud, unknown

    /// The name the feed writes.
    public var feedName: String {
      switch self {
      case .legitimate: "A_LEGITIMATE"
      case .missed: "B_MISSED"
      case .ping: "C_PING"
      case .poll: "D_POLL"
      case .advertising: "E_ADVERTISING"
      case .gamble: "F_GAMBLE"
      case .fraud: "G_FRAUD"
      case .unknown: "other"
      }
    }

    /// ``feedName``'s UTF-8, by raw value: what a snapshot line holds.
    static let feedNameBytes = allCases.map { Array($0.feedName.utf8) }

    /// The label a blocked number gets: what the rating means, in a few words.
    public var label: String {
      switch self {
      case .legitimate: "Legitimate"
      case .missed: "Missed call"
      case .ping: "Ping call"
      case .poll: "Poll"
      case .advertising: "Advertising"
      case .gamble: "Gambling"
      case .fraud: "Fraud"
      case .unknown: "Reported"
      }
    }

    /// Every name a feed writes as it is written: the `A_…`–`G_…` names, and the part after
    /// the underscore in upper and lower case. A feed of a million entries names a rating a
    /// million times; one lookup here spares each an uppercased copy and seven comparisons.
    private static let byExactName: [String: Rating] = {
      var names: [String: Rating] = [:]
      for rating in allCases where rating != .unknown {
        let short = String(rating.feedName.dropFirst(2))
        names[rating.feedName] = rating
        names[short] = rating
        names[short.lowercased()] = rating
      }
      return names
    }()

    /// The rating a feed names: its `A_…`–`G_…` name, or the part after the underscore in
    /// any case ("fraud"); nil for a name that is neither.
    public init?(name: String) {
      if let rating = Self.byExactName[name] {
        self = rating
        return
      }
      let upper = name.uppercased()
      guard
        let rating = Self.allCases.first(where: {
          $0 != .unknown && ($0.feedName == upper || $0.feedName.dropFirst(2) == upper)
        })
      else { return nil }
      self = rating
    }
  }

  /// One entry: a number in CallKit's digits, its votes and rating.
  public struct Entry: Equatable, Sendable {
    public var number: Int64
    public var votes: Int32
    public var rating: Rating
    public init(number: Int64, votes: Int32, rating: Rating) {
      (self.number, self.votes, self.rating) = (number, votes, rating)
    }
  }

  /// The feed's `version`.
  public var version: Int64
  /// Its entries, in the feed's order (a delta's removals included, with 0 votes).
  public var entries: [Entry]

  /// The most entries a feed may hold by default: 4 M, twice what one Call Directory request
  /// may send, and 64 MiB as the reader keeps them (16 bytes each).
  public static let defaultMaximumEntries = 4_000_000
  /// The longest `phone` read: E.164 is at most 15 digits, and a written form a little more.
  static let maximumPhoneBytes = 64

  /// Reads a feed file in bounded memory (one 1 MiB chunk of text, and the entries).
  /// - Parameters:
  ///   - path: the feed's JSON text.
  ///   - maximumEntries: a feed with more entries is refused when the next one is read.
  /// - Throws: ``CompileError/unreadable(_:_:)`` naming the file, the byte or the entry and
  ///   the problem: text that is not JSON, a missing `version` or `numbers`, a negative or
  ///   non-integer version or vote count, a `phone` that is not a phone number in
  ///   international form, a member given twice, too many entries.
  public static func read(path: String, maximumEntries: Int = defaultMaximumEntries)
    throws(CompileError) -> BlocklistFeed
  {
    var stream = try FeedJSONStream(path: path)
    let normalizer: PhoneNormalizer
    do {
      normalizer = try PhoneNormalizer(country: nil, validation: .possible)
    } catch {
      throw .usage("\(error)")
    }
    var version: Int64?
    var entries: [Entry]?
    try stream.members { (stream: inout FeedJSONStream, name: String) throws(CompileError) in
      switch name {
      case "version":
        guard version == nil else { throw stream.fail("a second \"version\"") }
        let value = try stream.readInteger()
        guard value >= 0 else { throw stream.fail("a negative version, \(value)") }
        version = value
      case "numbers":
        guard entries == nil else { throw stream.fail("a second \"numbers\"") }
        var read: [Entry] = []
        try stream.elements { (stream: inout FeedJSONStream) throws(CompileError) in
          guard read.count < maximumEntries else {
            throw stream.fail("more than \(maximumEntries) entries (--max-entries)")
          }
          read.append(try entry(&stream, index: read.count, normalizer: normalizer))
        }
        entries = read
      default:
        try stream.skipValue(depth: 1)
      }
    }
    guard try stream.atEnd() else { throw stream.fail("text after the feed's object") }
    guard let version else { throw .unreadable(path, "the feed has no \"version\"") }
    guard let entries else { throw .unreadable(path, "the feed has no \"numbers\"") }
    return BlocklistFeed(version: version, entries: entries)
  }

  private static func entry(
    _ stream: inout FeedJSONStream, index: Int, normalizer: PhoneNormalizer
  ) throws(CompileError) -> Entry {
    let start = stream.offset
    var phone: String?
    var votes: Int64?
    var rating: Rating?
    try stream.members(depth: 2) {
      (stream: inout FeedJSONStream, name: String) throws(CompileError) in
      switch name {
      case "phone":
        guard phone == nil else { throw stream.fail("entry \(index + 1) has a second \"phone\"") }
        phone = try stream.readString(maximumByteCount: maximumPhoneBytes)
      case "votes":
        guard votes == nil else { throw stream.fail("entry \(index + 1) has a second \"votes\"") }
        let value = try stream.readInteger()
        guard (0...Int64(Int32.max)).contains(value) else {
          throw stream.fail("entry \(index + 1) has \(value) votes")
        }
        votes = value
      case "rating":
        guard rating == nil else { throw stream.fail("entry \(index + 1) has a second \"rating\"") }
        let name = try stream.readString(maximumByteCount: 64)
        rating = Rating(name: name) ?? .unknown
      default:
        try stream.skipValue(depth: 3)
      }
    }
    guard let phone else {
      throw .unreadable(stream.path, "entry \(index + 1) (byte \(start)) has no \"phone\"")
    }
    guard phone.hasPrefix("+") || phone.hasPrefix("00") else {
      throw .unreadable(
        stream.path,
        "entry \(index + 1) (byte \(start)): '\(phone)' is not in international form (+ and the country code)"
      )
    }
    let number: Int64
    do {
      number = try normalizer.normalize(phone)
    } catch {
      throw .unreadable(
        stream.path,
        "entry \(index + 1) (byte \(start)): '\(phone)' is not a phone number: \(error)")
    }
    return Entry(number: number, votes: Int32(votes ?? 1), rating: rating ?? .unknown)
  }
}
