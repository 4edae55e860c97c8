import BaseFormat
import ByteCoding
import Foundation

/// The last state of a versioned blocklist feed, kept beside the container: every number the
/// feed lists, its votes and rating, the feed's version and when the last full sync was. A
/// delta (`since=VERSION`) is applied to it; the dump `compile` reads is written from it.
///
/// The file is text, one number a line (`+49123456789<TAB>4<TAB>G_FRAUD`, ascending), after
/// three header lines; it is replaced atomically, so a failed or killed sync leaves the last
/// one whole.
public struct FeedSnapshot: Equatable, Sendable {
  /// The feed's version this snapshot is at.
  public var version: Int64
  /// When the last full sync was, seconds since 1970 UTC.
  public var fullSyncSeconds: Int64
  /// The entries, ascending by number, one per number, each with votes > 0.
  public private(set) var entries: [BlocklistFeed.Entry]

  /// The first line of every snapshot file: what it is, and its format's version.
  static let magic = "# calldir feed snapshot 1"

  /// A whole feed as a snapshot: removals (0 votes) dropped. The feed's entries are taken, not
  /// copied (a million of them are 16 MB): `feed` is left with none.
  /// - Throws: ``CompileError/unreadable(_:_:)`` for a number the feed lists twice.
  public init(taking feed: inout BlocklistFeed, at seconds: Int64, from path: String)
    throws(CompileError)
  {
    version = feed.version
    fullSyncSeconds = seconds
    var changes: [BlocklistFeed.Entry] = []
    swap(&changes, &feed.entries)
    try Self.sortChanges(&changes, from: path)
    changes.removeAll { $0.votes == 0 }
    entries = changes
  }

  private init(version: Int64, fullSyncSeconds: Int64) {
    (self.version, self.fullSyncSeconds, entries) = (version, fullSyncSeconds, [])
  }

  /// Sorts a feed's entries by number in place, refusing a number listed twice (which of two
  /// counts to keep is the feed's to say, not the reader's guess).
  static func sortChanges(_ changes: inout [BlocklistFeed.Entry], from path: String)
    throws(CompileError)
  {
    changes.sort { $0.number < $1.number }
    for index in changes.indices.dropFirst()
    where changes[index].number == changes[index - 1].number {
      throw .unreadable(path, "+\(changes[index].number) is listed twice in the feed")
    }
  }

  /// The entries of `base` with `changes` (ascending, each number once) applied: 0 votes
  /// removes a number, any other count adds it or replaces it.
  static func merged(_ base: [BlocklistFeed.Entry], _ changes: [BlocklistFeed.Entry])
    -> [BlocklistFeed.Entry]
  {
    var result: [BlocklistFeed.Entry] = []
    result.reserveCapacity(base.count + changes.count)
    var (i, j) = (0, 0)
    while i < base.count || j < changes.count {
      if j == changes.count || (i < base.count && base[i].number < changes[j].number) {
        result.append(base[i])
        i += 1
        continue
      }
      if i < base.count && base[i].number == changes[j].number { i += 1 }
      if changes[j].votes > 0 { result.append(changes[j]) }
      j += 1
    }
    return result
  }

  /// Applies a delta feed (`since=VERSION`).
  /// - Throws: ``CompileError/unreadable(_:_:)`` when its version is older than this
  ///   snapshot's (a feed that goes back); nothing is changed then.
  public mutating func apply(delta feed: BlocklistFeed, from path: String) throws(CompileError) {
    guard feed.version >= version else {
      throw .unreadable(
        path,
        "the feed's version \(feed.version) is older than the snapshot's \(version): a feed that goes back is refused (--full replaces the snapshot)"
      )
    }
    var changes = feed.entries
    try Self.sortChanges(&changes, from: path)
    entries = Self.merged(entries, changes)
    version = feed.version
  }

