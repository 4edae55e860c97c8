import ByteCoding
import Foundation

/// A plan file inside a zip archive, as publishers ship them: NANPA's `allutlzd.zip` holds
/// `allutlzd.txt`; BNetzA's download is a zip that holds another zip. The archive is read from
/// its central directory (PKWARE's APPNOTE.TXT, 4.3.12 and 4.3.16: the end record, then one
/// header per member), each member stored or deflated (methods 0 and 8), its CRC-32 checked,
/// and what it inflates bounded by the bytes actually inflated, not by the size the archive
/// states (a zip bomb lies). Why not ZIPFoundation: ``RawInflate``.
enum PlanArchive {
  /// A zip archive's first four bytes: a local file header (`PK\3\4`, APPNOTE.TXT 4.3.7).
  static let magic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
  /// How deep zips inside zips are followed: BNetzA's is one inside another.
  static let maximumDepth = 3
  static let endRecordSignature: UInt32 = 0x0605_4B50
  static let centralHeaderSignature: UInt32 = 0x0201_4B50
  static let localHeaderSignature: UInt32 = 0x0403_4B50
  /// The end record's fixed size, and the most its comment adds (a 16-bit length).
  static let endRecordByteCount = 22
  static let maximumCommentByteCount = 0xFFFF

  /// One member, as the central directory describes it.
  struct Member {
    var name: String
    var method: UInt16
    var flags: UInt16
    var crc: UInt32
    var compressedByteCount: Int
    var byteCount: Int
    var localHeaderOffset: Int
    var isFolder: Bool { name.hasSuffix("/") }
  }

  /// What is wrong with an archive's structure, and where.
  struct Malformed: Error, CustomStringConvertible {
    var offset: Int
    var reason: String
    var description: String { "\(reason) at byte \(offset)" }
  }

  /// Whether `bytes` start as a zip archive does.
  static func isZip(_ bytes: [UInt8]) -> Bool { bytes.starts(with: magic) }

