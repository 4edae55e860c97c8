import Foundation

/// `PIRProcessDatabase`'s configuration for one use case, and the service's use-case list, with
/// parameters sized as Apple's processor sizes them (swift-homomorphic-encryption,
/// `PIRProcessDatabase/main.swift`, `CuckooTable.swift`, `HashBucket.swift`).
///
/// - **Bucket size.** A cuckoo bucket holds a slot-count byte, then per entry an 8-byte keyword
///   hash, a 2-byte length and the value (no keyword). `maxSerializedBucketSize` is the
///   processor's own default for the largest value written: half a plaintext (1,024 bytes for
///   `n_4096_logq_27_28_28_logt_5`, whose plaintext holds 4,096 × ⌊log₂ 17⌋ bits), or, for a
///   value that needs more, the next multiple of a whole plaintext. A 3,030-byte icon needs
///   3,041 and gets 4,096.
/// - **Buckets.** A fixed bucket count (`cuckooTableArguments.bucketCount.fixedSize`) keeps the
///   PIR parameters the same across updates, so devices need not fetch new ones. It is sized
///   as the processor's `allowExpansion` sizes it, for the largest shard expected (the mean plus
///   four standard deviations of a hash split), at a load factor of ``targetLoadFactor``. The
///   processor then logs a load factor of about 0.7 for a shard of thousands of entries.
/// - **Shards.** Apple's example takes 50,000 entries per blocking shard and 5,000 per identity
///   shard, with a quarter's headroom for growth. One shard count divides the other, so a
///   number's two shard indices tell the server no more than the larger count's alone, with
///   `sha256` on both; `doubleMod` would assign the same shards and shut out older devices.
/// - **Updates.** An export into a folder that holds the previous export's configurations keeps
///   their shard counts, bucket size and bucket count while the new data keeps the projected load
///   between ``reuseLoadFactors`` and every shard under its entries.
public struct ProcessingConfig: Equatable, Sendable {
  /// The use case's file stem: `block` or `identity`.
  public var stem: String
  /// The use case's name, `BUNDLE.block` or `BUNDLE.identity`.
  public var useCase: String
  /// Shards the database is split into.
  public var shardCount: Int
  /// Cuckoo buckets per shard, fixed.
  public var bucketCount: Int
  /// `cuckooTableArguments.maxSerializedBucketSize`, bytes.
  public var bucketByteCount: Int
  /// How a keyword picks its shard.
  public var shardingFunction: ShardingFunction

  /// A keyword's shard, as `PIRProcessDatabase` computes it.
  public enum ShardingFunction: Equatable, Sendable {
    /// `truncate(SHA256(keyword)) % shardCount`: the processor's default, every iOS version.
    case sha256
    /// `(truncate(SHA256(keyword)) % otherShardCount) % shardCount`: what Apple's Live Caller
    /// ID Lookup example prescribes when one number is looked up in two datasets. iOS 18.2 and
    /// macOS 15.2 or later (`PirConfig+compatible.swift`: older devices are refused the config).
    case doubleMod(otherShardCount: Int)
  }

  /// How the export shards the two datasets.
  public enum Sharding: String, CaseIterable, Sendable {
    /// `doubleMod` only where it assigns other shards than `sha256`: when the larger count is
    /// not a multiple of the smaller. `(h % L) % S` is `h % S` whenever S divides L, and the
    /// export's counts always divide, so this writes `sha256`: the same shards, and every
    /// device served, where `doubleMod` would shut out iOS before 18.2 and macOS before 15.2.
    case automatic = "auto"
    /// The dataset with fewer shards takes `doubleMod` of the other's count, even where it
    /// assigns the same shards: iOS 18.2+ and macOS 15.2+ only.
    case doubleMod = "double-mod"
    /// Both take `sha256`, for devices before iOS 18.2. The counts still divide each other, so
    /// the pair of indices tells no more than the larger count alone; a server that reprocesses
    /// with other counts loses that.
    case sha256
  }

  /// Whether `function` assigns every keyword the shard `sha256` would among `shardCount`:
  /// `(h % L) % S == h % S` for every `h` exactly when S divides L.
  public static func assignsAsSHA256(_ function: ShardingFunction, shardCount: Int) -> Bool {
    switch function {
    case .sha256: return true
    case .doubleMod(let other): return other > 0 && shardCount > 0 && other % shardCount == 0
    }
  }

