import BaseFormat

/// The container's list of bases: what the app downloaded, what the extension may install, and
/// what is installed. Plain tab-separated text so the extension reads it without Foundation:
///
/// ```
/// calldir-manifest	1
/// full-set	requested            (or not-requested: the next complete load installs the seed set)
/// chosen	RU-495,RU-812         (regions the user picked)
/// install	installed=N	…       (optional: progress past the cap, see InstallProgress)
/// base	NAME	ROLE	KIND	REGION	PRIORITY	VERSION	ENTRIES	SHA256	STATE	FILE	INSTALLED-FILE	BYTES
/// ```
///
/// `ROLE` is `seed`, `region` or `blocking`; `STATE` `staged`, `ready` or `installed`;
/// `REGION` and `INSTALLED-FILE` are `-` when absent; `BYTES` (the file's size) may be left out. Files are relative to the container.
/// `INSTALLED-FILE` names the version the system holds, kept until a newer one is installed, so
/// an incremental request can send the difference and a disabled-then-enabled extension can
/// reinstall everything.
public struct Manifest: Equatable, Sendable {
  /// The manifest's file name inside the container.
  public static let fileName = "manifest.cdm"
  /// The largest manifest read, 1 MiB: about 4,000 bases, far past any directory's regions (2GIS
  /// had 108), small enough that a hostile file cannot take the extension's 5 MiB.
  public static let maximumByteCount = 1 << 20
  static let header = "calldir-manifest\t1"

  /// What a base is for.
  public enum Role: String, Sendable, CaseIterable {
    /// The small set installed first so enabling feels instant.
    case seed
    /// A region the user may choose.
    case region
    /// A blocking list.
    case blocking
  }

  /// Where a base is in its life.
  public enum State: String, Sendable, CaseIterable {
    /// Downloaded, not yet verified.
    case staged
    /// Verified and waiting to be installed.
    case ready
    /// The system holds this version.
    case installed
    /// No longer published (a recompile left it out): never selected, so the next load removes
    /// its entries from the system; dropped from the manifest once the system holds none.
    case retired
  }

  /// One base.
  public struct Base: Equatable, Sendable {
    public var name: String
    public var role: Role
    public var kind: BaseKind
    public var region: String?
    /// Higher wins a number two bases share, and survives the cap first.
    public var priority: Int
    public var version: Int
    public var entries: Int
    /// SHA-256 of the file, 64 lowercase hex digits.
    public var sha256: String
    public var state: State
    /// The current version's file, relative to the container.
    public var file: String
    /// The file of the version the system holds, if any.
    public var installedFile: String?
    /// The file's size in bytes, when recorded.
    public var byteCount: Int?
    /// SHA-256 of the installed file, recorded when it was installed.
    public var installedSHA256: String?

    /// What the installed file must hash to, when known: its recorded hash, or the current
    /// file's when the installed file is the current one (manifests older than the record).
    public var expectedInstalledSHA256: String? {
      installedSHA256 ?? (installedFile != nil && installedFile == file ? sha256 : nil)
    }

    public init(
      name: String, role: Role, kind: BaseKind, region: String? = nil, priority: Int,
      version: Int, entries: Int, sha256: String, state: State, file: String,
      installedFile: String? = nil, byteCount: Int? = nil, installedSHA256: String? = nil
    ) {
      self.name = name
      self.role = role
      self.kind = kind
      self.region = region
      self.priority = priority
      self.version = version
      self.entries = entries
      self.sha256 = sha256
      self.state = state
      self.file = file
      self.installedFile = installedFile
      self.byteCount = byteCount
      self.installedSHA256 = installedSHA256
    }
  }

  /// Whether the next complete load installs the full set (else the seed set).
  public var fullSetRequested = false
  /// Regions the user chose.
  public var chosenRegions: [String] = []
  /// Every base, in file order.
  public var bases: [Base] = []
  /// How far installing a full set larger than one load has got.
  public var installProgress = InstallProgress()
  /// The numbers this container's extension installs, when the set is split across several
  /// extensions by number range (`range	LOW	HIGH`, low included, high excluded); nil: all.
  public var numberRange: Range<Int64>?

  public init(fullSetRequested: Bool = false, chosenRegions: [String] = [], bases: [Base] = []) {
    self.fullSetRequested = fullSetRequested
    self.chosenRegions = chosenRegions
    self.bases = bases
  }

