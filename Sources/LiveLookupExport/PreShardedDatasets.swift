import BaseFormat
import DirectoryContainer
import Foundation
import SystemCalls

/// Each dataset written again as one processor input per shard, split as the service's sharding
/// function assigns keywords: `truncate(SHA256(keyword)) % shardCount`, the digest's first 8
/// bytes as a little-endian `UInt64` (swift-homomorphic-encryption, `KeywordDatabase.swift`,
/// `shardIndex(shardCount:)`, which loads them in the machine's order: little-endian on every
/// platform it runs on).
///
/// Why: Apple's `PIRProcessDatabase` loads its whole input into memory and sizes every shard's
/// entries by one `maxSerializedBucketSize` when the bucket count is fixed, so one large icon
/// makes every identity reply as large as its bucket. A shard of its own is processed alone
/// (one shard in memory; shards on several machines or cores at once), and its configuration
/// sizes its buckets by its own largest value. The service loads `STEM-N.bin` and
/// `STEM-N.params.txtpb` per shard whatever made them, and each shard keeps its own PIR
/// parameters (pir-service-example, `PirUsecase.swift`: only the encryption parameters must
/// agree).
public enum PreShardedDatasets {
  /// The folder inside the export that holds the pre-sharded inputs and their configurations.
  public static let folderName = "sharded"
  /// Shard files open at once: a dataset of more shards is split in several passes over its
  /// file, so descriptors stay bounded (10,000 identity shards at 40 M rows).
  static let openShardsPerPass = 256

  /// One written shard: its configuration and what it holds.
  public struct Shard: Sendable, Equatable {
    public var config: ProcessingConfig
    public var data: ProcessingConfig.DataSize
  }

  /// The shard of `keyword` among `shardCount`, as the service computes it.
  public static func shardIndex(keyword: [UInt8], shardCount: Int) -> Int {
    var hash = SHA256()
    hash.update(utf8: String(decoding: keyword, as: UTF8.self))
    let digest = hash.digest()
    var truncated: UInt64 = 0
    for index in (0..<8).reversed() { truncated = truncated << 8 | UInt64(digest[index]) }
    return Int(truncated % UInt64(shardCount))
  }

  /// Splits the `KeywordDatabase` at `database` into `config.shardCount` inputs in `folder`
  /// (`STEM-N.binpb`), each with its configuration (`STEM-N-config.json`, one shard, its
  /// files named outright, its buckets sized by its own values), checked as the whole
  /// dataset's is.
  /// - Throws: ``ExportError`` naming the file and the problem.
  static func split(
    database: String, config: ProcessingConfig, into folder: String
  ) throws(ExportError) -> [Shard] {
    let count = config.shardCount
    var sizes = [ProcessingConfig.DataSize](repeating: .init(), count: count)
    var first = 0
    while first < count {
      let range = first..<min(count, first + openShardsPerPass)
      var writers: [KeywordDatabaseWriter] = []
      do {
        for index in range {
          writers.append(
            try KeywordDatabaseWriter(path: folder + "/\(config.stem)-\(index).binpb"))
        }
        try KeywordDatabaseRows.forEach(in: database) {
          number, keyword, value throws(ExportError) in
          let shard = shardIndex(keyword: keyword, shardCount: count)
          guard range.contains(shard) else { return }
          do {
            try writers[shard - range.lowerBound].append(number: number, value: value)
          } catch {
            throw ExportError("\(config.stem)-\(shard).binpb: \(error)")
          }
        }
        for (offset, writer) in writers.enumerated() {
          sizes[range.lowerBound + offset] = .init(
            rows: writer.rowCount, valueBytes: writer.valueByteCount,
            largestValue: writer.largestValueByteCount)
          try writer.commit()
        }
      } catch let error as ExportError {
        for writer in writers { writer.discard() }
        throw error
      } catch {
        for writer in writers { writer.discard() }
        throw ExportError("\(folder): \(error)")
      }
      first = range.upperBound
    }
    var shards: [Shard] = []
    for (index, data) in sizes.enumerated() {
      let stem = "\(config.stem)-\(index)"
      guard data.rows > 0 else {
        throw ExportError(
          "\(config.stem) shard \(index) holds no row: the processor refuses an empty input; export without --pre-sharded"
        )
      }
      var own = ProcessingConfig(
        stem: config.stem, bundleID: "", data: data, shardCount: 1, shardingFunction: .sha256)
      own.useCase = config.useCase
      let text = try own.checkedJSON(
        named: "\(folderName)/\(stem)-config.json", for: data,
        files: ("\(stem).binpb", "\(stem).bin", "\(stem).params.txtpb"))
      try LiveLookupExporter.write(text, to: folder + "/\(stem)-config.json")
      shards.append(Shard(config: own, data: data))
    }
    return shards
  }
}

/// The rows of a `KeywordDatabase` file, read in 1 MiB chunks: the number (from the keyword's
/// digits), the keyword's bytes and the value's.
enum KeywordDatabaseRows {
  static func forEach(
    in path: String, _ body: (Int64, [UInt8], [UInt8]) throws(ExportError) -> Void
  ) throws(ExportError) {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw ExportError("\(path): cannot be opened")
    }
    defer { try? handle.close() }
    var buffer: [UInt8] = []
    var start = 0
    var atEnd = false
    func varint() -> UInt64? {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while start < buffer.count, shift < 64 {
        let byte = buffer[start]
        start += 1
        value |= UInt64(byte & 0x7F) << shift
        if byte < 0x80 { return value }
        shift += 7
      }
      return nil
    }
    while true {
      // Enough bytes for the next row: a row is at most a value's 65,535 bytes and framing.
      if !atEnd, buffer.count - start < CallIdentity.maximumValueByteCount + 64 {
        buffer.removeFirst(start)
        start = 0
        let chunk = (try? handle.read(upToCount: 1 << 20)) ?? nil
        if let chunk, !chunk.isEmpty { buffer.append(contentsOf: chunk) } else { atEnd = true }
        continue
      }
      guard start < buffer.count else { return }
      guard buffer[start] == 0x0A else { throw ExportError("\(path): not a KeywordDatabase") }
      start += 1
      guard let length = varint(), length <= UInt64(buffer.count - start) else {
        throw ExportError("\(path): a row runs past the file's end")
      }
      let end = start + Int(length)
      var keyword: [UInt8] = []
      var value: [UInt8] = []
      while start < end {
        let key = buffer[start]
        start += 1
        guard let size = varint(), size <= UInt64(end - start) else {
          throw ExportError("\(path): a field runs past its row")
        }
        let field = Array(buffer[start..<start + Int(size)])
        start += Int(size)
        if key == 0x0A { keyword = field } else if key == 0x12 { value = field }
      }
      // The digits read in place: no String a row (the export writes tens of millions).
      guard (2...E164.maximumDigits + 1).contains(keyword.count),
        keyword.first == UInt8(ascii: "+"),
        keyword.dropFirst().allSatisfy({ (48...57).contains($0) })
      else { throw ExportError("\(path): a keyword is not +E164") }
      let number = keyword.dropFirst().reduce(Int64(0)) { $0 * 10 + Int64($1 - 48) }
      try body(number, keyword, value)
    }
  }
}
