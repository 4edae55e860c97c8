import BaseFormat
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@testable import LiveLookupExport

/// `export lcidl --pre-sharded`: one processor input per shard, split as the service's sha256
/// sharding assigns keywords, each configuration sized by its own shard (issue 69, items 3
/// and 5).
@Suite("Pre-sharded Live Caller ID Lookup inputs")
struct PreShardedTests {
  /// The shard index against coreutils' `sha256sum`, an implementation that is not calldir's:
  /// the digest's first 8 bytes, little-endian, modulo the count.
  @Test func theShardIsTheServicesSHA256OfTheKeyword() throws {
    for keyword in ["+14085551212", "+79161234567", "+33612345678", "+8613021062790"] {
      let run = try runProcess(
        "/bin/sh", ["-c", "printf '%s' \"$0\" | sha256sum | cut -c1-16", keyword])
      let hex = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      var truncated: UInt64 = 0
      for index in stride(from: 14, through: 0, by: -2) {
        let start = hex.index(hex.startIndex, offsetBy: index)
        truncated = truncated << 8 | UInt64(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
      }
      for count in [1, 3, 8, 250] {
        #expect(
          PreShardedDatasets.shardIndex(keyword: Array(keyword.utf8), shardCount: count)
            == Int(truncated % UInt64(count)), "\(keyword) of \(count)")
      }
    }
  }

  @Test func eachShardHoldsItsKeywordsAndSizesItsBucketsByItsOwnValues() throws {
    let folder = try TemporaryFolder()
    let box = folder.path("box")
    try FileManager.default.createDirectory(
      atPath: box + "/bases", withIntermediateDirectories: true)
    let numbers = (0..<7_000).map { Int64(79_161_000_000 + $0 * 7) }
    let writer = try BaseWriter(path: box + "/bases/r.cdb", kind: .identification)
    for number in numbers { try writer.append(number, label: "Shop \(number % 100)") }
    let header = try writer.finish()
    var manifest = Manifest(fullSetRequested: true)
    manifest.bases.append(
      Manifest.Base(
        name: "r", role: .region, kind: .identification, region: "r", priority: 1, version: 1,
        entries: header.entryCount, sha256: SHA256.hexDigest(ofFile: box + "/bases/r.cdb") ?? "",
        state: .ready, file: "bases/r.cdb"))
    manifest.chosenRegions = ["r"]
    try manifest.write(container: box)
    // One large icon: only its shard's buckets are sized for it.
    let icons = folder.path("icons")
    try FileManager.default.createDirectory(atPath: icons, withIntermediateDirectories: true)
    let heic: [UInt8] = [0, 0, 0, 16] + Array("ftypheic".utf8) + [0, 0, 0, 0]
    try Data(heic + [UInt8](repeating: 9, count: 30_000)).write(
      to: URL(fileURLWithPath: icons + "/+\(numbers[5]).heic"))
    var options = LiveLookupExporter.Options(bundleID: "net.example.lookup")
    options.includesTestIdentity = false
    options.iconsFolder = icons
    options.preSharded = true
    let out = folder.path("out")
    let report = try LiveLookupExporter(container: box, options: options).export(to: out)
    let identity = try #require(report.configs.first { $0.stem == "identity" })
    #expect(identity.shardCount == 2)
    let shards = report.preShardedShards.filter { $0.config.stem == "identity" }
    #expect(shards.count == identity.shardCount)
    var seen: [String] = []
    for (index, shard) in shards.enumerated() {
      let rows = try KeywordDatabaseReader.rows(of: out + "/sharded/identity-\(index).binpb")
      #expect(rows.count == shard.data.rows)
      for row in rows {
        #expect(
          PreShardedDatasets.shardIndex(keyword: Array(row.keyword.utf8), shardCount: 2) == index)
      }
      seen += rows.map(\.keyword)
      let largest = rows.map(\.value.count).max() ?? 0
      #expect(
        shard.config.bucketByteCount == ProcessingConfig.bucketByteCount(largestValue: largest))
      // The configuration names this shard's files outright, as the service loads them.
      let json =
        try JSONSerialization.jsonObject(
          with: Data(
            contentsOf: URL(fileURLWithPath: out + "/sharded/identity-\(index)-config.json")))
        as? [String: Any]
      #expect(json?["inputDatabase"] as? String == "identity-\(index).binpb")
      #expect(json?["outputDatabase"] as? String == "identity-\(index).bin")
      #expect(json?["outputPirParameters"] as? String == "identity-\(index).params.txtpb")
      #expect((json?["sharding"] as? [String: Any])?["shardCount"] as? Int == 1)
    }
    // Every row once, and the one icon's shard alone has large buckets.
    let whole = try KeywordDatabaseReader.rows(of: out + "/identity.binpb").map(\.keyword)
    #expect(seen.sorted() == whole.sorted())
    #expect(shards.filter { $0.config.bucketByteCount > 1_024 }.count == 1)
    #expect(identity.bucketByteCount > 1_024, "the whole dataset's one size is the icon's")
    // The service's use cases, beside the inputs.
    #expect(FileManager.default.fileExists(atPath: out + "/sharded/usecases.json"))
    // A later export replaces the folder as a whole: a file of a shard it no longer has goes.
    try Data("stale".utf8).write(to: URL(fileURLWithPath: out + "/sharded/identity-9.binpb"))
    _ = try LiveLookupExporter(container: box, options: options).export(to: out)
    #expect(!FileManager.default.fileExists(atPath: out + "/sharded/identity-9.binpb"))
    #expect(FileManager.default.fileExists(atPath: out + "/sharded/identity-1-config.json"))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: out).filter {
      $0.hasPrefix(".")
    }
    #expect(leftovers.isEmpty, "\(leftovers)")
  }

  /// A shard with no row would be refused by the processor: the split says so, naming it.
  @Test func anEmptyShardIsRefusedByName() throws {
    let folder = try TemporaryFolder()
    let writer = try KeywordDatabaseWriter(path: folder.path("identity.binpb"))
    try writer.append(number: 79_161_234_567, value: [1, 2, 3])
    try writer.commit()
    let config = ProcessingConfig(
      stem: "identity", bundleID: "b", data: .init(rows: 1, valueBytes: 3, largestValue: 3),
      shardCount: 4, shardingFunction: .sha256)
    try FileManager.default.createDirectory(
      atPath: folder.path("s"), withIntermediateDirectories: true)
    #expect {
      _ = try PreShardedDatasets.split(
        database: folder.path("identity.binpb"), config: config, into: folder.path("s"))
    } throws: {
      "\($0)".contains("holds no row: the processor refuses an empty input")
    }
  }
}
