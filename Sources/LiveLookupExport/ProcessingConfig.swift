import BaseFormat
import Foundation

/// `PIRProcessDatabase`'s configuration for one use case, and the service's use-case list, with
/// parameters chosen from the dataset's size.
///
/// - **Shards.** Apple's example takes 50,000 entries per blocking shard (one-byte values) and
///   5,000 per identity shard (values of tens of bytes and up). The export fixes the shard
///   count (`sharding.shardCount`) for the rows it has plus 25% headroom. An export into a
///   folder that holds the previous export's configuration keeps its shard and bucket counts
///   while the new data fits them, so an update that adds up to a quarter more numbers changes
///   no PIR parameters.
/// - **Buckets.** A fixed cuckoo bucket count (`cuckooTableArguments.bucketCount.fixedSize`)
///   keeps each shard's PIR parameters the same across updates, so devices need not fetch new
///   configurations. It is sized for the shard's bytes at half the bucket size
///   (`maxSerializedBucketSize`, 1,024): the next power of two of
///   `2 × entries per shard × (average keyword and value bytes + 8) / 1,024`, at least 256. If
///   `PIRProcessDatabase` reports "Failed to construct Cuckoo table", double it.
public struct ProcessingConfig: Equatable, Sendable {
  /// The use case's file stem: `block` or `identity`.
  public var stem: String
  /// The use case's name, `BUNDLE.block` or `BUNDLE.identity`.
  public var useCase: String
  /// Shards the database is split into.
  public var shardCount: Int
  /// Cuckoo buckets per shard, fixed.
  public var bucketCount: Int

  /// Apple's example's entries per shard for each use case.
  public static let entriesPerShard = ["block": 50_000, "identity": 5_000]
  /// The room left for growth before the shard count must change: a quarter.
  public static let headroom = 1.25
  /// `maxSerializedBucketSize`, bytes.
  public static let bucketByteCount = 1_024
  /// The predefined RLWE parameters of Apple's example.
  public static let rlweParameters = "n_4096_logq_27_28_28_logt_5"

  /// The configuration for `rows` rows of `bytes` bytes in all (keywords and values); the
  /// `previous` export's shard and bucket counts when the data still fits them.
  public init(
    stem: String, bundleID: String, rows: Int, bytes: Int, previous: ProcessingConfig? = nil
  ) {
    self.stem = stem
    useCase = bundleID + "." + stem
    let perShard = Self.entriesPerShard[stem] ?? 5_000
    if let previous, previous.stem == stem,
      let fits = Self.fits(
        rows: rows, bytes: bytes, shards: previous.shardCount,
        buckets: previous.bucketCount, perShard: perShard), fits
    {
      shardCount = previous.shardCount
      bucketCount = previous.bucketCount
      return
    }
    let planned = Int((Double(max(rows, 1)) * Self.headroom).rounded(.up))
    shardCount = max(1, (planned + perShard - 1) / perShard)
    let entriesInShard = min(perShard, (planned + shardCount - 1) / shardCount)
    let averageBytes = Double(bytes) / Double(max(rows, 1)) + 8
    let needed = 2 * Double(entriesInShard) * averageBytes / Double(Self.bucketByteCount)
    var buckets = 256
    while Double(buckets) < needed { buckets *= 2 }
    bucketCount = buckets
  }

  /// Whether `rows` rows of `bytes` bytes fit `shards` shards of `buckets` buckets: no shard
  /// over its entries, and the buckets at most 3/4 full.
  static func fits(rows: Int, bytes: Int, shards: Int, buckets: Int, perShard: Int) -> Bool? {
    guard shards > 0, buckets > 0 else { return nil }
    let entriesInShard = (rows + shards - 1) / shards
    let averageBytes = Double(bytes) / Double(max(rows, 1)) + 8
    let load = Double(entriesInShard) * averageBytes / Double(buckets * bucketByteCount)
    return entriesInShard <= perShard && load <= 0.75
  }

  /// The shard and bucket counts of a configuration file an earlier export wrote; nil when
  /// there is none or it cannot be read.
  public static func previous(stem: String, bundleID: String, file: String) -> ProcessingConfig? {
    guard let data = FileManager.default.contents(atPath: file),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let sharding = object["sharding"] as? [String: Any],
      let shards = sharding["shardCount"] as? Int,
      let cuckoo = object["cuckooTableArguments"] as? [String: Any],
      let bucketCount = cuckoo["bucketCount"] as? [String: Any],
      let fixed = bucketCount["fixedSize"] as? [String: Any],
      let buckets = fixed["bucketCount"] as? Int
    else { return nil }
    return ProcessingConfig(
      stem: stem, useCase: bundleID + "." + stem, shardCount: shards, bucketCount: buckets)
  }

  init(stem: String, useCase: String, shardCount: Int, bucketCount: Int) {
    self.stem = stem
    self.useCase = useCase
    self.shardCount = shardCount
    self.bucketCount = bucketCount
  }

  /// The JSON `PIRProcessDatabase CONFIG.json` reads; file names relative to the folder it
  /// runs in.
  public func json() throws -> Data {
    let object: [String: Any] = [
      "inputDatabase": "\(stem).binpb",
      "outputDatabase": "\(stem)-SHARD_ID.bin",
      "outputPirParameters": "\(stem)-SHARD_ID.params.txtpb",
      "rlweParameters": Self.rlweParameters,
      "databaseType": "keyword",
      "sharding": ["shardCount": shardCount],
      "trialsPerShard": 5,
      "algorithm": "mulPir",
      "keyCompression": "noCompression",
      "cuckooTableArguments": [
        "bucketCount": ["fixedSize": ["bucketCount": bucketCount]],
        "hashFunctionCount": 2,
        "maxEvictionCount": 100,
        "maxSerializedBucketSize": Self.bucketByteCount,
      ],
    ]
    return try JSONSerialization.data(
      withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
  }

  /// The `usecases` section of the example service's configuration (`PIRService`), for both.
  public static func useCases(_ configs: [ProcessingConfig]) throws -> Data {
    let list = configs.map {
      ["fileStem": $0.stem, "shardCount": $0.shardCount, "name": $0.useCase] as [String: Any]
    }
    return try JSONSerialization.data(
      withJSONObject: ["usecases": list], options: [.prettyPrinted, .sortedKeys])
  }
}
