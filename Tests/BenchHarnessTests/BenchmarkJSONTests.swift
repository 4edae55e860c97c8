import Foundation
import Testing

@testable import BenchMeasuring
@testable import BenchReporting

/// github-action-benchmark's custom JSON: one direction per file.
@Suite("CI dashboard JSON")
struct BenchmarkJSONTests {
  @Test func throughputIsBiggerIsBetterAndTheRestSmallerIsBetter() throws {
    let records = (1...3).map { index in
      var record = RunRecord()
      record.profile = "ci-smoke"
      record.strategy = "mmap"
      record.binary = "calldir-extension"
      record.commit = "abc1234"
      record.repeatIndex = index
      record.entries = 200_000
      record.loadSeconds = 0.01 * Double(index)
      record.entriesPerSecond = 200_000 / record.loadSeconds
      record.footprintPeakBytes = 1_150_000 + index
      record.heapPeakBytes = 1_024
      record.instructionsPerEntry = 665.667
      record.allocations = 167_555
      record.baseVersion = 3
      record.allocator = "jemalloc"
      return record
    }
    let (bigger, smaller) = try BenchmarkJSON.files(records, profile: "ci-smoke")
    typealias Entries = [[String: JSONValue]]
    let up = try JSONDecoder().decode(Entries.self, from: Data(bigger.utf8))
    let down = try JSONDecoder().decode(Entries.self, from: Data(smaller.utf8))
    #expect(up.count == 1)
    #expect(up[0]["name"] == .string("mmap: throughput"))
    #expect(up[0]["unit"] == .string("entries/s"))
    #expect(up[0]["value"] == .number(10_000_000))
    #expect(up[0]["range"] == .string("± 6666667"), "half the spread of 20M, 10M, 6.7M")
    let names = down.compactMap { if case .string(let name) = $0["name"] { name } else { nil } }
    #expect(
      names == [
        "mmap: load time", "mmap: footprint", "mmap: heap peak", "mmap: instructions per entry",
        "mmap: allocations per entry",
      ])
    #expect(down[3]["value"] == .number(665.667))
    #expect(down[4]["value"] == .number(0.837775))
    guard case .string(let extra) = down[0]["extra"] else {
      Issue.record("no extra")
      return
    }
    #expect(extra.contains("200000 entries") && extra.contains("base v3"))
    #expect(extra.contains("commit abc1234"))
    #expect(BenchmarkJSON.throughputPath(beside: "/a/b/bench.json") == "/a/b/bench-throughput.json")
  }

  /// Bencher's Metric Format: one benchmark per strategy, every measure in one file, medians
  /// with the runs' range (issue 41, item 4).
  @Test func bencherMetricFormatHoldsEveryMeasureOfAStrategy() throws {
    let records = (1...3).map { index in
      var record = RunRecord()
      record.strategy = "mmap"
      record.run = .load
      record.status = .ok
      record.repeatIndex = index
      record.entries = 200_000
      record.loadSeconds = 0.01 * Double(index)
      record.entriesPerSecond = 200_000 / record.loadSeconds
      record.footprintPeakBytes = 1_150_000 + index
      record.startupCPUSeconds = 0.004 + 0.0001 * Double(index)
      record.instructionsPerEntry = 369.3
      return record
    }
    let text = try BencherMetricFormat.file(records)
    typealias Measures = [String: [String: [String: Double]]]
    let file = try JSONDecoder().decode(Measures.self, from: Data(text.utf8))
    let mmap = try #require(file["mmap"])
    #expect(
      mmap["throughput"] == [
        "value": 10_000_000, "lower_value": 6_666_667, "upper_value": 20_000_000,
      ])
    #expect(mmap["latency"] == ["value": 0.02, "lower_value": 0.01, "upper_value": 0.03])
    #expect(mmap["footprint-bytes"]?["value"] == 1_150_002)
    #expect(mmap["startup-cpu-seconds"]?["value"] == 0.0042)
    #expect(mmap["instructions-per-entry"] == ["value": 369.3])
    #expect(BencherMetricFormat.path(beside: "/a/b/bench.json") == "/a/b/bench-bmf.json")
  }
}

/// The JSON values the entries hold.
enum JSONValue: Decodable, Equatable {
  case string(String)
  case number(Double)

  init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else {
      self = .string(try container.decode(String.self))
    }
  }
}