  /// What one database holds, as the processor sizes its buckets from it.
  public struct DataSize: Equatable, Sendable {
    /// Rows.
    public var rows = 0
    /// The values' bytes in all.
    public var valueBytes = 0
    /// The largest value, bytes.
    public var largestValue = 0

    public init(rows: Int = 0, valueBytes: Int = 0, largestValue: Int = 0) {
      self.rows = rows
      self.valueBytes = valueBytes
      self.largestValue = largestValue
    }
  }

  /// Apple's example's entries per shard for each use case.
  public static let entriesPerShard = ["block": 50_000, "identity": 5_000]
  /// The room left for growth before the shard count must change: a quarter.
  public static let headroom = 1.25
  /// The predefined RLWE parameters of Apple's example.
  public static let rlweParameters = "n_4096_logq_27_28_28_logt_5"
  /// Bytes one plaintext of ``rlweParameters`` holds: 4,096 coefficients of ⌊log₂ 17⌋ = 4 bits.
  public static let plaintextByteCount = 2_048
  /// A bucket's bytes besides its values: the slot count.
  static let bucketOverhead = 1
  /// An entry's bytes besides its value: the keyword's 8-byte hash and a 2-byte length.
  static let entryOverhead = 10
  /// `hashFunctionCount`: two tables, the processor's suggestion; a bucket count is a multiple.
  static let tableCount = 2
  /// The most entries a bucket holds: its slot count is one byte (`HashBucket.maxSlotCount`).
  /// With one 63 KiB icon a bucket is 64 KiB, and 2,600 identities fit four buckets by bytes
  /// but not by slots: the processor failed with "Failed to construct Cuckoo table".
  static let slotsPerBucket = 255
  /// The load factor a fresh configuration is sized for: room for a fifth more data before
  /// ``reuseLoadFactors``' top.
  public static let targetLoadFactor = 0.75
  /// The projected load factors at which a previous configuration is kept: below, the tables
  /// are oversized (the server pays for empty buckets on every query); above, a fixed-size
  /// cuckoo table may fail to build.
  public static let reuseLoadFactors = 0.6...0.85

  /// The processor's bucket size for values of up to `largestValue` bytes
  /// (`CuckooTableConfig.defaultMaxSerializedBucketSize`).
  public static func bucketByteCount(largestValue: Int) -> Int {
    let single = bucketOverhead + entryOverhead + largestValue
    guard single >= plaintextByteCount / 2 else { return plaintextByteCount / 2 }
    return (single + plaintextByteCount - 1) / plaintextByteCount * plaintextByteCount
  }

  /// The most entries a shard of `shardCount` is expected to take of `rows`: the mean, plus
  /// four standard deviations when a hash splits them.
  static func largestShard(rows: Int, shardCount: Int) -> Double {
    let mean = Double(rows) / Double(max(shardCount, 1))
    guard shardCount > 1 else { return mean }
    return mean + 4 * (mean * (1 - 1 / Double(shardCount))).squareRoot()
  }

  /// The share of its buckets' slots the largest shard expected fills.
  static func slotLoad(rows: Int, shardCount: Int, bucketCount: Int) -> Double {
    guard bucketCount > 0 else { return .infinity }
    return largestShard(rows: rows, shardCount: shardCount)
      / Double(bucketCount * slotsPerBucket)
  }

  /// The load factor the processor would log for the largest shard expected.
  public static func projectedLoad(
    _ data: DataSize, shardCount: Int, bucketCount: Int, bucketByteCount: Int
  ) -> Double {
    guard bucketCount > 0, bucketByteCount > 0 else { return .infinity }
    let entries = largestShard(rows: data.rows, shardCount: shardCount)
    let perEntry =
      Double(entryOverhead) + Double(data.valueBytes) / Double(max(data.rows, 1))
    let bytes = Double(bucketCount * bucketOverhead) + entries * perEntry
    return bytes / Double(bucketCount * bucketByteCount)
  }

