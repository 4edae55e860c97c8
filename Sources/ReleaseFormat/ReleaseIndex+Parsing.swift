import DirectoryContainer

extension ReleaseIndex {
  /// Reads an index. The patches are read one at a time, never as a whole tree: a 12,070-patch
  /// index (3.5 MB) took 14 MB of heap as a tree, which a decompression bomb's buffers then
  /// pushed past the 64 MiB an update may take (issue 52, item 11).
  /// - Throws: ``ReleaseError`` naming `path` and what is missing or wrong.
  package init(parsing bytes: [UInt8], path: String) throws(ReleaseError) {
    let fields = IndexFields(path: path)
    var reader = JSONReader(bytes: bytes, path: path)
    guard reader.next(is: UInt8(ascii: "{")) else {
      throw fields.fail("not a release index of format 1")
    }
    var seen = Set<String>()
    var readVersions: [Version]?
    var readPatches: [Patch]?
    try reader.members(depth: 0) { (reader: inout JSONReader, key: String) throws(ReleaseError) in
      // A second member of the same name is refused: readers that take the first and readers
      // that take the last would otherwise see different releases.
      guard seen.insert(key).inserted else { throw fields.fail("two members named \(key)") }
      switch key {
      case "format":
        guard case .number(Self.format) = try reader.value(depth: 1) else {
          throw fields.fail("not a release index of format 1")
        }
      case "versions":
        guard reader.next(is: UInt8(ascii: "[")) else { throw fields.fail("no versions") }
        var versions: [Version] = []
        try reader.elements(depth: 1) { (reader: inout JSONReader) throws(ReleaseError) in
          let version = try fields.version(try reader.value(depth: 2))
          guard versions.last.map({ $0.number < version.number }) ?? true else {
            throw fields.fail("version \(version.number) is not above the one before")
          }
          versions.append(version)
        }
        readVersions = versions
      case "patches":
        guard reader.next(is: UInt8(ascii: "[")) else { throw fields.fail("no patches") }
        var patches: [Patch] = []
        try reader.elements(depth: 1) { (reader: inout JSONReader) throws(ReleaseError) in
          guard patches.count < Self.maximumPatchCount else {
            throw fields.fail("over the \(Self.maximumPatchCount) patches an index may name")
          }
          patches.append(try fields.patch(try reader.value(depth: 2)))
        }
        readPatches = patches
      default:
        _ = try reader.value(depth: 1)
      }
    }
    try reader.end()
    guard seen.contains("format") else { throw fields.fail("not a release index of format 1") }
    guard let readVersions else { throw fields.fail("no versions") }
    guard let readPatches else { throw fields.fail("no patches") }
    self.init(versions: readVersions, patches: readPatches)
  }
}

/// The checks on an index's fields, one object at a time, each failure naming the index and the
/// object.
private struct IndexFields {
  let path: String

  func fail(_ what: String) -> ReleaseError { ReleaseError("\(path): \(what)") }

  func version(_ value: JSONValue) throws(ReleaseError) -> ReleaseIndex.Version {
    let number = try count(value, "version", "a version", maximum: ReleaseIndex.maximumVersion)
    guard case .array(let baseValues)? = value["bases"] else {
      throw fail("version \(number) has no bases")
    }
    var bases: [ReleaseIndex.Base] = []
    var names = Set<String>()
    for baseValue in baseValues {
      let name = try name(baseValue, "a base of version \(number)")
      let place = "base \(name) of version \(number)"
      guard names.insert(name).inserted else {
        throw fail("version \(number) has two bases named \(name)")
      }
      var region: String?
      if case .string(let text)? = baseValue["region"] {
        guard BaseNaming.isValidRegion(text) else {
          throw fail(
            "\(place): region \(text.debugDescription) holds a comma, a control character or one that shows nothing"
          )
        }
        region = text
      }
      bases.append(
        ReleaseIndex.Base(
          name: name, role: try string(baseValue, "role", place), region: region,
          priority: try count(baseValue, "priority", place),
          entries: try count(baseValue, "entries", place),
          sha256: try hash(baseValue, "sha256", place),
          byteCount: try size(baseValue, place), file: try file(baseValue, place)))
    }
    return ReleaseIndex.Version(number: number, bases: bases)
  }

  func patch(_ value: JSONValue) throws(ReleaseError) -> ReleaseIndex.Patch {
    let name = try name(value, "a patch")
    let place = "a patch of \(name)"
    return ReleaseIndex.Patch(
      name: name, fromSHA256: try hash(value, "from", place),
      toSHA256: try hash(value, "to", place),
      file: try file(value, place), byteCount: try size(value, place),
      sha256: try hash(value, "sha256", place))
  }

  func string(_ value: JSONValue, _ key: String, _ place: String) throws(ReleaseError) -> String {
    guard case .string(let text)? = value[key], !text.isEmpty else {
      throw fail("\(place) has no \(key)")
    }
    return text
  }

  func count(
    _ value: JSONValue, _ key: String, _ place: String,
    maximum: Int = ReleaseIndex.maximumCount
  ) throws(ReleaseError) -> Int {
    guard case .number(let number)? = value[key], number >= 0, number <= maximum else {
      throw fail("\(place) has no \(key), or one out of range (0 to \(maximum))")
    }
    return Int(number)
  }

  func size(_ value: JSONValue, _ place: String) throws(ReleaseError) -> Int {
    try count(value, "bytes", place, maximum: ReleaseIndex.maximumFileByteCount)
  }

  func name(_ value: JSONValue, _ place: String) throws(ReleaseError) -> String {
    let text = try string(value, "name", place)
    guard BaseNaming.isValidName(text) else {
      throw fail("\(place): name \(text.debugDescription) must be \(BaseNaming.nameRule)")
    }
    return text
  }

  func hash(_ value: JSONValue, _ key: String, _ place: String) throws(ReleaseError) -> String {
    let text = try string(value, key, place)
    guard text.utf8.count == 64,
      text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
    else { throw fail("\(place): \(key) is not 64 lowercase hex digits") }
    return text
  }

  func file(_ value: JSONValue, _ place: String) throws(ReleaseError) -> String {
    let text = try string(value, "file", place)
    // Only the folder's own files: a name cannot climb out of it or be absolute.
    guard !text.hasPrefix("/"), !text.split(separator: "/").contains(".."), !text.contains("\\")
    else { throw fail("\(place): file \(text) is outside the release folder") }
    // A NUL ends the path at the system call, so the file fetched would not be the one named;
    // no control character names a file publish writes (issue 65, item 13).
    guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
      throw fail("\(place): file \(text.debugDescription) holds a control character")
    }
    return text
  }
}
