import BaseFormat
import DirectoryContainer
import SystemCalls

/// One point lookup over an App Group container: what the phone shows for a number once the
/// pending requests commit (the full set of the chosen regions installed, as the app's syncs
/// install it after the seed set), for an SMS filter extension
/// (IdentityLookup's `ILMessageFilterExtension`) and the app's own screens. No Foundation.
///
/// Each list base is searched through an index of its blocks (`BaseFormat.BlockSearch`):
/// O(log blocks) comparisons and one block of at most 8 KiB read, never a scan; a rule base's
/// ranges are held in memory (a national plan is a few dozen ranges) and searched by halving.
/// The indexes are built when the lookup is made (one pass per base, labels skipped), so make
/// one lookup and keep it for the process. Not for concurrent use: one lookup per thread.
///
/// The answer follows the loader's merge: the label of the highest-priority base that holds the
/// number (on equal priorities, the first in the manifest), and blocked when any blocking base
/// holds it. The user's lists (`DirectoryContainer.UserLists`, as last edited) are layered over
/// it as the loader layers them: the user's label wins, the user's block adds, the user's allow
/// and a pause in force unblock. A set past the system's cap whose last chunks the system refused (error 5) holds
/// less than this answers.
public final class DirectoryLookup {
  /// What the phone shows for one number.
  public struct Answer: Equatable, Sendable {
    /// The number looked up.
    public var number: Int64
    /// The label shown on a call, if any.
    public var label: String?
    /// The base that gives the label (its manifest name).
    public var labelledBy: String?
    /// Whether calls from the number are blocked.
    public var isBlocked: Bool { blockedBy != nil }
    /// The base that blocks it: a blocking list, or a rule base (a pattern).
    public var blockedBy: String?
    /// The pattern rule that blocks it, as written, when a rule base does.
    public var blockingRule: String?
    /// Whether the user allows it (then it is not blocked, whatever blocks it).
    public var allowedByUser = false
    /// Whether blocking is paused (then nothing is blocked).
    public var paused = false
  }

  /// The name ``Answer/labelledBy`` and ``Answer/blockedBy`` give the user's own lists.
  public static let userListsName = "user"

  private enum Source {
    case list(BlockSearch)
    case rules(first: [Int64], ranges: [NumberRange])
  }

  private struct Member {
    let name: String
    let kind: BaseKind
    let priority: Int
    let source: Source
  }

  /// The bases searched, highest priority first (the manifest's order among equals).
  private let members: [Member]
  /// The user's lists layered over the bases (nil: the directory alone).
  private let userLists: UserLists?
  /// When pauses are compared (seconds since 1970 UTC), fixed when the lookup is made.
  private let now: Int64

  /// A lookup over what `container`'s manifest selects now, with the user's lists as last
  /// edited over it; a pause is compared with `now` (seconds since 1970 UTC).
  /// - Throws: ``LoaderError`` naming the manifest, a base or the user's lists when one cannot
  ///   be read.
  public convenience init(
    container: String, now: Int64 = WallClock.secondsSinceEpoch()
  ) throws(LoaderError) {
    var manifest: Manifest
    do {
      manifest = try Manifest.read(container: container)
    } catch {
      throw .manifest(error)
    }
    // The full set, as the app's next sync asks for it once the seed set is in: a fresh
    // compile selects the seed set only until then.
    manifest.fullSetRequested = true
    let lists: UserLists
    do {
      lists = try UserListsFile.read(container: container, name: UserListsFile.currentName)
    } catch {
      throw .userLists(error.description)
    }
    try self.init(container: container, bases: manifest.selection, userLists: lists, now: now)
  }

  /// A lookup over `bases` of `container`, with `userLists` over them when given.
  init(container: String, bases: [Manifest.Base], userLists: UserLists?, now: Int64 = 0)
    throws(LoaderError)
  {
    self.userLists = userLists
    self.now = now
    var members: [Member] = []
    for base in bases {
      let path = container + "/" + base.file
      do throws(BaseFormatError) {
        let source: Source
        if try BaseHeader.read(path: path).isRules {
          let reader = try RuleBaseReader(path: path)
          var ranges: [NumberRange] = []
          while let range = try reader.nextRange() { ranges.append(range) }
          source = .rules(first: ranges.map(\.first), ranges: ranges)
        } else {
          source = .list(try BlockSearch(path: path, storedIndex: { Self.storedIndex(path, $0) }))
        }
        members.append(
          Member(name: base.name, kind: base.kind, priority: base.priority, source: source))
      } catch {
        throw .format(base: base.name, error)
      }
    }
    // Stable: equal priorities keep the manifest's order, as the merge breaks ties.
    self.members = members.enumerated().sorted {
      ($0.element.priority, -$0.offset) > ($1.element.priority, -$1.offset)
    }.map(\.element)
  }

