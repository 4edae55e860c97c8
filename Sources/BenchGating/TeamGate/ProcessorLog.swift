import BenchMeasuring
import BenchReporting
import DirectoryContainer
import Foundation

/// What Apple's `PIRProcessDatabase` logged of one dataset, shard by shard: the figures a Live
/// Caller ID Lookup service is sized by, read from the processor's own log rather than
/// estimated.
///
/// The log is swift-log's stream format, one event a line, `TIMESTAMP LEVEL LABEL: METADATA
/// [SOURCE] MESSAGE` (swift-log's `StreamLogHandler`), with the shard in the metadata
/// (`shardID=3`). The events read (swift-homomorphic-encryption, `PIRProcessDatabase/main.swift`
/// and `CuckooTable.swift`, main at 6867588):
/// - `Created cuckoo table CuckooTableInformation(entryCount: E, bucketCount: B,
///   emptyBucketCount: Z, loadFactor: F)`: the shard's finished table. An automatic sizing
///   logs `Finished expanding cuckoo table …` lines before it, part-way through the rows; the
///   `Created` line, last, supersedes them;
/// - `ValidationResults`, then a pretty-printed JSON object on the following lines (written when
///   the configuration's `trialsPerShard` is over 0): `evaluationKey.sizeKB`, `query.sizeKB`
///   and `ciphertextCount`, `response.sizeKB` and `ciphertextCount`, `noiseBudget`,
///   `runtimeMultiThreadedMs` and `runtimeSingleThreadedMs` (one value a trial, sorted);
/// - `Saved shard to FILE`: the output's name, which names the use case (`block-0.bin`).
public struct ProcessorLog: Sendable, Equatable {
  /// One shard's figures.
  public struct Shard: Sendable, Equatable {
    public var id: Int
    /// The rows the processor read into the shard (`Processing shard with N rows`).
    public var rows: Int?
    /// Entries in the shard's cuckoo table, and its load factor (0…1), when logged.
    public var entries: Int?
    public var loadFactor: Double?
    /// The validation's figures, when the configuration asked for trials.
    public var validation: Validation?
    /// The number in the output's name (`block-57.bin`: 57), the shard's number in the whole
    /// dataset when its input was one of `--pre-sharded`'s.
    public var outputNumber: Int?
    /// The log the shard was read from, once logs are joined (``joiningPreShardedLogs(_:)``).
    public var source: String?
  }

  /// One shard's `ValidationResults`.
  public struct Validation: Sendable, Equatable {
    /// Sizes in kilobytes (1,000 bytes), as the processor rounds them (0.1 KB).
    public var queryKB: Double
    public var responseKB: Double
    public var evaluationKeyKB: Double
    public var queryCiphertexts: Int
    public var responseCiphertexts: Int
    /// The noise budget left after the reply, bits: under 0 the reply does not decrypt.
    public var noiseBudget: Double
    /// The server's time per query, each trial's, milliseconds.
    public var multiThreadedMilliseconds: [Double]
    public var singleThreadedMilliseconds: [Double]
  }

  /// `block`, `identity`, or what the output files' names start with; nil when the log saved
  /// nothing.
  public var useCase: String?
  /// The shards, by id.
  public var shards: [Shard]
  /// The log's file, as it was named to the reader.
  public var file = ""

  /// What the report calls this log among `logs`: its use case, with its file's name when
  /// another log has the same use case (one log per pre-sharded shard, say).
  public func displayName(among logs: [ProcessorLog]) -> String {
    let name = useCase ?? "dataset"
    guard logs.filter({ ($0.useCase ?? "dataset") == name }).count > 1 else { return name }
    return "\(name) (\(file.split(separator: "/").last.map(String.init) ?? file))"
  }

  /// The largest log read: a shard logs about 40 lines, so 64 MiB holds tens of thousands.
  public static let maximumByteCount = 64 << 20

  /// Reads the log at `path`.
  /// - Throws: ``/BenchMeasuring/BenchError`` naming the file and line: a file that cannot be read, a
  ///   `ValidationResults` whose JSON does not parse or lacks a figure, or a log with no shard.
  public static func read(path: String) throws(BenchError) -> ProcessorLog {
    let text: String
    do {
      text = try readSmallTextFile(path, maximumByteCount: maximumByteCount)
    } catch {
      throw BenchError("--lcidl-log: \(error.description)")
    }
    return try parse(text, name: path)
  }

