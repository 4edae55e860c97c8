import DirectoryContainer

/// A release folder's index (`index.json`): its numbered versions, each version's bases
/// (content-addressed files, as in a container), and the patches between bases. Written last and
/// atomically by `calldir publish`, so a client that reads it finds every file it names.
///
/// ```json
/// {"format":1,
///  "versions":[{"version":2,"bases":[{"name":"region-RU-MOW","role":"region",
///    "region":"RU-MOW","priority":50,"entries":2,"sha256":"88…","bytes":181,
///    "file":"bases/region-RU-MOW.889544c2c4fd7130.cdb"}]}],
///  "patches":[{"name":"region-RU-MOW","from":"dc…","to":"88…",
///    "file":"patches/region-RU-MOW.dc24557d-889544c2.cdp","bytes":97,"sha256":"…"}]}
/// ```
package struct ReleaseIndex: Equatable, Sendable {
  /// The index's file name in a release folder.
  package static let fileName = "index.json"
  /// The index format this code writes and reads.
  package static let format: Int64 = 1
  /// The largest base or patch an index may declare, in bytes: 4 GiB. A base holds at most
  /// 1,999,999 entries in practice (one CallKit request), a few dozen MiB even with 1,024-byte
  /// labels written inline; the bound keeps a declared size from reserving the disk or
  /// overflowing a sum.
  package static let maximumFileByteCount = 1 << 32
  /// The most patches an index may name: 65,536, far above `publish`'s (bases × `--keep`), so
  /// the chain search stays bounded (issue 39, item 8).
  package static let maximumPatchCount = 1 << 16
  /// The most entries a base may declare, and the highest priority.
  package static let maximumCount = 1 << 32
  /// The highest version number an index may hold: what `publish` and `app stage --version`
  /// write at most. An index that said 4294967296 was read, and after one update from it every
  /// real release was refused as older (issue 65, item 11).
  package static let maximumVersion = 1_000_000_000

  /// A base of a version.
  package struct Base: Equatable, Sendable {
    /// The base's name (as in the container's manifest).
    package var name: String
    /// `seed`, `region` or `blocking`.
    package var role: String
    /// The region a region base covers.
    package var region: String?
    /// The priority the app gives it.
    package var priority: Int
    /// Entries in the base.
    package var entries: Int
    /// SHA-256 of the file, lowercase hex.
    package var sha256: String
    /// The file's size, bytes.
    package var byteCount: Int
    /// The file, relative to the release folder.
    package var file: String

    package init(
      name: String, role: String, region: String?, priority: Int, entries: Int, sha256: String,
      byteCount: Int, file: String
    ) {
      self.name = name
      self.role = role
      self.region = region
      self.priority = priority
      self.entries = entries
      self.sha256 = sha256
      self.byteCount = byteCount
      self.file = file
    }
  }

  /// A numbered version: the bases a container holds at it.
  package struct Version: Equatable, Sendable {
    package var number: Int
    package var bases: [Base]
    package init(number: Int, bases: [Base]) {
      self.number = number
      self.bases = bases
    }

    /// The entries the version publishes: its region and blocking bases (the seed set repeats
    /// region entries), as `DirectoryContainer.ShrinkRule.publishedEntries(_:)` counts a
    /// manifest's.
    package var publishedEntries: Int {
      bases.filter { $0.role != Manifest.Role.seed.rawValue }.reduce(0) { $0 &+ $1.entries }
    }
  }

  /// A patch from one base's bytes to another's.
  package struct Patch: Equatable, Sendable {
    /// The base's name.
    package var name: String
    /// SHA-256 of the base it applies to.
    package var fromSHA256: String
    /// SHA-256 of the base it makes.
    package var toSHA256: String
    /// The patch file, relative to the release folder.
    package var file: String
    /// The patch file's size, bytes.
    package var byteCount: Int
    /// SHA-256 of the patch file.
    package var sha256: String

    package init(
      name: String, fromSHA256: String, toSHA256: String, file: String, byteCount: Int,
      sha256: String
    ) {
      self.name = name
      self.fromSHA256 = fromSHA256
      self.toSHA256 = toSHA256
      self.file = file
      self.byteCount = byteCount
      self.sha256 = sha256
    }
  }

  /// Versions, oldest first.
  package var versions: [Version]
  /// Patches between the bases of the versions kept.
  package var patches: [Patch]

  /// The newest version.
  package var latest: Version? { versions.last }

  package init(versions: [Version] = [], patches: [Patch] = []) {
    self.versions = versions
    self.patches = patches
  }
}

extension ReleaseIndex {
  /// The index as JSON text.
  package var json: String {
    func base(_ base: Base) -> JSONValue {
      var members: [(String, JSONValue)] = [
        ("name", .string(base.name)), ("role", .string(base.role)),
      ]
      if let region = base.region { members.append(("region", .string(region))) }
      members += [
        ("priority", .number(Int64(base.priority))), ("entries", .number(Int64(base.entries))),
        ("sha256", .string(base.sha256)), ("bytes", .number(Int64(base.byteCount))),
        ("file", .string(base.file)),
      ]
      return .object(members)
    }
    let value = JSONValue.object([
      ("format", .number(Self.format)),
      (
        "versions",
        .array(
          versions.map {
            .object([("version", .number(Int64($0.number))), ("bases", .array($0.bases.map(base)))])
          })
      ),
      (
        "patches",
        .array(
          patches.map {
            .object([
              ("name", .string($0.name)), ("from", .string($0.fromSHA256)),
              ("to", .string($0.toSHA256)), ("file", .string($0.file)),
              ("bytes", .number(Int64($0.byteCount))), ("sha256", .string($0.sha256)),
            ])
          })
      ),
    ])
    return value.text + "\n"
  }
}
