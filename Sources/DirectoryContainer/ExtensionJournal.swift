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
package struct ExtensionJournal: Equatable, Sendable {
  /// The journal's file name inside the container.
  package static let fileName = "journal.cdj"
  static let header = "calldir-journal\t1"
  /// The largest journal read: 1 MiB, as the manifest (one line per base).
  static let maximumByteCount = 1 << 20

  /// One base the request read, and the file it came from.
  package struct File: Equatable, Sendable {
    package var name: String
    package var file: String
    package var sha256: String
    package init(name: String, file: String, sha256: String) {
      (self.name, self.file, self.sha256) = (name, file, sha256)
    }
  }

  /// Counts up with every request the extension served.
  package var sequence: Int
  /// Whether the request was incremental.
  package var incremental: Bool
  /// The top-priority prefix the system holds if the request committed, in entries.
  package var entries: Int
  /// The full set's size (duplicates merged, or the manifest's upper bound when under the cap).
  package var totalEntries: Int
  /// The bases the request installed from.
  package var files: [File]
  /// True once the system confirmed it kept the request (its completion handler said not
  /// expired); false while it is only sent.
  package var committed: Bool
  /// The counting pass the request's cap plan used over those files, kept for the next request
  /// over the same files; nil when the set fit under the cap without one.
  package var counts: PriorityCounts?

  package init(
    sequence: Int, incremental: Bool, entries: Int, totalEntries: Int, files: [File],
    counts: PriorityCounts? = nil, committed: Bool = false
  ) {
    (self.sequence, self.incremental, self.entries) = (sequence, incremental, entries)
    (self.totalEntries, self.files, self.counts) = (totalEntries, files, counts)
    self.committed = committed
  }

  /// The journal as text.
  package func encoded() -> String {
    var text = ""
    encodedLines(files: files) { text += $0 + "\n" }
    return text
  }

  /// The request line: sequence, kind, entries, total, pending or committed.
  var requestLine: String {
    "request\t\(sequence)\t\(incremental ? "incremental" : "complete")\t\(entries)\t\(totalEntries)\t\(committed ? "committed" : "pending")"
  }

  /// Hands `body` the journal's lines, in order, without their "\n".
  /// - Throws: what `body` throws.
  func encodedLines<Failure: Error>(
    files: some Sequence<File>, _ body: (String) throws(Failure) -> Void
  ) throws(Failure) {
    try body(Self.header)
    try body(requestLine)
    for file in files {
      try body("file\t\(ManifestField.escaped(file.name))\t\(file.file)\t\(file.sha256)")
    }
    for line in counts?.encodedLines() ?? [] { try body(line) }
  }

  /// Parses journal text.
  /// - Throws: ``ManifestError`` naming the line.
  package init(parsing text: String) throws(ManifestError) {
    self = try Parser().parse(text)
  }

  /// Builds a journal from its lines, one at a time (empty lines skipped).
  struct Parser: LineParser {
    /// Whether the file lines are kept (else only checked).
    private let keepsFiles: Bool
    private var request: (sequence: Int, incremental: Bool, entries: Int, total: Int)?
    private var committed = false
    private var sawHeader = false
    private var files: [File] = []
    private var counts: PriorityCounts?

    init(keepsFiles: Bool = true) { self.keepsFiles = keepsFiles }

    /// Takes one line (without its "\n").
    /// - Throws: ``ManifestError`` naming the line.
    mutating func take(_ line: Substring, number: Int) throws(ManifestError) {
      if line.isEmpty { return }
      guard sawHeader else {
        guard line == ExtensionJournal.header else {
          throw ManifestError(
            line: number, problem: "not a calldir journal (expected '\(ExtensionJournal.header)')")
        }
        sawHeader = true
        return
      }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard request != nil else {
        try takeRequest(fields, number: number)
        return
      }
      switch fields.first {
      case "counted" where counts == nil:
        counts = PriorityCounts(key: try PriorityCounts.parseKey(fields, line: number), counts: [:])
        return
      case "count" where counts != nil:
        try counts!.add(fields, line: number)
        return
      default: break
      }
      // The digest is checked as the manifest's are: a field with a control character (a CR
      // left by a line ended CR CR LF) would not come back the same from the journal's text.
      guard counts == nil, fields.count == 4, fields[0] == "file",
        isInsideContainer(String(fields[2])), Manifest.Parser.isSHA256(String(fields[3]))
      else {
        throw ManifestError(
          line: number,
          problem: "expected file, name, a path inside the container, sha256 (64 hex digits)"
            + (counts == nil ? "" : " (before the counted line), or count"))
      }
      let name = try ManifestField.unescaped(String(fields[1]), line: number)
      if keepsFiles {
        files.append(File(name: name, file: String(fields[2]), sha256: String(fields[3])))
      }
    }

    private mutating func takeRequest(_ request: [Substring], number: Int) throws(ManifestError) {
      guard request.count == 5 || request.count == 6, request[0] == "request",
        let sequence = Int(request[1]), request[2] == "complete" || request[2] == "incremental",
        let entries = Int(request[3]), let total = Int(request[4]), sequence >= 0, entries >= 0,
        total >= 0, request.count == 5 || request[5] == "pending" || request[5] == "committed"
      else {
        throw ManifestError(
          line: number,
          problem:
            "expected request, sequence, complete|incremental, entries, total, pending|committed")
      }
      self.request = (sequence, request[2] == "incremental", entries, total)
      committed = request.count == 6 && request[5] == "committed"
    }

    /// The journal the lines made.
    /// - Throws: ``ManifestError`` when the header or the request line is missing.
    func finished() throws(ManifestError) -> ExtensionJournal {
      guard sawHeader else {
        throw ManifestError(
          line: 1, problem: "not a calldir journal (expected '\(ExtensionJournal.header)')")
      }
      guard let request else { throw ManifestError(line: 2, problem: "no request line") }
      return ExtensionJournal(
        sequence: request.sequence, incremental: request.incremental, entries: request.entries,
        totalEntries: request.total, files: files, counts: counts, committed: committed)
    }
  }

  /// The container's journal; nil when there is none yet. Read line by line through one small
  /// buffer (the extension reads it inside its memory limit).
  /// - Parameters:
  ///   - container: the App Group container's folder.
  ///   - keepingFiles: false to check the file lines but keep none (``files`` empty): the
  ///     extension needs only the sequence and the counts.
  /// - Throws: ``ManifestError`` when it exists but cannot be read; messages start with the path.
  package static func read(container: String, keepingFiles: Bool = true) throws(ManifestError)
    -> ExtensionJournal?
  {
    let path = container + "/" + fileName
    guard FolderCalls.exists(path, followingLinks: true) else { return nil }
    return try Parser(keepsFiles: keepingFiles).parse(
      file: path, maximumByteCount: maximumByteCount)
  }

  /// Marks the journal's request committed, atomically: its other lines are copied as they are,
  /// line by line, so the extension holds no list of its files to do it.
  /// - Returns: false when the journal holds another request than `sequence` (left as it is).
  /// - Throws: ``ManifestError`` when there is no journal, or it cannot be read or written.
  package static func markCommitted(container: String, sequence: Int) throws(ManifestError) -> Bool
  {
    guard let journal = try read(container: container, keepingFiles: false) else {
      throw ManifestError(line: 0, problem: "\(container)/\(fileName): no journal")
    }
    guard journal.sequence == sequence else { return false }
    guard !journal.committed else { return true }
    var marked = journal
    marked.committed = true
    let path = container + "/" + fileName
    let writer: AtomicFileWriter
    do {
      writer = try AtomicFileWriter(
        path: path, bufferByteCount: AtomicFileWriter.textBufferByteCount)
    } catch {
      throw ManifestError(line: 0, problem: error.description)
    }
    try forEachLine(ofFile: path, maximumByteCount: maximumByteCount) {
      line, _ throws(ManifestError) in
      guard !line.isEmpty else { return }
      do throws(BaseFormatError) {
        // The request line is the only one so named; read checked the journal's shape.
        try writer.write((line.hasPrefix("request\t") ? marked.requestLine : String(line)).utf8)
        try writer.write(CollectionOfOne(0x0A))
      } catch {
        throw ManifestError(line: 0, problem: error.description)
      }
    }
    do {
      try writer.commit()
    } catch {
      throw ManifestError(line: 0, problem: error.description)
    }
    return true
  }

  /// Writes the journal atomically (temporary file, fsync, rename, directory fsync), a line at a
  /// time through a small buffer.
  /// - Throws: `BaseFormat.BaseFormatError` when it cannot be written.
  package func write(container: String) throws(BaseFormatError) {
    try write(container: container, files: files)
  }

  /// Writes the journal with `files` in place of ``files``, as they are walked: the extension
  /// records the bases it sent without gathering them into one more array.
  /// - Throws: `BaseFormat.BaseFormatError` when it cannot be written.
  package func write(container: String, files: some Sequence<File>) throws(BaseFormatError) {
    let writer = try AtomicFileWriter(
      path: container + "/" + Self.fileName, bufferByteCount: AtomicFileWriter.textBufferByteCount)
    try encodedLines(files: files) { line throws(BaseFormatError) in
      try writer.write(line.utf8)
      try writer.write(CollectionOfOne(0x0A))
    }
    try writer.commit()
  }
}
