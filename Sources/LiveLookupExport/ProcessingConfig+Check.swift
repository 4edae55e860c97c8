import Foundation

extension ProcessingConfig {
  /// The members `PIRProcessDatabase` reads (its `Arguments`); any other stops it.
  static let knownMembers: Set<String> = [
    "inputDatabase", "outputDatabase", "outputPirParameters", "rlweParameters", "databaseType",
    "outputEvaluationKeyConfig", "sharding", "shardingFunction", "cuckooTableArguments",
    "algorithm", "keyCompression", "useMaxSerializedBucketSize", "symmetricPirArguments",
    "trialsPerShard", "encodingEntrySize", "unevenDimensions",
  ]
  /// The members of `cuckooTableArguments` (`CuckooTableArguments`).
  static let knownCuckooMembers: Set<String> = [
    "hashFunctionCount", "maxEvictionCount", "maxSerializedBucketSize", "bucketCount", "slotCount",
  ]
  /// The members of `sharding` (`Sharding`).
  static let knownShardingMembers: Set<String> = [
    "shardCount", "entryCountPerShard", "maxShardCount", "requirePowerOfTwoShardCount",
  ]
  /// The predefined RLWE parameters (`PredefinedRlweParameters`) the processor accepts.
  static let knownRlweParameters: Set<String> = [
    "insecure_n_8_logq_5x18_logt_5", "insecure_n_512_logq_4x60_logt_20",
    "n_4096_logq_27_28_28_logt_4",
    "n_4096_logq_27_28_28_logt_5", "n_4096_logq_27_28_28_logt_6", "n_4096_logq_27_28_28_logt_13",
    "n_4096_logq_27_28_28_logt_16", "n_4096_logq_27_28_28_logt_17", "n_8192_logq_28_60_60_logt_20",
    "n_8192_logq_29_60_60_logt_15", "n_8192_logq_3x55_logt_24", "n_8192_logq_3x55_logt_29",
    "n_8192_logq_3x55_logt_30", "n_8192_logq_3x55_logt_42", "n_8192_logq_40_60_60_logt_26",
    "n_8192_logq_50_60_60_logt_40",
  ]

