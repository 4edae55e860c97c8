import BaseFormat
import SystemCalls

/// What the extension last sent the system, written by the extension itself (atomically, before
/// it completes the request) to `journal.cdj` in the container:
///
/// ```
/// calldir-journal	1
/// request	7	complete	1999999	4000000	committed   (sequence, kind, entries held if committed,
///                                                      total, pending|committed)
/// file	RU-495	bases/RU-495-3f2a….cdb	SHA256   (each base sent, and the file it came from)
/// counted	KEY                                  (optional: the cap plan's counts, see
/// count	identification	100	36982             ``PriorityCounts``)
/// ```
///
/// iOS does not tell the app about requests it starts itself: when the user turns the extension
/// off and on in Settings, the system asks for a complete set and the extension sends the first
/// chunk only. The app compares the journal's sequence with the one it acknowledged (the
/// manifest's ``InstallProgress/acknowledgedRequest``): a newer complete request that the app
/// did not make is one iOS made. The extension writes the request `pending` before it completes
/// it and `committed` only once the system's completion handler says it was kept (`expired`
/// false): a request whose system died, or that iOS expired, stays pending, and the app treats a
/// pending request it did not record as unknown and reloads (a journal with five fields, from
/// before this distinction, reads as pending). The app then knows what the system holds and
/// resumes from there.
public struct ExtensionJournal: Equatable, Sendable {
  /// The journal's file name inside the container.
  public static let fileName = "journal.cdj"
  static let header = "calldir-journal\t1"
  /// The largest journal read: 1 MiB, as the manifest (one line per base).
  static let maximumByteCount = 1 << 20

  /// One base the request read, and the file it came from.
  public struct File: Equatable, Sendable {
    public var name: String
    public var file: String
    public var sha256: String
    public init(name: String, file: String, sha256: String) {
      (self.name, self.file, self.sha256) = (name, file, sha256)
    }
  }

  /// Counts up with every request the extension served.
  public var sequence: Int
  /// Whether the request was incremental.
  public var incremental: Bool
  /// The top-priority prefix the system holds if the request committed, in entries.
  public var entries: Int
  /// The full set's size (duplicates merged, or the manifest's upper bound when under the cap).
  public var totalEntries: Int
  /// The bases the request installed from.
  public var files: [File]
  /// True once the system confirmed it kept the request (its completion handler said not
  /// expired); false while it is only sent.
  public var committed: Bool
  /// The counting pass the request's cap plan used over those files, kept for the next request
  /// over the same files; nil when the set fit under the cap without one.
  public var counts: PriorityCounts?

  public init(
    sequence: Int, incremental: Bool, entries: Int, totalEntries: Int, files: [File],
    counts: PriorityCounts? = nil, committed: Bool = false
  ) {
    (self.sequence, self.incremental, self.entries) = (sequence, incremental, entries)
    (self.totalEntries, self.files, self.counts) = (totalEntries, files, counts)
    self.committed = committed
  }

  /// The journal as text.
  public func encoded() -> String {
    var lines = [
      Self.header,
      "request\t\(sequence)\t\(incremental ? "incremental" : "complete")\t\(entries)\t\(totalEntries)\t\(committed ? "committed" : "pending")",
    ]
    for file in files {
      lines.append("file\t\(ManifestField.escaped(file.name))\t\(file.file)\t\(file.sha256)")
    }
    lines += counts?.encodedLines() ?? []
    return lines.joined(separator: "\n") + "\n"
  }

  /// Parses journal text.
  /// - Throws: ``ManifestError`` naming the line.
  public init(parsing text: String) throws(ManifestError) {
    // Views of the text, not copies: the extension parses this inside its memory limit, and a
    // string per line showed in its footprint.
    let lines = text.utf8.split(separator: 0x0A).lazy.map { Substring($0) }
    guard lines.first == Substring(Self.header) else {
      throw ManifestError(line: 1, problem: "not a calldir journal (expected '\(Self.header)')")
    }
    guard lines.count >= 2 else { throw ManifestError(line: 2, problem: "no request line") }
    let request = lines.dropFirst().first!.split(separator: "\t", omittingEmptySubsequences: false)
    guard request.count == 5 || request.count == 6, request[0] == "request",
      let sequence = Int(request[1]), request[2] == "complete" || request[2] == "incremental",
      let entries = Int(request[3]), let total = Int(request[4]), sequence >= 0, entries >= 0,
      total >= 0, request.count == 5 || request[5] == "pending" || request[5] == "committed"
    else {
      throw ManifestError(
        line: 2,
        problem:
          "expected request, sequence, complete|incremental, entries, total, pending|committed")
    }
    var files: [File] = []
    var counts: PriorityCounts?
    for (index, line) in lines.dropFirst(2).enumerated() {
      let number = index + 3
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      switch fields.first {
      case "counted" where counts == nil:
        counts = PriorityCounts(key: try PriorityCounts.parseKey(fields, line: number), counts: [:])
        continue
      case "count" where counts != nil:
        try counts!.add(fields, line: number)
        continue
      default: break
      }
      guard counts == nil, fields.count == 4, fields[0] == "file",
        isInsideContainer(String(fields[2]))
      else {
        throw ManifestError(
          line: number,
          problem: "expected file, name, a path inside the container, sha256"
            + (counts == nil ? "" : " (before the counted line), or count"))
      }
      files.append(
        File(
          name: try ManifestField.unescaped(String(fields[1]), line: number),
          file: String(fields[2]), sha256: String(fields[3])))
    }
    self.init(
      sequence: sequence, incremental: request[2] == "incremental", entries: entries,
      totalEntries: total, files: files, counts: counts,
      committed: request.count == 6 && request[5] == "committed")
  }

  /// The container's journal; nil when there is none yet.
  /// - Throws: ``ManifestError`` when it exists but cannot be read.
  public static func read(container: String) throws(ManifestError) -> ExtensionJournal? {
    let path = container + "/" + fileName
    guard FolderCalls.exists(path, followingLinks: true) else { return nil }
    return try readContainerText(path, maximumByteCount: maximumByteCount) {
      text throws(ManifestError) in try ExtensionJournal(parsing: text)
    }
  }

  /// Writes the journal atomically (temporary file, fsync, rename, directory fsync).
  /// - Throws: ``BaseFormat/BaseFormatError`` when it cannot be written.
  public func write(container: String) throws(BaseFormatError) {
    try writeContainerText(encoded(), to: container + "/" + Self.fileName)
  }
}
