import Testing

@testable import BenchMeasuring
@testable import BenchReporting

@Suite("CSV files")
struct CSVTests {
  func sampleRecord(_ strategy: String, status: RunRecord.Status = .ok) -> RunRecord {
    var record = RunRecord()
    record.timestamp = "2026-11-22T04:00:00Z"
    record.commit = "abc1234"
    record.host = "ci, \"runner\" 1"
    record.profile = "ci-smoke"
    record.entries = 200_000
    record.fileBytes = 7_000_000
    record.strategy = strategy
    record.binary = "calldir-extension"
    record.repeatIndex = 2
    record.wallSeconds = 0.25
    record.loadSeconds = 0.125
    record.userSeconds = 0.1
    record.systemSeconds = 0.02
    record.entriesPerSecond = 1_600_000
    record.peakRSSBytes = 11_000_000
    record.idleRSSBytes = 10_900_000
    record.footprintPeakBytes = 1_200_000
    record.heapPeakBytes = 1_024
    record.allocator = "jemalloc"
    record.memoryLimitBytes = 5_242_880
    record.status = status
    record.detail = "line one\nline two, with a comma"
    return record
  }

  @Test func recordsRoundTripThroughCSV() throws {
    let records = [sampleRecord("mmap"), sampleRecord("baseline-2gis", status: .killedMemory)]
    let text = RunRecord.csv(records)
    #expect(text.hasPrefix(RunRecord.columns.joined(separator: ",") + "\r\n"))
    let parsed = try RunRecord.records(fromCSV: text)
    #expect(parsed == records)
  }

  @Test func theDocumentedColumnsComeFirstAndInOrder() {
    let documented = [
      "timestamp", "commit", "host", "profile", "entries", "file_bytes", "strategy", "binary",
      "repeat", "wall_s", "load_s", "user_s", "sys_s", "entries_per_s", "peak_rss_bytes",
      "idle_rss_bytes", "footprint_peak_bytes", "heap_peak_bytes", "memory_limit_bytes", "status",
    ]
    #expect(Array(RunRecord.columns.prefix(documented.count)) == documented)
  }

  @Test func quotingFollowsRFC4180() throws {
    let table = CSVTable(header: ["a", "b"], rows: [["x,y", "say \"hi\""], ["", "multi\nline"]])
    let text = table.encoded()
    #expect(text == "a,b\r\n\"x,y\",\"say \"\"hi\"\"\"\r\n,\"multi\nline\"\r\n")
    #expect(try CSVTable(parsing: text) == table)
  }

  @Test func malformedCSVNamesTheLine() {
    #expect(throws: CSVError(line: 2, problem: "unterminated quoted field")) {
      try CSVTable(parsing: "a,b\n\"open,1\n")
    }
    #expect(throws: CSVError(line: 3, problem: "3 fields where the header has 2")) {
      try CSVTable(parsing: "a,b\n1,2\n1,2,3\n")
    }
  }

  @Test func aBenchCSVWithABadValueNamesTheColumn() throws {
    var text = RunRecord.csv([sampleRecord("mmap")])
    text = text.replacingOccurrences(of: ",200000,", with: ",many,")
    #expect(throws: CSVError.self) { try RunRecord.records(fromCSV: text) }
    do {
      _ = try RunRecord.records(fromCSV: text)
    } catch {
      #expect(error.description.contains("'entries'"))
    }
  }
}
