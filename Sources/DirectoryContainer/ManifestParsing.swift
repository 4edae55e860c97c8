import BaseFormat

extension Manifest {
  /// Parses manifest text.
  /// - Throws: ``ManifestError`` naming the line and the field.
  package init(parsing text: String) throws(ManifestError) {
    var baseLines = 0
    try forEachLine(of: text) { line, _ in if line.hasPrefix("base\t") { baseLines += 1 } }
    self = try Parser(baseLines: baseLines).parse(text)
  }

  /// Reads `manifest.cdm` from a container folder, line by line through one small buffer: the
  /// extension reads it inside its memory limit, and what stays is the parsed bases only.
  /// - Throws: ``ManifestError`` (line 0 when the file cannot be read); messages start with the
  ///   path.
  package static func read(container: String) throws(ManifestError) -> Manifest {
    let path = container + "/" + fileName
    // Bases counted first, so their array is reserved once: one grown by doubling leaves every
    // size it passed through in the allocator's thread cache, which is the extension's
    // footprint. The file is read twice; at 85 KB for 300 regions that costs microseconds.
    var baseLines = 0
    try forEachLine(ofFile: path, maximumByteCount: maximumByteCount) { line, _ in
      if line.hasPrefix("base\t") { baseLines += 1 }
    }
    return try Parser(baseLines: baseLines).parse(file: path, maximumByteCount: maximumByteCount)
  }

  /// Builds a manifest from its lines, one at a time.
  struct Parser: LineParser {
    private var manifest = Manifest()
    private var sawHeader = false

    init(baseLines: Int) { manifest.bases.reserveCapacity(baseLines) }

    /// Takes one line (without its "\n").
    /// - Throws: ``ManifestError`` naming the line and the field.
    mutating func take(_ rawLine: Substring, number line: Int) throws(ManifestError) {
      if rawLine.isEmpty || rawLine.hasPrefix("#") { return }
      let fields = rawLine.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      if !sawHeader {
        guard rawLine == Manifest.header else {
          throw ManifestError(
            line: line, problem: "not a calldir manifest (expected '\(Manifest.header)')")
        }
        sawHeader = true
        return
      }
      switch fields[0] {
      case "full-set":
        guard fields.count == 2, fields[1] == "requested" || fields[1] == "not-requested" else {
          throw ManifestError(line: line, problem: "full-set must be requested or not-requested")
        }
        manifest.fullSetRequested = fields[1] == "requested"
      case "chosen":
        guard fields.count == 2 else {
          throw ManifestError(line: line, problem: "chosen takes one field")
        }
        manifest.chosenRegions = []
        if fields[1] != "-" {
          for region in fields[1].split(separator: ",", omittingEmptySubsequences: false) {
            manifest.chosenRegions.append(try ManifestField.unescaped(String(region), line: line))
          }
        }
      case "range":
        guard fields.count == 3, let low = Int64(fields[1]), let high = Int64(fields[2]),
          low < high
        else {
          throw ManifestError(line: line, problem: "range takes two numbers, low below high")
        }
        manifest.numberRange = low..<high
      case "generation":
        guard fields.count == 2, let generation = Int(fields[1]), generation >= 0 else {
          throw ManifestError(line: line, problem: "generation takes one whole number")
        }
        manifest.generation = generation
      case "install":
        manifest.installProgress = try InstallProgress(fields: fields.dropFirst(), line: line)
      case "base":
        let base = try Self.parseBase(fields, line: line)
        // Bases are found by name (installing, retiring, the journal's files): two with one
        // name would make every later step pick one of them by file order.
        if manifest.bases.contains(where: { $0.name == base.name }) {
          throw ManifestError(line: line, problem: "a second base named '\(base.name)'")
        }
        manifest.bases.append(base)
      default:
        throw ManifestError(line: line, problem: "unknown line '\(fields[0])'")
      }
    }

    /// The manifest the lines made.
    /// - Throws: ``ManifestError`` when there was no header.
    func finished() throws(ManifestError) -> Manifest {
      guard sawHeader else { throw ManifestError(line: 1, problem: "empty manifest") }
      return manifest
    }
    private static func parseBase(_ fields: [String], line: Int) throws(ManifestError) -> Base {
      guard (12...14).contains(fields.count) else {
        throw ManifestError(
          line: line, problem: "a base line has 12 to 14 fields, this one \(fields.count)")
      }
      var byteCount: Int?
      if fields.count >= 13 && fields[12] != "-" {
        guard let parsed = Int(fields[12]), parsed >= 0 else {
          throw ManifestError(line: line, problem: "bytes must be a whole number")
        }
        byteCount = parsed
      }
      var installedSHA256: String?
      if fields.count == 14 {
        guard isSHA256(fields[13]) else {
          throw ManifestError(
            line: line, problem: "installed sha256 must be 64 lowercase hex digits")
        }
        // The same hash as the current file's shares its string (below, the installed file
        // too): after a sync most bases' installed file is the current one, and two fewer heap
        // strings per base is 45 KiB less in the extension at 300 regions.
        installedSHA256 = fields[13] == fields[8] ? fields[8] : fields[13]
      }
      guard let role = Role(rawValue: fields[2]) else {
        throw ManifestError(line: line, problem: "unknown role '\(fields[2])'")
      }
      guard let kind = BaseKind(name: fields[3]) else {
        throw ManifestError(line: line, problem: "unknown kind '\(fields[3])'")
      }
      guard let priority = Int(fields[5]), let version = Int(fields[6]),
        let entries = Int(fields[7]),
        entries >= 0
      else {
        throw ManifestError(
          line: line, problem: "priority, version and entries must be whole numbers")
      }
      guard isSHA256(fields[8]) else {
        throw ManifestError(line: line, problem: "sha256 must be 64 lowercase hex digits")
      }
      guard let state = State(rawValue: fields[9]) else {
        throw ManifestError(line: line, problem: "unknown state '\(fields[9])'")
      }
      for (field, what) in [(fields[10], "file"), (fields[11], "installed file")]
      where !isInsideContainer(field) && !(what == "installed file" && field == "-") {
        throw ManifestError(line: line, problem: "\(what) must be a path inside the container")
      }
      return Base(
        name: try ManifestField.unescaped(fields[1], line: line), role: role, kind: kind,
        region: fields[4] == "-" ? nil : try ManifestField.unescaped(fields[4], line: line),
        priority: priority, version: version, entries: entries, sha256: fields[8], state: state,
        file: fields[10],
        installedFile: fields[11] == "-" ? nil : fields[11] == fields[10] ? fields[10] : fields[11],
        byteCount: byteCount,
        installedSHA256: installedSHA256)
    }

    static func isSHA256(_ text: String) -> Bool {
      text.utf8.count == 64
        && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
  }
}