  /// A configuration of `shardCount` shards sized for `data`.
  init(
    stem: String, bundleID: String, data: DataSize, shardCount: Int,
    shardingFunction: ShardingFunction
  ) {
    self.stem = stem
    useCase = bundleID + "." + stem
    self.shardCount = shardCount
    self.shardingFunction = shardingFunction
    bucketByteCount = Self.bucketByteCount(largestValue: data.largestValue)
    let entries = Self.largestShard(rows: max(data.rows, 1), shardCount: shardCount)
    let perEntry =
      Double(Self.entryOverhead) + Double(data.valueBytes) / Double(max(data.rows, 1))
    // (buckets × overhead + bytes) / (buckets × size) = target, solved for buckets.
    let buckets =
      entries * perEntry
      / (Self.targetLoadFactor * Double(bucketByteCount) - Double(Self.bucketOverhead))
    // Enough slots too, at the same load: large buckets hold few entries' worth of slots.
    let slotted = entries / (Self.targetLoadFactor * Double(Self.slotsPerBucket))
    let whole = max(Self.tableCount, Int(max(buckets, slotted).rounded(.up)))
    bucketCount = (whole + Self.tableCount - 1) / Self.tableCount * Self.tableCount
  }

  init(
    stem: String, useCase: String, shardCount: Int, bucketCount: Int, bucketByteCount: Int,
    shardingFunction: ShardingFunction
  ) {
    self.stem = stem
    self.useCase = useCase
    self.shardCount = shardCount
    self.bucketCount = bucketCount
    self.bucketByteCount = bucketByteCount
    self.shardingFunction = shardingFunction
  }

  /// Whether `data` may keep this configuration: the same bucket size, every shard under its
  /// entries, and the projected load within ``reuseLoadFactors``.
  func fits(_ data: DataSize) -> Bool {
    let perShard = Self.entriesPerShard[stem] ?? 5_000
    return bucketByteCount == Self.bucketByteCount(largestValue: data.largestValue)
      && Self.largestShard(rows: data.rows, shardCount: shardCount) <= Double(perShard)
      && Self.slotLoad(rows: data.rows, shardCount: shardCount, bucketCount: bucketCount)
        <= Self.reuseLoadFactors.upperBound
      && Self.reuseLoadFactors.contains(
        Self.projectedLoad(
          data, shardCount: shardCount, bucketCount: bucketCount,
          bucketByteCount: bucketByteCount))
  }

  /// The shards `rows` take with a quarter's headroom.
  static func freshShardCount(stem: String, rows: Int) -> Int {
    let perShard = entriesPerShard[stem] ?? 5_000
    let planned = Int((Double(max(rows, 1)) * headroom).rounded(.up))
    return max(1, (planned + perShard - 1) / perShard)
  }

  /// The block and identity configurations for the data an export wrote: the previous export's
  /// while both still fit (and their counts divide), else sized afresh with counts that divide.
  public static func plan(
    bundleID: String, block: DataSize, identity: DataSize, sharding: Sharding,
    previous: (block: ProcessingConfig?, identity: ProcessingConfig?) = (nil, nil)
  ) -> (block: ProcessingConfig, identity: ProcessingConfig) {
    var blockShards = freshShardCount(stem: "block", rows: block.rows)
    var identityShards = freshShardCount(stem: "identity", rows: identity.rows)
    if let old = previous.block, let older = previous.identity,
      old.fits(block), older.fits(identity),
      max(old.shardCount, older.shardCount) % min(old.shardCount, older.shardCount) == 0
    {
      blockShards = old.shardCount
      identityShards = older.shardCount
    } else if blockShards <= identityShards {
      identityShards = (identityShards + blockShards - 1) / blockShards * blockShards
    } else {
      blockShards = (blockShards + identityShards - 1) / identityShards * identityShards
    }
    // Equal counts need no doubleMod: both indices are the same, on every iOS version. Nor
    // do counts that divide, unless asked for: doubleMod then assigns sha256's shards.
    func function(_ mine: Int, _ other: Int) -> ShardingFunction {
      guard mine < other else { return .sha256 }
      switch sharding {
      case .sha256: return .sha256
      case .doubleMod: return .doubleMod(otherShardCount: other)
      case .automatic: return other % mine == 0 ? .sha256 : .doubleMod(otherShardCount: other)
      }
    }
    var configs = (
      block: ProcessingConfig(
        stem: "block", bundleID: bundleID, data: block, shardCount: blockShards,
        shardingFunction: function(blockShards, identityShards)),
      identity: ProcessingConfig(
        stem: "identity", bundleID: bundleID, data: identity, shardCount: identityShards,
        shardingFunction: function(identityShards, blockShards))
    )
    // A kept configuration keeps its buckets too.
    if let old = previous.block, old.shardCount == blockShards, old.fits(block) {
      configs.block.bucketCount = old.bucketCount
    }
    if let old = previous.identity, old.shardCount == identityShards, old.fits(identity) {
      configs.identity.bucketCount = old.bucketCount
    }
    return configs
  }
}