  /// Reads a log's text; `name` is the file the errors name.
  public static func parse(_ text: String, name: String) throws(BenchError) -> ProcessorLog {
    var shards: [Int: Shard] = [:]
    var useCase: String?
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    var index = 0
    while index < lines.count {
      let line = lines[index]
      let lineNumber = index + 1
      index += 1
      guard let message = line.range(of: "] ").map({ line[$0.upperBound...] }) else { continue }
      let shardID = Self.shardID(in: line[..<message.startIndex])
      if message.hasPrefix("Created cuckoo table")
        || message.hasPrefix("Finished expanding cuckoo table"),
        let shardID
      {
        shards[shardID, default: Shard(id: shardID)].entries = Self.field("entryCount", in: message)
          .flatMap { Int($0) }
        shards[shardID, default: Shard(id: shardID)].loadFactor = Self.field(
          "loadFactor", in: message
        ).flatMap { Double($0) }
      } else if message.hasPrefix("Processing shard with "), let shardID {
        shards[shardID, default: Shard(id: shardID)].rows = Int(
          message.dropFirst("Processing shard with ".count).prefix { $0.isNumber })
      } else if message.hasPrefix("Saved shard to ") {
        let file = (String(message.dropFirst("Saved shard to ".count)) as NSString)
          .lastPathComponent
        let parts = file.split(whereSeparator: { $0 == "-" || $0 == "." })
        if useCase == nil { useCase = parts.first.map(String.init) }
        if let shardID, parts.count > 1 {
          shards[shardID, default: Shard(id: shardID)].outputNumber = Int(parts[1])
        }
      } else if message.hasPrefix("ValidationResults") {
        guard let shardID else {
          throw BenchError("\(name):\(lineNumber): ValidationResults without a shardID")
        }
        // The JSON object runs from the next line to its closing brace at the line's start.
        var json = ""
        while index < lines.count {
          json += lines[index] + "\n"
          index += 1
          if lines[index - 1].hasPrefix("}") { break }
        }
        shards[shardID, default: Shard(id: shardID)].validation = try Self.validation(
          json, place: "\(name):\(lineNumber)")
      }
    }
    guard !shards.isEmpty else {
      throw BenchError(
        "\(name): no shard in it (not PIRProcessDatabase's log: no 'Created cuckoo table' or 'ValidationResults' line with a shardID)"
      )
    }
    var log = ProcessorLog(useCase: useCase, shards: shards.values.sorted { $0.id < $1.id })
    log.file = name
    return log
  }

  /// `shardID=3` in a line's metadata.
  static func shardID(in head: Substring) -> Int? {
    guard let range = head.range(of: "shardID=") else { return nil }
    return Int(head[range.upperBound...].prefix { $0.isNumber })
  }

  /// `NAME: VALUE` inside a Swift struct's description.
  static func field(_ name: String, in message: Substring) -> Substring? {
    guard let range = message.range(of: name + ": ") else { return nil }
    return message[range.upperBound...].prefix { !",)".contains($0) }
  }

  static func validation(_ json: String, place: String) throws(BenchError) -> Validation {
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    else {
      throw BenchError("\(place): the ValidationResults after this line are not a JSON object")
    }
    func number(_ path: String) throws(BenchError) -> Double {
      var value: Any? = object
      for key in path.split(separator: ".") { value = (value as? [String: Any])?[String(key)] }
      guard let number = value as? Double, number.isFinite else {
        throw BenchError("\(place): ValidationResults has no number at '\(path)'")
      }
      return number
    }
    func times(_ key: String) throws(BenchError) -> [Double] {
      guard let values = object[key] as? [Double], !values.isEmpty,
        values.allSatisfy({ $0.isFinite && $0 >= 0 })
      else {
        throw BenchError("\(place): ValidationResults has no list of times at '\(key)'")
      }
      return values
    }
    let queryCount = try number("query.ciphertextCount")
    let responseCount = try number("response.ciphertextCount")
    guard queryCount >= 0, responseCount >= 0, queryCount < 1e9, responseCount < 1e9 else {
      throw BenchError("\(place): ValidationResults has a ciphertext count out of range")
    }
    return Validation(
      queryKB: try number("query.sizeKB"), responseKB: try number("response.sizeKB"),
      evaluationKeyKB: try number("evaluationKey.sizeKB"), queryCiphertexts: Int(queryCount),
      responseCiphertexts: Int(responseCount), noiseBudget: try number("noiseBudget"),
      multiThreadedMilliseconds: try times("runtimeMultiThreadedMs"),
      singleThreadedMilliseconds: try times("runtimeSingleThreadedMs"))
  }
}

