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
  package static let fileName = "manifest.cdm"
  /// The largest manifest read, 1 MiB: about 4,000 bases, far past any directory's regions (2GIS
  /// had 108), small enough that a hostile file cannot take the extension's 5 MiB.
  package static let maximumByteCount = 1 << 20
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
    /// The base's name, unique in the container.
    public var name: String
    /// Its place in the install order: the seed set, a region, or a blocking list.
    public var role: Role
    /// Which of the system's two lists it feeds: identification or blocking.
    public var kind: BaseKind
    /// The region a user may choose it by, or `nil` for a base every choice includes.
    public var region: String?
    /// Higher wins a number two bases share, and survives the cap first.
    public var priority: Int
    /// The publisher's version of this base; a higher one replaces it.
    public var version: Int
    /// How many numbers the base holds.
    public var entries: Int
    /// SHA-256 of the file, 64 lowercase hex digits.
    package var sha256: String
    /// Where the base is between download and install.
    public var state: State
    /// The current version's file, relative to the container.
    public var file: String
    /// The file of the version the system holds, if any.
    package var installedFile: String?
    /// The file's size in bytes, when recorded.
    public var byteCount: Int?
    /// SHA-256 of the installed file, recorded when it was installed.
    package var installedSHA256: String?

    /// What the installed file must hash to, when known: its recorded hash, or the current
    /// file's when the installed file is the current one (manifests older than the record).
    package var expectedInstalledSHA256: String? {
      installedSHA256 ?? (installedFile != nil && installedFile == file ? sha256 : nil)
    }

    package init(
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
  package var installProgress = InstallProgress()
  /// The numbers this container's extension installs, when the set is split across several
  /// extensions by number range (`range	LOW	HIGH`, low included, high excluded); nil: all.
  public var numberRange: Range<Int64>?
  /// Counts the manifest's commits: ``ContainerTransaction/commit(_:)`` writes one more than
  /// the manifest it replaces. A writer that planned outside the lock (an update's downloads,
  /// a stage's copy) commits only if the container is still at the generation it planned
  /// against, so a compile or another update in between is never mixed into its set (issue 52,
  /// item 6). 0 for a manifest from before the field.
  package var generation = 0

  package init(fullSetRequested: Bool = false, chosenRegions: [String] = [], bases: [Base] = []) {
    self.fullSetRequested = fullSetRequested
    self.chosenRegions = chosenRegions
    self.bases = bases
  }

  /// The manifest as text.
  package func encoded() -> String {
    var lines = [Self.header, "full-set\t" + (fullSetRequested ? "requested" : "not-requested")]
    lines.append(
      "chosen\t"
        + (chosenRegions.isEmpty
          ? "-" : chosenRegions.map(ManifestField.escaped).joined(separator: ",")))
    if let numberRange {
      lines.append("range\t\(numberRange.lowerBound)\t\(numberRange.upperBound)")
    }
    if generation > 0 { lines.append("generation\t\(generation)") }
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

  /// Writes `manifest.cdm` atomically (temporary file, fsync, rename).
  /// - Throws: `BaseFormat.BaseFormatError` when the file cannot be written, or when it would
  ///   be larger than ``maximumByteCount``, which every reader refuses: a compile of 9,000
  ///   regions wrote 1,615,778 bytes, and every later command refused the container (issue 65,
  ///   item 9). The old manifest is then left as it was.
  package func write(container: String) throws(BaseFormatError) {
    let text = encoded()
    let path = container + "/" + Self.fileName
    guard text.utf8.count <= Self.maximumByteCount else {
      throw BaseFormatError(
        path: path, offset: 0,
        problem: .refusedOutput(
          "\(path) would be \(text.utf8.count) bytes for \(bases.count) bases, over the \(Self.maximumByteCount) a manifest may hold (what the extension reads in its few megabytes): fewer regions, or split the set (`app sync --extensions`); nothing was changed"
        ))
    }
    try writeContainerText(text, to: path)
  }
}

/// Writes a container's small text file atomically (temporary file, fsync, rename, directory
/// fsync).
/// - Throws: `BaseFormat.BaseFormatError` when it cannot be written.
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
  package init(line: Int, problem: String) {
    self.line = line
    self.problem = problem
  }
  public var description: String { line > 0 ? "manifest line \(line): \(problem)" : problem }
}
