import BaseFormat
import SystemCalls

/// The user's lists as a text file, the one format for the container's copies and for the
/// app's backup (an export is this file):
///
/// ```
/// calldir-user-lists	1
/// revision	12
/// pause	until-resumed            (or: pause	1790000000, seconds since 1970 UTC)
/// block	79161234567
/// block	33162000000	33162999999  (a range, both ends included)
/// allow	79161234568
/// label	79161234569	Dr Smith
/// ```
///
/// The container holds three copies, each written atomically (temporary file, fsync, rename,
/// directory fsync):
/// - ``currentName``: the lists as the user last edited them;
/// - ``sendingName``: what the app's next request sends (staged by each sync, a pause that has
///   ended dropped), which the extension reads;
/// - ``installedName``: what the system holds, once a request that sent it committed (the old
///   side of the next difference).
package enum UserListsFile {
  package static let currentName = "user-lists.txt"
  package static let sendingName = "user-lists.sending.txt"
  package static let installedName = "user-lists.installed.txt"
  /// The name the journal records the sent copy under (beside the bases it read).
  package static let journalName = "user lists"
  /// The format this build writes and the newest it reads.
  package static let version = 1
  static let header = "calldir-user-lists"
  /// The largest file read: 16 MiB (the lists at their limit with short labels).
  package static let maximumByteCount = 16 << 20

  /// Why lists were refused: one line naming the file, the line and the problem.
  package struct Failure: Error, Equatable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
  }

  /// The lists as text.
  package static func encoded(_ lists: UserLists) -> String {
    var text = "\(header)\t\(version)\nrevision\t\(lists.revision)\n"
    switch lists.pause {
    case nil: break
    case .untilResumed: text += "pause\tuntil-resumed\n"
    case .until(let end): text += "pause\t\(end)\n"
    }
    for number in lists.blockedNumbers { text += "block\t\(number)\n" }
    for range in lists.blockedRanges { text += "block\t\(range.lowerBound)\t\(range.upperBound)\n" }
    for number in lists.allowedNumbers { text += "allow\t\(number)\n" }
    for label in lists.labels { text += "label\t\(label.number)\t\(label.text)\n" }
    return text
  }

  /// Lists from their text; `source` names it in errors.
  /// - Throws: ``Failure`` for a file of a newer version, a line that is not one of the forms
  ///   above, a number that is not 1 to 18 digits, a label over the limit or holding a control
  ///   character, or lists past ``UserLists/maximumNumbers``.
  package static func parse(_ text: String, source: String) throws(Failure) -> UserLists {
    var lists = UserLists()
    var lineNumber = 0
    var sawHeader = false
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      let line = rawLine.last == "\r" ? rawLine.dropLast() : rawLine[...]
      if line.isEmpty { continue }
      func refuse(_ problem: String) -> Failure { Failure("\(source):\(lineNumber): \(problem)") }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard sawHeader else {
        guard fields.count == 2, fields[0] == header, let version = Int(fields[1]) else {
          throw refuse("not a calldir user lists file (its first line is not '\(header)\t1')")
        }
        guard version <= Self.version else {
          throw refuse(
            "written by a newer calldir (version \(version); this one reads up to \(Self.version))")
        }
        sawHeader = true
        continue
      }
      func number(_ index: Int) throws(Failure) -> Int64 {
        guard index < fields.count, let value = Self.number(fields[index]) else {
          throw refuse(
            "'\(index < fields.count ? fields[index] : "")' is not a number (1 to 18 digits)")
        }
        return value
      }
      func arity(_ counts: Int...) throws(Failure) {
        guard counts.contains(fields.count) else {
          throw refuse(
            "'\(fields[0])' takes \(counts.map { String($0 - 1) }.joined(separator: " or ")) fields"
          )
        }
      }
      switch fields[0] {
      case "revision":
        try arity(2)
        guard let revision = Int(fields[1]), revision >= 0 else {
          throw refuse("bad revision '\(fields[1])'")
        }
        lists.revision = revision
      case "pause":
        try arity(2)
        if fields[1] == "until-resumed" {
          lists.pause = .untilResumed
        } else if let end = Int64(fields[1]), end >= 0 {
          lists.pause = .until(secondsSinceEpoch: end)
        } else {
          throw refuse("a pause is 'until-resumed' or seconds since 1970, not '\(fields[1])'")
        }
      case "block":
        try arity(2, 3)
        if fields.count == 2 {
          lists.block(try number(1))
        } else {
          let (first, last) = (try number(1), try number(2))
          guard first <= last else { throw refuse("the range runs backwards") }
          lists.block(first...last)
        }
      case "allow":
        try arity(2)
        lists.allow(try number(1))
      case "label":
        try arity(3)
        let label = String(fields[2])
        if let problem = Self.labelProblem(label) { throw refuse(problem) }
        lists.setLabel(label, for: try number(1))
      default:
        throw refuse("unknown line '\(fields[0])' (block, allow, label, pause or revision)")
      }
    }
    guard sawHeader else { throw Failure("\(source): empty, not a calldir user lists file") }
    guard lists.numberCount <= UserLists.maximumNumbers else {
      throw Failure(
        "\(source): holds \(lists.numberCount) numbers, more than the \(UserLists.maximumNumbers) the lists may hold"
      )
    }
    return lists
  }

  /// Why `label` cannot be a user's label, or nil when it can: empty, over
  /// ``UserLists/maximumLabelBytes``, or holding a control character (a tab or a line break
  /// would end the field), a bidirectional control or a character that shows nothing
  /// (`BaseFormat.LabelRule`, `BaseFormat.InvisibleCharacters`), as the compiler refuses them.
  package static func labelProblem(_ label: String) -> String? {
    if label.isEmpty { return "an empty label (remove the label instead)" }
    if label.utf8.count > UserLists.maximumLabelBytes {
      return
        "a label of \(label.utf8.count) bytes, over the limit of \(UserLists.maximumLabelBytes)"
    }
    if label.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      return "a label holding a control character (a tab or a line break)"
    }
    if LabelRule.controlCharacterOffset(in: label) != nil {
      return "a label holding a line separator, a bidirectional control or a byte order mark"
    }
    if InvisibleCharacters.offset(in: label) != nil {
      return "a label holding a character that shows nothing (zero width, soft hyphen, filler)"
    }
    return nil
  }

  static func number(_ text: Substring) -> Int64? {
    guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      let value = Int64(text), value > 0
    else { return nil }
    return value
  }

  // MARK: Files

  /// The lists in `container`'s file `name`; empty lists when it does not exist.
  /// - Throws: ``Failure`` naming the file when it cannot be read or parsed.
  package static func read(container: String, name: String) throws(Failure) -> UserLists {
    let path = container + "/" + name
    guard FolderCalls.exists(path) else { return UserLists() }
    let text: String
    do {
      text = try readSmallTextFile(path, maximumByteCount: maximumByteCount)
    } catch {
      throw Failure(error.description)
    }
    return try parse(text, source: path)
  }

  /// The SHA-256 of the lists' text as written: what the journal records of a sent copy.
  package static func digest(_ lists: UserLists) -> String {
    var hash = SHA256()
    hash.update(utf8: encoded(lists))
    return hash.hexDigest()
  }

  /// Writes `lists` to `container`'s file `name` atomically and durably.
  /// - Throws: ``Failure`` when it cannot be written.
  package static func write(_ lists: UserLists, container: String, name: String) throws(Failure) {
    let text = encoded(lists)
    guard text.utf8.count <= maximumByteCount else {
      throw Failure("the lists' file would be \(text.utf8.count) bytes, over \(maximumByteCount)")
    }
    do {
      let writer = try AtomicFileWriter(
        path: container + "/" + name, bufferByteCount: AtomicFileWriter.textBufferByteCount)
      try writer.write(text.utf8)
      try writer.commit()
    } catch {
      throw Failure(error.description)
    }
  }

  /// Removes `container`'s file `name` durably, if it is there.
  /// - Throws: ``Failure`` when it cannot be removed.
  package static func remove(container: String, name: String) throws(Failure) {
    let path = container + "/" + name
    guard FolderCalls.exists(path) else { return }
    guard FolderCalls.removeFile(path) else { throw Failure("cannot remove \(path)") }
    DurableStep.syncFolder(container)
  }
}