  /// What in a configuration `PIRProcessDatabase` would refuse, or fail on, for `data`: one line
  /// each, empty when none. Checked against the processor's documented constraints and its
  /// code: the members it reads, `databaseType`, the RLWE parameters, `SHARD_ID` in the output
  /// names, the bucket size against the largest value with its overhead, the sharding function,
  /// and each shard's entries against a fixed bucket count (a cuckoo table past a load factor
  /// of 0.9 fails to build).
  public static func problems(inConfig json: Data, for data: DataSize) -> [String] {
    guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
      return ["not a JSON object"]
    }
    var problems: [String] = []
    for member in Set(object.keys).subtracting(knownMembers).sorted() {
      problems.append("'\(member)' is not a member PIRProcessDatabase reads")
    }
    if object["databaseType"] as? String != "keyword" {
      problems.append("'databaseType' must be \"keyword\" (required by current processors)")
    }
    let rlwe = object["rlweParameters"] as? String ?? ""
    if !knownRlweParameters.contains(rlwe) {
      problems.append("'rlweParameters' \(rlwe.debugDescription) is not a predefined parameter set")
    }
    for member in ["inputDatabase", "outputDatabase", "outputPirParameters"]
    where (object[member] as? String ?? "").isEmpty {
      problems.append("'\(member)' is missing")
    }
    if let algorithm = object["algorithm"], algorithm as? String != "mulPir" {
      problems.append("'algorithm' must be \"mulPir\"")
    }
    let sharding = object["sharding"] as? [String: Any] ?? [:]
    for member in Set(sharding.keys).subtracting(knownShardingMembers).sorted() {
      problems.append("'sharding.\(member)' is not a member PIRProcessDatabase reads")
    }
    let shardCount = sharding["shardCount"] as? Int ?? 0
    if shardCount < 1 { problems.append("'sharding.shardCount' must be at least 1") }
    if shardCount != 1 {
      for member in ["outputDatabase", "outputPirParameters"]
      where !(object[member] as? String ?? "").contains("SHARD_ID") {
        problems.append("'\(member)' must contain SHARD_ID for \(shardCount) shards")
      }
    }
    if !((object["outputPirParameters"] as? String ?? "").hasSuffix(".txtpb")
      || (object["outputPirParameters"] as? String ?? "").hasSuffix(".binpb"))
    {
      problems.append("'outputPirParameters' must end in .txtpb or .binpb")
    }
    if let function = object["shardingFunction"] {
      let named = function as? [String: Any] ?? [:]
      if named.count != 1 || !(named["sha256"] != nil || (named["doubleMod"] as? Int ?? 0) >= 1) {
        problems.append(
          "'shardingFunction' must be {\"sha256\": null} or {\"doubleMod\": OTHER_SHARD_COUNT}")
      }
    }
    let cuckoo = object["cuckooTableArguments"] as? [String: Any] ?? [:]
    for member in Set(cuckoo.keys).subtracting(knownCuckooMembers).sorted() {
      problems.append("'cuckooTableArguments.\(member)' is not a member PIRProcessDatabase reads")
    }
    let bucketByteCount = cuckoo["maxSerializedBucketSize"] as? Int ?? 0
    let needed = bucketOverhead + entryOverhead + data.largestValue
    if bucketByteCount < needed {
      problems.append(
        "'maxSerializedBucketSize' is \(bucketByteCount): the largest value is \(data.largestValue) bytes, so it must be at least \(needed)"
      )
    }
    let sizing = cuckoo["bucketCount"] as? [String: Any] ?? [:]
    if let fixed = sizing["fixedSize"] as? [String: Any] {
      let buckets = fixed["bucketCount"] as? Int ?? 0
      let load = projectedLoad(
        data, shardCount: max(shardCount, 1), bucketCount: buckets,
        bucketByteCount: max(bucketByteCount, needed))
      let slots = slotLoad(
        rows: data.rows, shardCount: max(shardCount, 1), bucketCount: buckets)
      if buckets >= 1, slots > 0.9 {
        problems.append(
          "'bucketCount.fixedSize.bucketCount' \(buckets) has too few slots for \(Int(largestShard(rows: data.rows, shardCount: max(shardCount, 1)).rounded(.up))) entries in a shard: \(slotsPerBucket) a bucket, \(String(format: "%.2f", slots)) of them filled, over 0.9"
        )
      }
      if buckets < 1 || load > 0.9 {
        problems.append(
          "'bucketCount.fixedSize.bucketCount' \(buckets) is too few for \(Int(largestShard(rows: data.rows, shardCount: max(shardCount, 1)).rounded(.up))) entries in a shard: load factor \(String(format: "%.2f", load)), over 0.9"
        )
      }
    } else if sizing["allowExpansion"] == nil, !sizing.isEmpty {
      problems.append("'bucketCount' must be fixedSize or allowExpansion")
    }
    return problems
  }

  /// The configuration's JSON (with `files`' names when given), checked for `data` before it
  /// is written.
  /// - Throws: ``ExportError`` naming `name` and every constraint the processor would refuse.
  func checkedJSON(
    named name: String, for data: DataSize,
    files: (input: String, output: String, parameters: String)? = nil
  ) throws(ExportError) -> Data {
    let text: Data
    do {
      text =
        try files.map { try json(input: $0.input, output: $0.output, parameters: $0.parameters) }
        ?? json()
    } catch {
      throw ExportError("\(name): \(error)")
    }
    let problems = Self.problems(inConfig: text, for: data)
    guard problems.isEmpty else {
      throw ExportError(
        "\(name): PIRProcessDatabase would refuse it: \(problems.joined(separator: "; ")); nothing was exported"
      )
    }
    return text
  }
}
