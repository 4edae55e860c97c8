import BaseFormat
import CallDirectoryLoader
import DirectoryContainer
import SystemCalls

/// Exports a compiled container as Live Caller ID Lookup's two keyword databases: the numbers a
/// Call Directory install of it holds, with their block byte and their identity, streamed in
/// ascending order through two merges (identification bases, blocking bases) in constant memory.
public struct LiveLookupExporter {
  /// What the export writes beside the numbers.
  public struct Options: Sendable {
    /// The Live Caller ID Lookup extension's bundle identifier: the use cases are
    /// `BUNDLE.block` and `BUNDLE.identity`.
    public var bundleID: String
    /// Every identity's category, unless `tagsFile` gives the entry its own.
    public var category: CallIdentity.Category = .business
    /// Each entry's own category, as `calldir compile` wrote the tags of a dump's category
    /// column (`DirectoryContainer.EntryTagFile`: 1 person, 2 business), or nil.
    public var tagsFile: String?
    /// How long a device may keep an answer, minutes (0: the system's default).
    public var cacheExpiryMinutes: UInt32 = 0
    /// A folder of `+E164.heic` icons, or nil.
    public var iconsFolder: String?
    /// Whether the onboarding test identity is added (Apple asks for it in the dataset).
    public var includesTestIdentity = true
    /// The most entries the container's bases may hold (each a row of a PIR dataset; a rule
    /// base's ranges expand to a row per number): past it, nothing is written.
    public var maximumRows = LiveLookupExporter.defaultMaximumRows
    /// How the two datasets are sharded: `sha256` wherever `doubleMod`, which Apple's example
    /// prescribes for one number looked up in both, would assign the same shards.
    public var sharding = ProcessingConfig.Sharding.automatic
    /// Whether an icon that is refused (not HEIC, over ``CallIdentity/maximumIconByteCount``,
    /// unreadable) leaves its identity without an icon, named in ``Report/refusedIcons``,
    /// rather than failing the export with nothing written.
    public var skipsBadIcons = false
    /// Whether each dataset is also written one input per shard, with a configuration each
    /// (``PreShardedDatasets``), in the export's `sharded` folder.
    public var preSharded = false

    /// Options for `bundleID`.
    public init(bundleID: String) { self.bundleID = bundleID }
  }

  /// 20 M rows: France's telemarketing plan (12 M) and a directory fit; past it, Apple's tools
  /// take hours to process a dataset (1 to 2 hours at about 100 M rows, as teams running them
  /// have reported), and a PIR database has no incremental update.
  public static let defaultMaximumRows = 20_000_000

  /// Apple's onboarding test identity: +1 408 555 1212, "Johnny Appleseed".
  public static let testIdentity = (number: Int64(1_408_555_1212), name: "Johnny Appleseed")

  /// What an export wrote and refused.
  public struct Report: Equatable, Sendable {
    /// Rows of `block.binpb`: every number.
    public var blockRows = 0
    /// Numbers blocked (value 1).
    public var blocked = 0
    /// Rows of `identity.binpb`: numbers with a name.
    public var identityRows = 0
    /// Identities with an icon.
    public var icons = 0
    /// Identities whose category is person (the rest are business).
    public var people = 0
    /// Numbers without an E.164 form (over 15 digits), left out of both databases.
    public var numbersWithoutE164 = 0
    /// Icons refused, one line each (not HEIC, too large, unreadable).
    public var refusedIcons: [String] = []
    /// Files of the icons folder that are not used, one line each: a name that is not
    /// `+E164.heic`, or a number without an identity. Hidden files are not listed.
    public var ignoredIcons: [String] = []
    /// Identities left out, one line each: a value that would pass the 16-bit size limit, or a
    /// label with a bidirectional control or an invisible character.
    public var refusedIdentities: [String] = []
    /// Bytes of each database.
    public var blockBytes = 0
    public var identityBytes = 0
    /// What each database holds, as the processor sizes its buckets.
    public var blockData = ProcessingConfig.DataSize()
    public var identityData = ProcessingConfig.DataSize()
    /// The processor's configurations written (block, identity); empty from
    /// ``LiveLookupExporter/writeDatabases(into:check:)`` alone.
    public var configs: [ProcessingConfig] = []
    /// For each configuration whose PIR parameters differ from the previous export's in the
    /// folder (shard count, cuckoo bucket count or bucket size), one line with the old and new
    /// values: devices keep the parameters they fetched, so the app must call
    /// `LiveCallerIDLookupManager.refreshPIRParameters(forExtensionWithIdentifier:)` once the
    /// service serves the new data. Empty when nothing changed or there was no previous export.
    public var parameterChanges: [String] = []
    /// The pre-sharded inputs written, block's then identity's, when asked for.
    public var preShardedShards: [PreShardedDatasets.Shard] = []
  }