  /// Reads a snapshot, line by line (one 1 MiB chunk of text held); nil when `path` does not
  /// exist.
  /// - Throws: ``CompileError/unreadable(_:_:)`` naming the line of a file that is not a
  ///   snapshot or is damaged.
  public static func read(_ path: String) throws(CompileError) -> FeedSnapshot? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    var snapshot: FeedSnapshot?
    var headers: [Int64] = []
    var entries: [BlocklistFeed.Entry] = []
    try TextLines.forEachBytes(in: path, maximumLineByteCount: 4_096) {
      (number: Int, bytes: ArraySlice<UInt8>) throws(CompileError) in
      if number > 3 {
        guard let entry = Self.entry(bytes), entries.last.map({ $0.number < entry.number }) ?? true
        else {
          throw .unreadable(
            path, "line \(number): not '+NUMBER<TAB>VOTES<TAB>RATING' in ascending order")
        }
        entries.append(entry)
        return
      }
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw .unreadable(path, "line \(number) is not UTF-8")
      }
      let line = Substring(text)
      if number == 1 {
        guard line == Substring(magic) else {
          throw .unreadable(path, "not a calldir feed snapshot (its first line is not '\(magic)')")
        }
        return
      }
      if number <= 3 {
        let prefix = number == 2 ? "# version " : "# full-sync "
        guard line.hasPrefix(prefix), let value = Int64(line.dropFirst(prefix.count)), value >= 0
        else { throw .unreadable(path, "line \(number): expected '\(prefix)N'") }
        headers.append(value)
        if number == 3 { snapshot = FeedSnapshot(version: headers[0], fullSyncSeconds: value) }
      }
    }
    guard var snapshot else { throw .unreadable(path, "the snapshot ends before its header") }
    snapshot.entries = entries
    return snapshot
  }

  /// One snapshot line's entry, read from its bytes: `+NUMBER<TAB>VOTES<TAB>RATING`, the number
  /// and votes positive decimals without leading zeros' ambiguity checks beyond their range;
  /// nil for anything else.
  static func entry(_ line: ArraySlice<UInt8>) -> BlocklistFeed.Entry? {
    guard line.first == UInt8(ascii: "+") else { return nil }
    var index = line.startIndex + 1
    func decimal(until end: UInt8?, limit: Int64) -> Int64? {
      var value: Int64 = 0
      let start = index
      while index < line.endIndex, line[index] != end {
        let digit = line[index] &- 0x30
        guard digit < 10, value <= (limit - Int64(digit)) / 10 else { return nil }
        value = value * 10 + Int64(digit)
        index += 1
      }
      guard index > start, value > 0 else { return nil }
      if end != nil {
        guard index < line.endIndex else { return nil }
        index += 1
      }
      return value
    }
    guard let number = decimal(until: 0x09, limit: Int64.max),
      let votes = decimal(until: 0x09, limit: Int64(Int32.max))
    else { return nil }
    let name = line[index...]
    guard
      let rating = BlocklistFeed.Rating.allCases.first(where: {
        BlocklistFeed.Rating.feedNameBytes[Int($0.rawValue)].elementsEqual(name)
      })
    else { return nil }
    return BlocklistFeed.Entry(number: number, votes: Int32(votes), rating: rating)
  }

  /// Writes the snapshot atomically (temp, fsync, rename, folder fsync), line by line.
  /// - Throws: ``CompileError/write(_:)``.
  public func write(to path: String) throws(CompileError) {
    try Self.writeAtomically(to: path) { writer throws(BaseFormatError) in
      var buffer = Array(
        "\(Self.magic)\n# version \(version)\n# full-sync \(fullSyncSeconds)\n".utf8)
      buffer.reserveCapacity(Self.flushByteCount + 64)
      for entry in entries {
        buffer.append(UInt8(ascii: "+"))
        DecimalText.append(entry.number, to: &buffer)
        buffer.append(0x09)
        DecimalText.append(Int64(entry.votes), to: &buffer)
        buffer.append(0x09)
        buffer += BlocklistFeed.Rating.feedNameBytes[Int(entry.rating.rawValue)]
        buffer.append(0x0a)
        if buffer.count >= Self.flushByteCount {
          try writer.write(buffer)
          buffer.removeAll(keepingCapacity: true)
        }
      }
      try writer.write(buffer)
    }
  }

  /// Bytes gathered before each write: lines are made as bytes, not a String each (a million
  /// of them were most of a sync's time).
  static let flushByteCount = 1 << 16

  /// Writes the dump `calldir compile` reads: `number<TAB>label<TAB>category`, each chosen
  /// number with its rating's label and the category `spam`, so the compile blocks it.
  /// - Returns: the numbers written.
  /// - Throws: ``CompileError/write(_:)``.
  public func writeDump(
    to path: String, minimumVotes: Int32, ratings: Set<BlocklistFeed.Rating>
  ) throws(CompileError) -> Int {
    var written = 0
    try Self.writeAtomically(to: path) { writer throws(BaseFormatError) in
      var buffer = Array("number\tlabel\tcategory\n".utf8)
      buffer.reserveCapacity(Self.flushByteCount + 64)
      let labels = BlocklistFeed.Rating.allCases.map { Array("\t\($0.label)\tspam\n".utf8) }
      for entry in entries where entry.votes >= minimumVotes && ratings.contains(entry.rating) {
        buffer.append(UInt8(ascii: "+"))
        DecimalText.append(entry.number, to: &buffer)
        buffer += labels[Int(entry.rating.rawValue)]
        written += 1
        if buffer.count >= Self.flushByteCount {
          try writer.write(buffer)
          buffer.removeAll(keepingCapacity: true)
        }
      }
      try writer.write(buffer)
    }
    return written
  }

  private static func writeAtomically(
    to path: String, _ body: (AtomicFileWriter) throws(BaseFormatError) -> Void
  ) throws(CompileError) {
    do {
      let writer = try AtomicFileWriter(path: path, refusingFilesOpenHere: true)
      do {
        try body(writer)
        try writer.commit()
      } catch {
        writer.discard()
        throw error
      }
    } catch let error as BaseFormatError {
      throw .write("\(path): \(error.problemDescription)")
    } catch {
      throw .write("\(path): \(error)")
    }
  }
}
