import BaseFormat
import CallDirectoryLoader
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@Suite("The loader's parts: ranges, merge and cap")
struct LoaderPartsTests {
  /// A part's merge leaves out a base whose numbers all lie outside its range: the header's
  /// lowest and highest numbers bound every entry (the range's end is exclusive), and an empty
  /// base holds nothing.
  @Test func aBaseMayHoldARangesNumbersOnlyWhenItsBoundsMeetIt() {
    func header(_ lowest: Int64, _ highest: Int64, entries: Int = 10) -> BaseHeader {
      BaseHeader(
        kind: .identification, entryCount: entries, lowestNumber: lowest, highestNumber: highest,
        blockCount: 1, payloadByteCount: 100, blockChecksumsChecksum: 0)
    }
    let range: Range<Int64> = 100..<200
    #expect(header(150, 160).mayHold(numbersIn: range))
    #expect(header(10, 100).mayHold(numbersIn: range), "its last is the first")
    #expect(header(199, 300).mayHold(numbersIn: range), "its first is the last")
    #expect(header(10, 300).mayHold(numbersIn: range), "it spans the range")
    #expect(!header(10, 99).mayHold(numbersIn: range))
    #expect(!header(200, 300).mayHold(numbersIn: range), "the end is exclusive")
    #expect(!header(0, 0, entries: 0).mayHold(numbersIn: 0..<200), "empty")
  }

  @Test func theCapPlanKeepsTheHighestPrioritiesAndSplitsTheThreshold() {
    let plan = CapPlan(histogram: [100: 10, 50: 30, 10: 100], cap: 25)
    #expect(plan.thresholdPriority == 50)
    #expect(plan.quotaAtThreshold == 15)
    var filter = CapFilter(plan)
    let admitted =
      (0..<10).filter { _ in filter.admits(priority: 100) }.count
      + (0..<30).filter { _ in filter.admits(priority: 50) }.count
      + (0..<100).filter { _ in filter.admits(priority: 10) }.count
    #expect(admitted == 25)
    #expect(CapPlan(histogram: [1: 5], cap: 5).thresholdPriority == nil)
  }

  @Test func theMergeYieldsEachNumberOnceWithTheBestLabel() throws {
    let folder = try TemporaryFolder()
    func base(_ name: String, _ entries: [(Int64, String)]) throws -> any BaseReader {
      let path = folder.path(name)
      let writer = try BaseWriter(path: path, kind: .identification)
      for (number, label) in entries { try writer.append(number, label: label) }
      try writer.finish()
      return try MappedBaseReader(path: path)
    }
    let merged = try MergedList([
      (try base("low", [(1, "low"), (3, "low"), (5, "low")]), 1),
      (try base("high", [(3, "high"), (4, "high")]), 9),
      (try base("empty", []), 5),
      (try base("tie", [(5, "tie")]), 1),
    ])
    var result: [String] = []
    while let (entry, priority) = try merged.next() {
      result.append("\(entry.number) \(entry.label) \(priority)")
    }
    #expect(result == ["1 low 1", "3 high 9", "4 high 9", "5 low 1"])
  }
}