  /// Whether the file at `path` starts as a zip archive does (its first four bytes read).
  /// - Throws: ``CompileError/unreadable(_:_:)`` for a file that is missing or not regular.
  static func isZip(path: String) throws(CompileError) -> Bool {
    let handle = try TextLines.openRegularFile(path)
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: magic.count)).flatMap { $0 } ?? Data()
    return isZip(Array(head))
  }

  /// The bytes of the plan inside the zip `bytes` (read from `path`): the member named `entry`,
  /// or else the one file whose name ends in one of `extensions`, following a lone zip inside.
  /// - Throws: ``CompileError`` naming the archive: not a zip that reads, no member or several
  ///   that could be the plan (listed), or a member that inflates past `maximumByteCount`.
  static func plan(
    in bytes: [UInt8], path: String, entry wanted: String?, extensions: [String],
    maximumByteCount: Int, depth: Int = 0
  ) throws(CompileError) -> [UInt8] {
    let members: [Member]
    do {
      members = try bytes.withByteView { view in try directory(of: view) }
    } catch {
      throw .unreadable(path, "a zip archive whose directory does not read (\(error))")
    }
    let files = members.filter { !$0.isFolder }
    let names = files.map(\.name)
    let zips = files.filter { $0.name.lowercased().hasSuffix(".zip") }
    let member: Member
    if let wanted {
      if let named = files.first(where: { $0.name == wanted || $0.name.hasSuffix("/" + wanted) }) {
        member = named
      } else if zips.count == 1 {
        member = zips[0]  // the plan may be inside the zip inside this one
      } else {
        throw .unreadable(path, "no entry \(wanted) in the archive (it holds \(listed(names)))")
      }
    } else {
      let plans = files.filter { file in
        extensions.contains { file.name.lowercased().hasSuffix($0) }
      }
      if plans.count == 1 {
        member = plans[0]
      } else if plans.isEmpty, zips.count == 1 {
        member = zips[0]
      } else {
        throw .unreadable(
          path,
          plans.isEmpty
            ? "no \(extensions.joined(separator: " or ")) file in the archive (it holds \(listed(names)))"
            : "several files could be the plan (\(listed(plans.map(\.name)))): name one with --entry"
        )
      }
    }
    let contents = try extract(member, from: bytes, path: path, maximumByteCount: maximumByteCount)
    guard member.name.lowercased().hasSuffix(".zip"), isZip(contents) else { return contents }
    guard depth + 1 < maximumDepth else {
      throw .unreadable(path, "zips inside zips deeper than \(maximumDepth)")
    }
    return try plan(
      in: contents, path: "\(path) › \(member.name)", entry: wanted, extensions: extensions,
      maximumByteCount: maximumByteCount, depth: depth + 1)
  }

  /// The members the central directory lists.
  /// - Throws: ``Malformed``, or ``ByteCodingError`` where a record ends early.
  static func directory(of view: ByteView) throws -> [Member] {
    // The end record is the last 22 bytes, or ends a comment of up to 65,535 bytes.
    let earliest = max(0, view.count - endRecordByteCount - maximumCommentByteCount)
    var end = view.count - endRecordByteCount
    while end >= earliest, end >= 0,
      view.loadLittleEndian(UInt32.self, at: end) != endRecordSignature
    {
      end -= 1
    }
    guard end >= earliest, end >= 0 else {
      throw Malformed(offset: view.count, reason: "no end record")
    }
    var record = LittleEndianReader(view, offset: end + 10)
    let count = Int(try record.read(UInt16.self))
    let size = Int(try record.read(UInt32.self))
    let start = Int(try record.read(UInt32.self))
    guard count != 0xFFFF, size != 0xFFFF_FFFF, start != 0xFFFF_FFFF else {
      throw Malformed(offset: end, reason: "a ZIP64 archive, larger than any plan file")
    }
    guard start <= end, size <= end - start else {
      throw Malformed(offset: end, reason: "the directory lies outside the archive")
    }
    var reader = LittleEndianReader(view, offset: start)
    var members: [Member] = []
    for _ in 0..<count {
      let at = reader.offset
      guard try reader.read(UInt32.self) == centralHeaderSignature else {
        throw Malformed(offset: at, reason: "not a central directory header")
      }
      try reader.skip(4)  // versions made by and needed
      let flags = try reader.read(UInt16.self)
      let method = try reader.read(UInt16.self)
      try reader.skip(4)  // time and date
      let crc = try reader.read(UInt32.self)
      let compressed = Int(try reader.read(UInt32.self))
      let inflated = Int(try reader.read(UInt32.self))
      let nameLength = Int(try reader.read(UInt16.self))
      let extraLength = Int(try reader.read(UInt16.self))
      let commentLength = Int(try reader.read(UInt16.self))
      try reader.skip(8)  // disk, attributes
      let offset = Int(try reader.read(UInt32.self))
      let name = String(decoding: try reader.readView(nameLength), as: UTF8.self)
      try reader.skip(extraLength + commentLength)
      members.append(
        Member(
          name: name, method: method, flags: flags, crc: crc, compressedByteCount: compressed,
          byteCount: inflated, localHeaderOffset: offset))
    }
    return members
  }

  /// A member's bytes, inflated and checked against its CRC-32.
  static func extract(
    _ member: Member, from bytes: [UInt8], path: String, maximumByteCount: Int
  ) throws(CompileError) -> [UInt8] {
    func refuse(_ reason: String) -> CompileError { .unreadable(path, "\(member.name): \(reason)") }
    guard member.flags & 1 == 0 else { throw refuse("encrypted, which calldir does not read") }
    guard member.method == 0 || member.method == 8 else {
      throw refuse("compression method \(member.method), not stored or deflated")
    }
    let start: Int
    do {
      start = try bytes.withByteView { view in
        var reader = LittleEndianReader(view, offset: min(member.localHeaderOffset, view.count))
        guard try reader.read(UInt32.self) == localHeaderSignature else {
          throw Malformed(offset: member.localHeaderOffset, reason: "not a local file header")
        }
        try reader.skip(22)
        let nameLength = Int(try reader.read(UInt16.self))
        let extraLength = Int(try reader.read(UInt16.self))
        try reader.skip(nameLength + extraLength)
        return reader.offset
      }
    } catch {
      throw refuse("its header does not read (\(error))")
    }
    let (end, overflow) = start.addingReportingOverflow(member.compressedByteCount)
    guard !overflow, end <= bytes.count else { throw refuse("its data runs past the archive") }
    let data = bytes[start..<end]
    let contents: [UInt8]
    if member.method == 0 {
      guard data.count <= maximumByteCount else { throw refuse("larger than a plan file") }
      contents = Array(data)
    } else {
      do {
        contents = try RawInflate.inflate(data, maximumByteCount: maximumByteCount)
      } catch {
        throw refuse("it does not inflate: \(error)")
      }
    }
    guard RawInflate.crc32(contents) == member.crc else {
      throw refuse("its CRC-32 is not the one the archive states (a damaged archive)")
    }
    return contents
  }

  /// At most five names, then how many more.
  private static func listed(_ names: [String]) -> String {
    guard !names.isEmpty else { return "no file" }
    let shown = names.prefix(5).joined(separator: ", ")
    return names.count > 5 ? shown + " and \(names.count - 5) more" : shown
  }
}
