import Foundation
import TestSupport
import Testing

@testable import LiveLookupExport

/// PIRProcessDatabase's configurations as the export writes them (issue 55): buckets sized as
/// the processor sizes them, for the largest value and at its load factors, shard counts that
/// divide with `doubleMod` on the dataset with fewer, and a check that refuses what the processor
/// would refuse.
@Suite("Processing configurations sized as Apple's processor sizes them")
struct ProcessingConfigTests {
  typealias DataSize = ProcessingConfig.DataSize

  /// 20,000 identities of about 40 bytes and 25,000 block rows of one byte: the export that was
  /// processed outside this repository.
  static let identities = DataSize(rows: 20_000, valueBytes: 800_000, largestValue: 60)
  static let blockRows = DataSize(rows: 25_000, valueBytes: 25_000, largestValue: 1)

  static func object(_ config: ProcessingConfig) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: config.json()) as? [String: Any])
  }

  @Test(arguments: [1_024, 8_192, 63 * 1_024])
  func theBucketHoldsTheLargestIdentity(iconBytes: Int) throws {
    let largest = iconBytes + 40
    let data = DataSize(rows: 2_000, valueBytes: 2_000 * 60 + largest, largestValue: largest)
    let planned = ProcessingConfig.plan(
      bundleID: "b", block: Self.blockRows, identity: data, sharding: .doubleMod)
    // The processor's own rule: one bucket of the value, its 11 bytes of overhead, rounded to
    // half a plaintext or a multiple of a whole one.
    #expect(planned.identity.bucketByteCount >= largest + 11)
    #expect(
      planned.identity.bucketByteCount == 1_024
        || planned.identity.bucketByteCount % ProcessingConfig.plaintextByteCount == 0)
    #expect(ProcessingConfig.problems(inConfig: try planned.identity.json(), for: data).isEmpty)
    // A bucket holds at most 255 entries, whatever its bytes: the 63 KiB icon's 64 KiB buckets
    // were too few by slots when sized by bytes alone (PIRProcessDatabase: "Failed to construct
    // Cuckoo table").
    let perShard = Double(data.rows) / Double(planned.identity.shardCount)
    #expect(Double(planned.identity.bucketCount * 255) * 0.9 >= perShard)
  }

  /// The slot count the processor refused is named by the check.
  @Test func aTableShortOfSlotsIsRefused() throws {
    let data = DataSize(rows: 20_001, valueBytes: 20_001 * 40 + 63_500, largestValue: 63_528)
    let planned = ProcessingConfig.plan(
      bundleID: "b", block: Self.blockRows, identity: data, sharding: .doubleMod)
    #expect(ProcessingConfig.problems(inConfig: try planned.identity.json(), for: data).isEmpty)
    var object = try Self.object(planned.identity)
    object["cuckooTableArguments"] = [
      "bucketCount": ["fixedSize": ["bucketCount": 4]], "hashFunctionCount": 2,
      "maxEvictionCount": 100, "maxSerializedBucketSize": 65_536,
    ]
    let problems = ProcessingConfig.problems(
      inConfig: try JSONSerialization.data(withJSONObject: object), for: data)
    #expect(problems.contains { $0.contains("has too few slots") }, "\(problems)")
  }

  @Test func theLoadFactorIsWhatTheProcessorAimsFor() {
    let planned = ProcessingConfig.plan(
      bundleID: "b", block: Self.blockRows, identity: Self.identities, sharding: .doubleMod)
    for (config, data) in [(planned.block, Self.blockRows), (planned.identity, Self.identities)] {
      let mean = DataSize(
        rows: data.rows / config.shardCount * config.shardCount, valueBytes: data.valueBytes,
        largestValue: data.largestValue)
      let load = ProcessingConfig.projectedLoad(
        mean, shardCount: config.shardCount, bucketCount: config.bucketCount,
        bucketByteCount: config.bucketByteCount)
      #expect(load >= 0.6 && load <= 0.9, "\(config.stem): \(load)")
    }
    // Against last round's fixed 1,024-byte tables of 2,048 buckets: 0.13 and 0.26 logged.
    #expect(planned.identity.bucketCount < 2_048 / 2)
  }

  @Test func theDatasetWithFewerShardsTakesDoubleModOfTheOther() throws {
    let planned = ProcessingConfig.plan(
      bundleID: "b", block: Self.blockRows, identity: Self.identities, sharding: .doubleMod)
    #expect(planned.block.shardCount == 1 && planned.identity.shardCount == 5)
    #expect(planned.block.shardingFunction == .doubleMod(otherShardCount: 5))
    #expect(planned.identity.shardingFunction == .sha256)
    let block = try Self.object(planned.block)
    #expect((block["shardingFunction"] as? [String: Any])?["doubleMod"] as? Int == 5)
    #expect(try Self.object(planned.identity)["shardingFunction"] == nil)
    // sha256: no shardingFunction member, for devices before iOS 18.2.
    let older = ProcessingConfig.plan(
      bundleID: "b", block: Self.blockRows, identity: Self.identities, sharding: .sha256)
    #expect(try Self.object(older.block)["shardingFunction"] == nil)
    #expect(older.block.shardingFunction == .sha256)
  }

  /// doubleMod of a multiple assigns every keyword sha256's shard, so the default writes
  /// sha256 and serves devices before iOS 18.2 (issue 69, item 5); it differs, and is then
  /// reported, only where the larger count is not a multiple.
  @Test func theDefaultWritesSHA256WhereDoubleModAssignsTheSameShards() throws {
    let planned = ProcessingConfig.plan(
      bundleID: "b", block: Self.blockRows, identity: Self.identities, sharding: .automatic)
    #expect(planned.block.shardCount == 1 && planned.identity.shardCount == 5)
    #expect(planned.block.shardingFunction == .sha256)
    #expect(planned.identity.shardingFunction == .sha256)
    #expect(try Self.object(planned.block)["shardingFunction"] == nil)
    #expect(LiveLookupExporter.Options(bundleID: "b").sharding == .automatic)
    var hash: UInt64 = 0x9E37_79B9_7F4A_7C15
    for (small, large) in [(1, 5), (4, 8), (25, 250), (4, 6), (3, 8)] {
      let function = ProcessingConfig.ShardingFunction.doubleMod(otherShardCount: large)
      var same = true
      for _ in 0..<10_000 {
        hash = hash &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        if (hash % UInt64(large)) % UInt64(small) != hash % UInt64(small) { same = false }
      }
      #expect(
        ProcessingConfig.assignsAsSHA256(function, shardCount: small) == same,
        "\(small) of \(large)")
      #expect(same == (large % small == 0), "\(small) of \(large)")
    }
  }

  @Test(arguments: [(3_000_000, 1_000_000), (1_000_000, 4_000_000), (9_000_000, 9_000)])
  func oneShardCountDividesTheOther(block: Int, identity: Int) {
    let planned = ProcessingConfig.plan(
      bundleID: "b", block: DataSize(rows: block, valueBytes: block, largestValue: 1),
      identity: DataSize(rows: identity, valueBytes: identity * 40, largestValue: 80),
      sharding: .doubleMod)
    let counts = [planned.block.shardCount, planned.identity.shardCount]
    #expect(counts.max()! % counts.min()! == 0, "\(counts)")
    // No shard past Apple's example's entries.
    #expect(Double(block) / Double(counts[0]) <= 50_000)
    #expect(Double(identity) / Double(counts[1]) <= 5_000)
  }

  @Test func anUpdateKeepsTheParametersWhileTheyFitAndNotAfter() {
    let first = ProcessingConfig.plan(
      bundleID: "b", block: Self.blockRows, identity: Self.identities, sharding: .doubleMod)
    let grown = DataSize(rows: 22_000, valueBytes: 880_000, largestValue: 60)
    let kept = ProcessingConfig.plan(
      bundleID: "b", block: Self.blockRows, identity: grown, sharding: .doubleMod,
      previous: (first.block, first.identity))
    #expect(kept.identity == first.identity && kept.block == first.block)
    // An icon past the bucket changes the bucket size: sized afresh.
    let icon = DataSize(rows: 20_000, valueBytes: 803_000, largestValue: 3_030)
    let resized = ProcessingConfig.plan(
      bundleID: "b", block: Self.blockRows, identity: icon, sharding: .doubleMod,
      previous: (first.block, first.identity))
    #expect(resized.identity.bucketByteCount == 4_096)
    // Half the data: the tables would be under-filled, so they are sized afresh.
    let halved = DataSize(rows: 8_000, valueBytes: 320_000, largestValue: 60)
    let shrunk = ProcessingConfig.plan(
      bundleID: "b", block: Self.blockRows, identity: halved, sharding: .doubleMod,
      previous: (first.block, first.identity))
    #expect(shrunk.identity.bucketCount < first.identity.bucketCount)
  }

  /// Each planted break is named; the config as written has none.
  @Test(arguments: [
    ("unknownMember", "'shardCnt' is not a member"),
    ("index", "'databaseType' must be \"keyword\""),
    ("rlwe", "is not a predefined parameter set"),
    ("shardID", "must contain SHARD_ID"),
    ("smallBucket", "'maxSerializedBucketSize' is 1024: the largest value is 3030 bytes"),
    ("fewBuckets", "is too few for"),
    ("function", "'shardingFunction' must be"),
    ("cuckooMember", "'cuckooTableArguments.bucketSize' is not a member"),
  ])
  func aBrokenConstraintIsNamed(kind: String, message: String) throws {
    let data = DataSize(rows: 20_000, valueBytes: 803_000, largestValue: 3_030)
    let planned = ProcessingConfig.plan(
      bundleID: "b", block: Self.blockRows, identity: data, sharding: .doubleMod)
    #expect(ProcessingConfig.problems(inConfig: try planned.identity.json(), for: data).isEmpty)
    var object = try Self.object(planned.identity)
    var cuckoo = object["cuckooTableArguments"] as! [String: Any]
    switch kind {
    case "unknownMember": object["shardCnt"] = 3
    case "index": object["databaseType"] = "index"
    case "rlwe": object["rlweParameters"] = "n_4096_logq_27_28_28_logt_7"
    case "shardID": object["outputDatabase"] = "identity.bin"
    case "smallBucket": cuckoo["maxSerializedBucketSize"] = 1_024
    case "fewBuckets": cuckoo["bucketCount"] = ["fixedSize": ["bucketCount": 8]]
    case "function": object["shardingFunction"] = ["tripleMod": 3]
    default: cuckoo["bucketSize"] = 9
    }
    object["cuckooTableArguments"] = cuckoo
    let broken = try JSONSerialization.data(withJSONObject: object)
    let problems = ProcessingConfig.problems(inConfig: broken, for: data)
    #expect(problems.contains { $0.contains(message) }, "\(problems)")
  }

  /// The export writes what it planned, and a previous export's configuration that the data
  /// still fits stays byte for byte.
  @Test func theExportWritesCheckedConfigurations() throws {
    let folder = try TemporaryFolder()
    let box = try ExporterTests().container(
      folder,
      identification: [
        ("r", 1, (0..<3_000).map { (Int64(74_951_000_000 + $0), "Caller \($0)") })
      ])
    var options = LiveLookupExporter.Options(bundleID: "net.example.lookup")
    options.includesTestIdentity = false
    let report = try LiveLookupExporter(container: box, options: options)
      .export(to: folder.path("out"))
    #expect(report.configs.count == 2)
    #expect(report.identityData.rows == 3_000 && report.identityData.largestValue > 0)
    let text = try Data(contentsOf: URL(fileURLWithPath: folder.path("out/identity-config.json")))
    #expect(ProcessingConfig.problems(inConfig: text, for: report.identityData).isEmpty)
    _ = try LiveLookupExporter(container: box, options: options).export(to: folder.path("out"))
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: folder.path("out/identity-config.json"))) == text)
  }
}