  let container: String
  let options: Options
  /// Hears the numbers written so far and the container's entries (an upper bound: numbers in
  /// several bases count once), every 100,000 numbers and at the end.
  public var progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }

  /// An export of the container at `container`.
  public init(container: String, options: Options) {
    self.container = container
    self.options = options
  }

  /// The bases a server serves: the seed set, every region and every blocking list the
  /// manifest holds, staged and retired ones excepted. A device's choice of regions is its own
  /// matter; the server answers for every number.
  static func served(_ manifest: Manifest) -> [Manifest.Base] {
    manifest.bases.filter { $0.state != .staged && $0.state != .retired }
  }

  /// Writes `block.binpb` and `identity.binpb` into `folder` (temporary names until the end,
  /// so a failed export leaves what was there) and returns what it wrote.
  /// - Throws: ``ExportError`` naming the base or file and the problem.
  /// `check` hears the report, and the two complete files under their temporary names, before
  /// either replaces what was there, and refuses the export by throwing.
  public func writeDatabases(
    into folder: String,
    check: (Report, _ written: (block: String, identity: String)) throws(ExportError) -> Void = {
      _, _ throws(ExportError) in
    }
  ) throws(ExportError) -> Report {
    let manifest: Manifest
    do {
      manifest = try Manifest.read(container: container)
    } catch {
      throw ExportError("\(container): \(error)")
    }
    // Every file is replaced by a rename at the end; a folder or a device in a file's place
    // would fail its rename after others were made, so it is refused before anything is.
    for name in Self.fileNames {
      let path = folder + "/" + name
      if FolderCalls.exists(path), FolderCalls.regularFileByteCount(path) == nil {
        throw ExportError("\(path): not a regular file, so it is not replaced; move it away")
      }
    }
    let bases = Self.served(manifest)
    // What is exported is what the manifest names, byte for byte, as publish checks (issue 52,
    // item 13): a base changed in place would go to the server unnoticed.
    for base in bases {
      let actual = SHA256.hexDigest(ofFile: container + "/" + base.file)
      guard actual == base.sha256 else {
        throw ExportError(
          "base \(base.name): \(base.file) \(actual.map { "has SHA-256 \($0.prefix(12))…, not the manifest's \(base.sha256.prefix(12))…" } ?? "cannot be read"); nothing was exported"
        )
      }
    }
    let total = bases.reduce(0) { $0 + $1.entries }
    // Before a file is made: the rows are known from the manifest (a rule base's count is
    // its numbers), so a 120 M-number plan is refused in a second, not after an hour.
    // The seed set repeats region entries: it adds no row.
    let rows = bases.reduce(0) { $1.role == .seed ? $0 : $0 + $1.entries }
    guard rows <= options.maximumRows else {
      throw ExportError(
        "the container's bases hold \(rows) entries, past --max-rows \(options.maximumRows): each is a row of the PIR datasets, which Apple's tools take 1 to 2 hours to process per 100 M rows; raise --max-rows to export them"
      )
    }
    var numbers = 0
    progress(0, total)
    let identification = try merge(bases.filter { $0.kind == .identification }, labels: true)
    let blocking = try merge(bases.filter { $0.kind == .blocking }, labels: false)
    let icons = try options.iconsFolder.map { folder throws(ExportError) in
      try IconFolder(folder: folder)
    }
    // Bounded by the icon files, not the numbers: only numbers that have one are kept.
    var numbersWithIconFiles = Set<Int64>()
    let tags: EntryTagFile.Reader?
    do {
      tags = try options.tagsFile.map { path throws(ContainerError) in
        try EntryTagFile.Reader(path: path)
      }
    } catch {
      throw ExportError(error.description)
    }
    let block: KeywordDatabaseWriter
    let identity: KeywordDatabaseWriter
    do {
      block = try KeywordDatabaseWriter(path: folder + "/" + Self.blockFileName)
      identity = try KeywordDatabaseWriter(path: folder + "/" + Self.identityFileName)
    } catch {
      throw ExportError("\(error)")
    }
    var report = Report()
    // One value buffer for every identity, and the two block values made once.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(CallIdentity.maximumValueByteCount)
    let blockedValue: [UInt8] = [1]
    let clearValue: [UInt8] = [0]
    do {
      var rows = NumberRows(
        identification: identification, blocking: blocking,
        testIdentity: options.includesTestIdentity ? Self.testIdentity : nil)
      while let row = try rows.next() {
        numbers += 1
        if numbers % 100_000 == 0 { progress(numbers, max(total, numbers)) }
        guard E164.hasForm(row.number) else {
          report.numbersWithoutE164 += 1
          continue
        }
        try block.append(number: row.number, value: row.blocked ? blockedValue : clearValue)
        report.blockRows += 1
        if row.blocked { report.blocked += 1 }
        guard let name = row.label, !name.isEmpty else { continue }
        // The compiler refuses these in labels (issue 52), but a base written before the
        // rule, with a soft hyphen or a zero width space, still reads: a call screen must
        // not show a name that hides a word, on either path.
        if let offset = LabelRule.controlCharacterOffset(in: name)
          ?? InvisibleCharacters.offset(in: name)
        {
          report.refusedIdentities.append(
            "\(E164.keyword(of: row.number)): its label has a bidirectional control or an invisible character at byte \(offset + 1) (left without a name; its block row is kept)"
          )
          continue
        }
        // Johnny Appleseed is a person, whatever the directory's category; an entry with a
        // tag of its own has its row's category.
        let tag = try tags?.tag(of: row.number) ?? 0
        let category =
          row.isTestIdentity
          ? .person
          : CallIdentity.Category(rawValue: UInt64(tag)).flatMap {
            $0 == .unspecified ? nil : $0
          } ?? options.category
        var value = CallIdentity(
          name: name, cacheExpiryMinutes: options.cacheExpiryMinutes, category: category)
        let icon = icons?.icon(for: row.number)
        if icon != nil { numbersWithIconFiles.insert(row.number) }
        switch icon {
        case .success(let image)?: value.icon = image
        case .failure(let refusal)?: report.refusedIcons.append(refusal.line)
        case nil: break
        }
        bytes.removeAll(keepingCapacity: true)
        value.encode(into: &bytes)
        if bytes.count > CallIdentity.maximumValueByteCount, value.icon != nil {
          report.refusedIcons.append(
            "\(E164.keyword(of: row.number)).heic: the identity would take \(bytes.count) bytes, over \(CallIdentity.maximumValueByteCount)"
          )
          value.icon = nil
          bytes.removeAll(keepingCapacity: true)
          value.encode(into: &bytes)
        }
        guard bytes.count <= CallIdentity.maximumValueByteCount else {
          report.refusedIdentities.append(
            "\(E164.keyword(of: row.number)): \(bytes.count) bytes, over \(CallIdentity.maximumValueByteCount)"
          )
          continue
        }
        if value.icon != nil { report.icons += 1 }
        if category == .person { report.people += 1 }
        try identity.append(number: row.number, value: bytes)
        report.identityRows += 1
      }
      report.blockBytes = block.byteCount
      report.identityBytes = identity.byteCount
      report.blockData = .init(
        rows: block.rowCount, valueBytes: block.valueByteCount,
        largestValue: block.largestValueByteCount)
      report.identityData = .init(
        rows: identity.rowCount, valueBytes: identity.valueByteCount,
        largestValue: identity.largestValueByteCount)
      if let icons {
        report.ignoredIcons =
          icons.ignoredNames.map { "\($0): not named +E164.heic (a + then 1 to 15 digits)" }
          + icons.unusedNames(asked: numbersWithIconFiles).map {
            "\($0): no identity in the directory has this number"
          }
      }
      progress(numbers, numbers)
      if !options.skipsBadIcons, !report.refusedIcons.isEmpty {
        throw ExportError(Self.refusedIconsLine(report.refusedIcons))
      }
      try block.writeOut()
      try identity.writeOut()
      try check(report, (block.temporaryPath, identity.temporaryPath))
      try block.commit()
      try identity.commit()
    } catch {
      block.discard()
      identity.discard()
      throw ExportError("\(error)")
    }
    return report
  }

  /// The line an export without `skipsBadIcons` fails with: the first refusals by name, a
  /// count of the rest.
  static func refusedIconsLine(_ refusals: [String]) -> String {
    let named = refusals.prefix(3).joined(separator: "; ")
    let rest = refusals.count > 3 ? "; and \(refusals.count - 3) more" : ""
    return
      "refused icon\(refusals.count == 1 ? "" : "s") \(named)\(rest); nothing was exported (--skip-bad-icons exports those identities without an icon)"
  }

  /// Every file an export writes, in the order they are renamed into place.
  public static let fileNames = [
    blockFileName, identityFileName, "block-config.json", "identity-config.json", "usecases.json",
  ]

  /// The blocking database's file name.
  public static let blockFileName = "block.binpb"
  /// The identity database's file name.
  public static let identityFileName = "identity.binpb"

  /// One ascending merge over `bases` with their priorities, opening each base when the merge
  /// reaches it (a region is a contiguous number range, so two or three are open at once).
  private func merge(_ bases: [Manifest.Base], labels: Bool) throws(ExportError) -> MergedList {
    var members: [(base: Manifest.Base, header: BaseHeader)] = []
    for base in bases {
      let header: BaseHeader
      do {
        header = try BaseHeader.read(path: container + "/" + base.file)
      } catch {
        throw ExportError("base \(base.name): \(error)")
      }
      guard header.entryCount > 0 else { continue }
      members.append((base, header))
    }
    let container = container
    return MergedList(pending: members.map { ($0.header.lowestNumber, $0.base.priority) }) {
      index throws(BaseFormatError) in
      try BaseFile.reader(path: container + "/" + members[index].base.file, skipsLabels: !labels)
    }
  }
}

/// Why an export failed: one line naming the base or file and the problem.
public struct ExportError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The line.
  public let description: String
  init(_ description: String) { self.description = description }
}