  /// What the phone shows for `number`.
  /// - Throws: ``LoaderError`` when a base no longer reads (changed under the lookup).
  public func lookup(_ number: Int64) throws(LoaderError) -> Answer {
    var answer = try directoryAnswer(number)
    guard let userLists else { return answer }
    if let label = userLists.label(of: number) {
      answer.label = label
      answer.labelledBy = Self.userListsName
    }
    if answer.blockedBy == nil, userLists.blocks(number) {
      answer.blockedBy = Self.userListsName
    }
    answer.allowedByUser = userLists.allows(number)
    answer.paused = userLists.isPaused(at: now)
    if answer.allowedByUser || answer.paused {
      answer.blockedBy = nil
      answer.blockingRule = nil
    }
    return answer
  }

  /// Whether calls from `number` are blocked, as ``lookup(_:)``'s ``Answer/isBlocked`` says,
  /// without the label: only the blocking lists and patterns are searched, and nothing is
  /// allocated (a label of more than 15 UTF-8 bytes is a `String` of its own). What an SMS
  /// filter extension asks of each message.
  /// - Throws: ``LoaderError`` when a base no longer reads (changed under the lookup).
  public func isBlocked(_ number: Int64) throws(LoaderError) -> Bool {
    if let userLists {
      if userLists.isPaused(at: now) || userLists.allows(number) { return false }
      if userLists.blocks(number) { return true }
    }
    for member in members where member.kind == .blocking {
      switch member.source {
      case .list(let search):
        do throws(BaseFormatError) {
          if try search.find(number) != nil { return true }
        } catch {
          throw .format(base: member.name, error)
        }
      case .rules(let first, let ranges):
        if Self.range(holding: number, first: first, ranges: ranges) != nil { return true }
      }
    }
    return false
  }

  /// What the directory alone shows for `number`.
  private func directoryAnswer(_ number: Int64) throws(LoaderError) -> Answer {
    var answer = Answer(number: number)
    for member in members {
      if member.kind == .identification, answer.label != nil { continue }
      if member.kind == .blocking, answer.blockedBy != nil { continue }
      let found: (label: String, rule: String)?
      switch member.source {
      case .list(let search):
        do throws(BaseFormatError) {
          found = try search.find(number).map { ($0, "") }
        } catch {
          throw .format(base: member.name, error)
        }
      case .rules(let first, let ranges):
        found = Self.range(holding: number, first: first, ranges: ranges).map {
          ($0.label, $0.rule)
        }
      }
      guard let found else { continue }
      if member.kind == .identification {
        answer.label = found.label
        answer.labelledBy = member.name
      } else {
        answer.blockedBy = member.name
        if !found.rule.isEmpty { answer.blockingRule = found.rule }
      }
      if answer.label != nil, answer.blockedBy != nil { break }
    }
    return answer
  }

  /// The range that holds `number`: the last starting at or below it, if it reaches it.
  private static func range(holding number: Int64, first: [Int64], ranges: [NumberRange])
    -> NumberRange?
  {
    var (low, high) = (0, first.count)
    while low < high {
      let middle = (low + high) / 2
      if first[middle] <= number { low = middle + 1 } else { high = middle }
    }
    guard low > 0, ranges[low - 1].last >= number else { return nil }
    return ranges[low - 1]
  }

  // MARK: Stored indexes

  /// The index kept beside the base at `path` (``BaseFormat/BlockIndex``), when there is one
  /// made for the base `header` describes.
  static func storedIndex(_ path: String, _ header: BaseHeader) -> BlockIndex? {
    let indexPath = path + BlockIndex.fileSuffix
    guard FolderCalls.exists(indexPath),
      let bytes = try? readWholeFile(indexPath, maximumByteCount: 64 << 20)
    else { return nil }
    return BlockIndex(decoding: bytes, for: header)
  }

  /// Keeps the block index of every list base `container`'s manifest selects beside the base,
  /// where one is missing or stale, so a lookup (the SMS filter's, an edit's request) reads it
  /// instead of decoding the whole base: the app calls it after a sync. Each file is written
  /// atomically; one that cannot be written is left out (a lookup then indexes that base
  /// itself, as before).
  /// - Returns: how many indexes were written.
  @discardableResult
  public static func storeIndexes(container: String) -> Int {
    guard var manifest = try? Manifest.read(container: container) else { return 0 }
    manifest.fullSetRequested = true
    var written = 0
    for base in manifest.selection {
      let path = container + "/" + base.file
      guard let header = try? BaseHeader.read(path: path), !header.isRules,
        storedIndex(path, header) == nil,
        let search = try? BlockSearch(path: path)
      else { continue }
      do throws(BaseFormatError) {
        let writer = try AtomicFileWriter(path: path + BlockIndex.fileSuffix)
        try writer.write(search.index.encoded(for: search.header))
        try writer.commit()
        written += 1
      } catch {
        continue
      }
    }
    return written
  }
}
