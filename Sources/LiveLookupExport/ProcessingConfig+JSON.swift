import Foundation

extension ProcessingConfig {
  /// The JSON `PIRProcessDatabase CONFIG.json` reads; file names relative to the folder it
  /// runs in.
  public func json() throws -> Data {
    try json(
      input: "\(stem).binpb", output: "\(stem)-SHARD_ID.bin",
      parameters: "\(stem)-SHARD_ID.params.txtpb")
  }

  /// The JSON with the file names given: a pre-sharded input's configuration names its one
  /// shard's files outright (`identity-3.binpb` → `identity-3.bin`), as the service loads them.
  func json(input: String, output: String, parameters: String) throws -> Data {
    var object: [String: Any] = [
      "inputDatabase": input,
      "outputDatabase": output,
      "outputPirParameters": parameters,
      "rlweParameters": Self.rlweParameters,
      "databaseType": "keyword",
      "sharding": ["shardCount": shardCount],
      "trialsPerShard": 5,
      "algorithm": "mulPir",
      "keyCompression": "noCompression",
      "cuckooTableArguments": [
        "bucketCount": ["fixedSize": ["bucketCount": bucketCount]],
        "hashFunctionCount": Self.tableCount,
        "maxEvictionCount": 100,
        "maxSerializedBucketSize": bucketByteCount,
      ],
    ]
    if case .doubleMod(let other) = shardingFunction {
      object["shardingFunction"] = ["doubleMod": other]
    }
    return try JSONSerialization.data(
      withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
  }

  /// The configuration an earlier export wrote to `file`; nil when there is none or it cannot
  /// be read.
  public static func previous(stem: String, bundleID: String, file: String) -> ProcessingConfig? {
    guard let data = FileManager.default.contents(atPath: file),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let sharding = object["sharding"] as? [String: Any],
      let shards = sharding["shardCount"] as? Int,
      let cuckoo = object["cuckooTableArguments"] as? [String: Any],
      let size = cuckoo["maxSerializedBucketSize"] as? Int,
      let bucketCount = cuckoo["bucketCount"] as? [String: Any],
      let fixed = bucketCount["fixedSize"] as? [String: Any],
      let buckets = fixed["bucketCount"] as? Int
    else { return nil }
    var function = ShardingFunction.sha256
    if let named = object["shardingFunction"] as? [String: Any] {
      guard let other = named["doubleMod"] as? Int else { return nil }
      function = .doubleMod(otherShardCount: other)
    }
    return ProcessingConfig(
      stem: stem, useCase: bundleID + "." + stem, shardCount: shards, bucketCount: buckets,
      bucketByteCount: size, shardingFunction: function)
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
