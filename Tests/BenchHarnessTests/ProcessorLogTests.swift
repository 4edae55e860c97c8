import Foundation
import Testing

@testable import BenchGating

/// `calldir gate --lcidl-log`: Apple's processor's log read as the processor writes it, on a
/// log it wrote (issue 69, item 4).
@Suite("Reading PIRProcessDatabase's log")
struct ProcessorLogTests {
  let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Datasets/samples/pir-process-database-identity.log").path

  /// A gate's result on an empty container with `processorLogs`: the budgets and the report
  /// of the logs alone.
  func gateResult(processorLogs: [ProcessorLog]) -> TeamGateResult {
    var result = TeamGateResult(
      settings: GateSettings(),
      head: DataFigures(
        bases: [], seedEntries: 0, fullEntries: 0, labelledEntries: 0, labelBytes: 0, totalBytes: 0),
      base: nil, largest: "r")
    result.processorLogs = processorLogs
    return result
  }

  @Test func everyShardsFiguresAreReadFromTheProcessorsOwnLog() throws {
    let text = try String(contentsOfFile: sample, encoding: .utf8)
    let log = try ProcessorLog.read(path: sample)
    // One shard per table the processor created, and one validation per ValidationResults.
    let tables = text.split(separator: "\n").filter { $0.contains("] Created cuckoo table") }
    let validations = text.split(separator: "\n").filter { $0.hasSuffix("] ValidationResults") }
    #expect(log.shards.count == tables.count && log.shards.count == 3)
    #expect(log.shards.compactMap(\.validation).count == validations.count)
    #expect(log.useCase == "identity")
    #expect(log.shards.map(\.id) == [0, 1, 2])
    // The entries are the dataset's rows (10,001 identities), each table's as logged.
    #expect(log.entries == 10_001)
    for shard in log.shards {
      let validation = try #require(shard.validation)
      #expect(validation.multiThreadedMilliseconds.count == 5, "trialsPerShard is 5")
      #expect(validation.singleThreadedMilliseconds.count == 5)
      #expect(validation.queryCiphertexts == 1 && validation.responseCiphertexts >= 1)
      #expect(validation.queryKB > 0 && validation.responseKB > 0)
      #expect(validation.evaluationKeyKB > validation.queryKB)
      #expect(validation.noiseBudget > 0, "a reply that decrypts")
      let factor = try #require(shard.loadFactor)
      #expect(factor > 0.5 && factor < 0.95, "calldir sizes for 0.75: \(factor)")
      #expect(
        text.contains(
          "shardID=\(shard.id) [PIRProcessDatabase] Created cuckoo table CuckooTableInformation(entryCount: \(shard.entries ?? -1),"
        ))
    }
    // The budgeted figure: the slowest shard's median, one thread.
    let medians = log.shards.compactMap { $0.validation?.singleThreadedMilliseconds }.map {
      $0.sorted()[2]
    }
    #expect(log.slowestShardMilliseconds == medians.max())
    #expect(log.responseKB == log.shards.compactMap { $0.validation?.responseKB }.max())
    // calldir's fixed-size tables keep every row the processor read.
    #expect(log.shards.map(\.rows) == log.shards.map(\.entries))
    #expect(log.shardsWithLostRows.isEmpty)
  }

  /// Logs of one use case with several shards each are told apart by their files, in the
  /// report and in each budget's name; a use case alone keeps its plain name.
  @Test func logsOfOneUseCaseAreNamedByTheirFiles() throws {
    let text = try String(contentsOfFile: sample, encoding: .utf8)
    let logs = ProcessorLog.joiningPreShardedLogs(
      try ["runs/identity-a.log", "runs/identity-b.log"].map {
        try ProcessorLog.parse(text, name: $0)
      })
    #expect(logs.count == 2, "logs of three shards each are not joined")
    #expect(
      logs.map { $0.displayName(among: logs) } == [
        "identity (identity-a.log)", "identity (identity-b.log)",
      ])
    #expect(logs[0].displayName(among: [logs[0]]) == "identity")
    let result = gateResult(processorLogs: logs)
    let names = result.budgetChecks.filter { $0.key == "budgets.lcidl-server-ms" }.map(\.seriesName)
    #expect(names.count == 2 && Set(names).count == 2, "\(names)")
    let report = TeamGateReport.markdown(result, title: "t", chartLink: nil)
    #expect(report.contains("| identity (identity-b.log) | 3 | 10001 | "), "\(report)")
  }

  /// A pre-sharded dataset's logs, one shard each, are one dataset: one row of the report and
  /// one budget each, its shards numbered as their outputs are, every figure over all of them,
  /// and a shard that lost rows named with its log.
  @Test func aPreShardedDatasetsLogsAreOneDataset() throws {
    let shardLog = URL(fileURLWithPath: sample).deletingLastPathComponent()
      .appendingPathComponent("pir-process-database-block-shard.log").path
    let text = try String(contentsOfFile: shardLog, encoding: .utf8)
    let single = try ProcessorLog.parse(text, name: "block-0.log")
    #expect(single.shards.count == 1 && single.shards[0].outputNumber == 0)
    let entries = try #require(single.shards[0].entries)
    // The processor's log of each input, as --pre-sharded names them (block-N.bin), given out
    // of order; shard 2's table one entry short.
    var logs = try [2, 0, 1].map { number in
      try ProcessorLog.parse(
        text.replacingOccurrences(of: "block-0.", with: "block-\(number)."),
        name: "sharded/block-\(number).log")
    }
    logs[0].shards[0].entries = entries - 1
    let identity = try ProcessorLog.read(path: sample)
    let joined = ProcessorLog.joiningPreShardedLogs(logs + [identity])
    #expect(joined.map(\.useCase) == ["block", "identity"])
    let block = joined[0]
    #expect(block.shards.map(\.id) == [0, 1, 2])
    #expect(
      block.shards.map(\.source) == [
        "sharded/block-0.log", "sharded/block-1.log", "sharded/block-2.log",
      ])
    #expect(block.entries == 3 * entries - 1)
    #expect(block.slowestShardMilliseconds == logs.compactMap(\.slowestShardMilliseconds).max())
    #expect(block.displayName(among: joined) == "block")
    #expect(joined[1] == identity, "a log of several shards is left as it was")

    let result = gateResult(processorLogs: joined)
    let server = result.budgetChecks.filter { $0.key == "budgets.lcidl-server-ms" }
    #expect(server.map(\.seriesName).count == 2, "one budget row per dataset")
    let report = TeamGateReport.markdown(result, title: "t", chartLink: nil)
    #expect(report.contains("| block | 3 | \(3 * entries - 1) | "), "\(report)")
    #expect(report.contains("slowest of 3 shards, each processed alone"), "\(report)")
    #expect(
      result.dataVerdict.failures.contains {
        $0.contains(
          "Live Caller ID Lookup block shard 2 (block-2.log): the processor's table holds")
      }, "\(result.dataVerdict.failures)")
  }

  /// A table that holds fewer entries than its shard's rows lost some, as the processor's
  /// automatic sizing does with a large value: named, shard by shard.
  @Test func rowsTheProcessorLostAreNamed() throws {
    let text = try String(contentsOfFile: sample, encoding: .utf8)
    let line = try #require(
      text.split(separator: "\n").first {
        $0.contains("shardID=1 [PIRProcessDatabase] Created cuckoo table")
      })
    let entries = try #require(ProcessorLog.field("entryCount", in: line[...]).flatMap { Int($0) })
    let lossy = text.replacingOccurrences(
      of: String(line),
      with: line.replacingOccurrences(
        of: "entryCount: \(entries),", with: "entryCount: \(entries - 1),"))
    let log = try ProcessorLog.parse(lossy, name: "p.log")
    #expect(log.shardsWithLostRows.map(\.id) == [1])
    #expect(log.shardsWithLostRows.first?.entries == entries - 1)
    let result = gateResult(processorLogs: [log])
    #expect(
      result.dataVerdict.failures.contains {
        $0.hasPrefix(
          "data: Live Caller ID Lookup identity shard 1: the processor's table holds \(entries - 1) of its \(entries) rows"
        )
      })
  }

  @Test(arguments: [
    ("truncated", "the ValidationResults after this line are not a JSON object"),
    ("no-times", "no list of times at 'runtimeSingleThreadedMs'"),
    ("no-size", "no number at 'response.sizeKB'"),
    ("not-a-log", "no shard in it (not PIRProcessDatabase's log"),
  ])
  func aLogThatIsNotTheProcessorsIsNamedWithItsLine(kind: String, message: String) throws {
    let text = try String(contentsOfFile: sample, encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let first = try #require(lines.firstIndex { $0.hasSuffix("] ValidationResults") })
    switch kind {
    case "truncated": lines.removeSubrange((first + 3)..<(first + 12))
    case "no-times":
      let key = try #require(lines.firstIndex { $0.contains("\"runtimeSingleThreadedMs\"") })
      lines[key] = lines[key].replacingOccurrences(of: "runtimeSingleThreadedMs", with: "other")
    case "no-size":
      let response = try #require(lines.firstIndex { $0.contains("\"response\"") })
      lines[response + 2] = lines[response + 2].replacingOccurrences(of: "sizeKB", with: "size")
    default: lines = ["name\tlabel", "+79161234567\tPizza"]
    }
    #expect {
      try ProcessorLog.parse(lines.joined(separator: "\n"), name: "p.log")
    } throws: { error in
      let text = "\(error)"
      return text.contains(message)
        && (kind == "not-a-log" || text.hasPrefix("p.log:\(first + 1): "))
    }
  }
}