extension ProcessorLog {
  /// The shards that logged a validation.
  var validations: [Validation] { shards.compactMap(\.validation) }

  /// The server's time per query on the slowest shard, one thread, milliseconds: each shard's
  /// median over its trials, the largest. A query reaches one shard, so the slowest bounds
  /// every call's wait; one thread is what a server answering many calls at once gives each.
  public var slowestShardMilliseconds: Double? {
    validations.compactMap { Statistics.median($0.singleThreadedMilliseconds) }.max()
  }
  /// The same on all of the processor's cores.
  public var slowestShardMultiThreadedMilliseconds: Double? {
    validations.compactMap { Statistics.median($0.multiThreadedMilliseconds) }.max()
  }
  /// The largest query, reply and evaluation key over the shards, kilobytes.
  public var queryKB: Double? { validations.map(\.queryKB).max() }
  public var responseKB: Double? { validations.map(\.responseKB).max() }
  public var evaluationKeyKB: Double? { validations.map(\.evaluationKeyKB).max() }
  /// The reply's ciphertexts on the shard with the largest reply.
  public var responseCiphertexts: Int? {
    validations.max { $0.responseKB < $1.responseKB }?.responseCiphertexts
  }
  /// The lowest and highest load factor over the shards' cuckoo tables.
  public var loadFactors: ClosedRange<Double>? {
    let factors = shards.compactMap(\.loadFactor)
    guard let low = factors.min(), let high = factors.max() else { return nil }
    return low...high
  }
  /// Entries over the shards' tables.
  public var entries: Int { shards.compactMap(\.entries).reduce(0, +) }

  /// `logs` with the logs of each pre-sharded use case joined into one: when every log of a use
  /// case holds one shard (`export lcidl --pre-sharded` writes one input per shard, and each is
  /// processed alone), they are one dataset, reported and budgeted as one row, as the one-input
  /// log of the same dataset is (the slowest of its 101 shards, not 101 rows). Each shard takes
  /// its output's number (`block-57.bin`) and keeps its log's file. Logs of several shards, and a
  /// use case with a single log, are left as they are, named by their files when they share a
  /// use case.
  public static func joiningPreShardedLogs(_ logs: [ProcessorLog]) -> [ProcessorLog] {
    let byUseCase = Dictionary(grouping: logs.filter { $0.useCase != nil }) { $0.useCase ?? "" }
    let joinable = Set(
      byUseCase.filter { $0.value.count > 1 && $0.value.allSatisfy { $0.shards.count == 1 } }.keys)
    var joined: [ProcessorLog] = []
    var place: [String: Int] = [:]
    for log in logs {
      guard let useCase = log.useCase, joinable.contains(useCase) else {
        joined.append(log)
        continue
      }
      var shard = log.shards[0]
      shard.source = log.file
      if let index = place[useCase] {
        shard.id = shard.outputNumber ?? joined[index].shards.count
        joined[index].shards.append(shard)
      } else {
        shard.id = shard.outputNumber ?? 0
        place[useCase] = joined.count
        var first = ProcessorLog(useCase: useCase, shards: [shard])
        first.file = log.file
        joined.append(first)
      }
    }
    return joined.map { log in
      var sorted = log
      sorted.shards.sort { $0.id < $1.id }
      return sorted
    }
  }

  /// Shards whose cuckoo table holds fewer entries than the rows read into them: rows the
  /// processor lost. Its automatic sizing (`allowExpansion`) does this when no entry of a
  /// keyword's two buckets can make room for a large value: `CuckooTable.insertLoop` expands
  /// the table and returns without inserting the pending row (swift-homomorphic-encryption,
  /// main at 6867588). calldir's configurations fix the bucket count, so the processor fails
  /// there instead ("Needed to expand a Cuckoo table that doesn't allow expansion").
  public var shardsWithLostRows: [(id: Int, rows: Int, entries: Int, source: String?)] {
    shards.compactMap { shard in
      guard let rows = shard.rows, let entries = shard.entries, entries < rows else {
        return nil
      }
      return (shard.id, rows, entries, shard.source)
    }
  }
}