  /// The manifest as text.
  public func encoded() -> String {
    var lines = [Self.header, "full-set\t" + (fullSetRequested ? "requested" : "not-requested")]
    lines.append(
      "chosen\t"
        + (chosenRegions.isEmpty
          ? "-" : chosenRegions.map(ManifestField.escaped).joined(separator: ",")))
    if let numberRange {
      lines.append("range\t\(numberRange.lowerBound)\t\(numberRange.upperBound)")
    }
    if !installProgress.isDefault {
      lines.append((["install"] + installProgress.fields).joined(separator: "\t"))
    }
    for base in bases {
      var fields = [
        "base", ManifestField.escaped(base.name), base.role.rawValue, base.kind.description,
        base.region.map(ManifestField.escaped) ?? "-",
        String(base.priority), String(base.version), String(base.entries), base.sha256,
        base.state.rawValue, base.file, base.installedFile ?? "-",
      ]
      // Optional trailing fields: bytes, then the installed file's hash.
      if base.byteCount != nil || base.installedSHA256 != nil {
        fields.append(base.byteCount.map(String.init) ?? "-")
      }
      if let installedSHA256 = base.installedSHA256 { fields.append(installedSHA256) }
      lines.append(fields.joined(separator: "\t"))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Parses manifest text.
  /// - Throws: ``ManifestError`` naming the line and the field.
  public init(parsing text: String) throws(ManifestError) {
    var sawHeader = false
    // Room for a base per line, reserved once: an array grown by doubling leaves every size it
    // passed through in the allocator's thread cache, which is the extension's footprint.
    bases.reserveCapacity(text.utf8.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 })
    // Lines split on the byte, not on Characters: "\r\n" is one Character, and a field must never
    // run into the next line. A CRLF file's "\r" is dropped.
    for (index, lineBytes) in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
      .enumerated()
    {
      let line = index + 1
      let rawLine = Substring(
        decoding: lineBytes.last == 0x0D ? lineBytes.dropLast() : lineBytes[...], as: UTF8.self)
      if rawLine.isEmpty || rawLine.hasPrefix("#") { continue }
      let fields = rawLine.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      if !sawHeader {
        guard rawLine == Self.header else {
          throw ManifestError(
            line: line, problem: "not a calldir manifest (expected '\(Self.header)')")
        }
        sawHeader = true
        continue
      }
      switch fields[0] {
      case "full-set":
        guard fields.count == 2, fields[1] == "requested" || fields[1] == "not-requested" else {
          throw ManifestError(line: line, problem: "full-set must be requested or not-requested")
        }
        fullSetRequested = fields[1] == "requested"
      case "chosen":
        guard fields.count == 2 else {
          throw ManifestError(line: line, problem: "chosen takes one field")
        }
        chosenRegions = []
        if fields[1] != "-" {
          for region in fields[1].split(separator: ",", omittingEmptySubsequences: false) {
            chosenRegions.append(try ManifestField.unescaped(String(region), line: line))
          }
        }
      case "range":
        guard fields.count == 3, let low = Int64(fields[1]), let high = Int64(fields[2]),
          low < high
        else {
          throw ManifestError(line: line, problem: "range takes two numbers, low below high")
        }
        numberRange = low..<high
      case "install":
        installProgress = try InstallProgress(fields: fields.dropFirst(), line: line)
      case "base":
        let base = try Self.parseBase(fields, line: line)
        // Bases are found by name (installing, retiring, the journal's files): two with one
        // name would make every later step pick one of them by file order.
        if bases.contains(where: { $0.name == base.name }) {
          throw ManifestError(line: line, problem: "a second base named '\(base.name)'")
        }
        bases.append(base)
      default:
        throw ManifestError(line: line, problem: "unknown line '\(fields[0])'")
      }
    }
    guard sawHeader else { throw ManifestError(line: 1, problem: "empty manifest") }
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
        throw ManifestError(line: line, problem: "installed sha256 must be 64 lowercase hex digits")
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
    guard let priority = Int(fields[5]), let version = Int(fields[6]), let entries = Int(fields[7]),
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

  private static func isSHA256(_ text: String) -> Bool {
    text.utf8.count == 64
      && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  /// Reads `manifest.cdm` from a container folder.
  /// - Throws: ``ManifestError`` (line 0 when the file cannot be read).
  public static func read(container: String) throws(ManifestError) -> Manifest {
    try readContainerText(container + "/" + fileName, maximumByteCount: maximumByteCount) {
      text throws(ManifestError) in try Manifest(parsing: text)
    }
  }

  /// Writes `manifest.cdm` atomically (temporary file, fsync, rename).
  /// - Throws: ``BaseFormat/BaseFormatError`` when the file cannot be written.
  public func write(container: String) throws(BaseFormatError) {
    try writeContainerText(encoded(), to: container + "/" + Self.fileName)
  }
}

/// Reads a container's small text file (the manifest, the journal) and parses it; an error names
/// the file.
/// - Throws: ``ManifestError`` (line 0 when the file cannot be read).
func readContainerText<Parsed>(
  _ path: String, maximumByteCount: Int, _ parse: (String) throws(ManifestError) -> Parsed
) throws(ManifestError) -> Parsed {
  let text = try readTextFile(path, maximumByteCount: maximumByteCount).get()
  do {
    return try parse(text)
  } catch {
    throw ManifestError(line: error.line, problem: "\(path): \(error.problem)")
  }
}

/// Writes a container's small text file atomically (temporary file, fsync, rename, directory
/// fsync).
/// - Throws: ``BaseFormat/BaseFormatError`` when it cannot be written.
func writeContainerText(_ text: String, to path: String) throws(BaseFormatError) {
  let writer = try AtomicFileWriter(path: path)
  try writer.write(text.utf8)
  try writer.commit()
}

/// Whether a manifest's file path stays inside the container: relative, no `..` component, and
/// no control character (a trailing carriage return would not survive a CRLF manifest's
/// reading, so the path would change on every rewrite).
func isInsideContainer(_ path: String) -> Bool {
  !path.isEmpty && !path.hasPrefix("/") && !path.split(separator: "/").contains("..")
    && !path.utf8.contains { $0 < 0x20 || $0 == 0x7F }
}

/// A manifest that cannot be read, with its line.
public struct ManifestError: Error, Equatable, CustomStringConvertible {
  public var line: Int
  public var problem: String
  public init(line: Int, problem: String) {
    self.line = line
    self.problem = problem
  }
  public var description: String { line > 0 ? "manifest line \(line): \(problem)" : problem }
}

/// ``readSmallTextFile(_:maximumByteCount:)`` as the manifest's error (line 0).
func readTextFile(_ path: String, maximumByteCount: Int) -> Result<String, ManifestError> {
  do {
    return .success(try readSmallTextFile(path, maximumByteCount: maximumByteCount))
  } catch {
    return .failure(ManifestError(line: 0, problem: error.description))
  }
}
