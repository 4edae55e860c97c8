import BaseFormat
import CallDirectoryLoader
import Datasets
import TestSupport
import Testing

/// A merge read run by run hands on exactly what it hands on number by number, in as many steps
/// as its bases hold ranges and list entries: the incremental difference, the chunks past the
/// cap and the counting pass read 120 M numbers of unchanged patterns in a few hundred steps.
@Suite("A merge's runs are its numbers, in fewer steps")
struct MergedRunsTests {
  /// One base of a random merge: a rule base of disjoint ranges, or a list base.
  struct Base {
    let path: String
    let priority: Int
    let isRules: Bool
    /// Ranges for a rule base, single numbers for a list base.
    let ranges: [(ClosedRange<Int64>, String)]
  }

  /// Five to nine bases over 1...5,000, overlapping, with priorities in 1...3 (ties included),
  /// about half of them rule bases.
  func randomBases(in folder: TemporaryFolder, seed: UInt64) throws -> [Base] {
    var generator = SplitMix64(seed: seed)
    var bases: [Base] = []
    for index in 0..<Int.random(in: 5...9, using: &generator) {
      let path = folder.path("base-\(index)")
      let priority = Int.random(in: 1...3, using: &generator)
      var ranges: [(ClosedRange<Int64>, String)] = []
      var next = Int64.random(in: 1...500, using: &generator)
      let isRules = Bool.random(using: &generator)
      while next < 5_000 {
        let length = isRules ? Int64.random(in: 1...400, using: &generator) : 1
        let label = "L\(Int.random(in: 0..<3, using: &generator))"
        ranges.append((next...(next + length - 1), label))
        next += length + Int64.random(in: (isRules ? 1 : 2)...300, using: &generator)
      }
      if isRules {
        let writer = try RuleBaseWriter(path: path, kind: .identification)
        for (range, label) in ranges { try writer.append(range, label: label, rule: "r") }
        _ = try writer.finish()
      } else {
        let writer = try BaseWriter(path: path, kind: .identification)
        for (range, label) in ranges { try writer.append(range.lowerBound, label: label) }
        _ = try writer.finish()
      }
      bases.append(Base(path: path, priority: priority, isRules: isRules, ranges: ranges))
    }
    return bases
  }

  /// The lazy merge of `bases`, as the loader opens it.
  func merge(_ bases: [Base], range: Range<Int64>? = nil) throws -> MergedList {
    let headers = try bases.map { try BaseHeader.read(path: $0.path) }
    let list = MergedList(pending: zip(headers, bases).map { ($0.lowestNumber, $1.priority) }) {
      index throws(BaseFormatError) in
      if bases[index].isRules { return try RuleBaseReader(path: bases[index].path) }
      return try MappedBaseReader(path: bases[index].path)
    }
    list.range = range
    return list
  }

  @Test(arguments: 0..<40 as Range<UInt64>)
  func runsExpandToTheNumbersOneByOneInAStepPerRangeOrEntry(seed: UInt64) throws {
    let folder = try TemporaryFolder()
    let bases = try randomBases(in: folder, seed: seed)
    for range in [nil, Int64(1_234)..<Int64(3_456)] as [Range<Int64>?] {
      var expected: [String] = []
      let oneByOne = try merge(bases, range: range)
      while let (entry, priority) = try oneByOne.next() {
        expected.append("\(entry.number) \(entry.label) \(priority)")
      }
      var expanded: [String] = []
      var steps = 0
      let byRuns = try merge(bases, range: range)
      while let run = try byRuns.nextRun() {
        steps += 1
        #expect(run.first <= run.last)
        for number in run.first...run.last {
          expanded.append("\(number) \(run.label) \(run.priority)")
        }
      }
      let firstDifference = zip(expanded, expected).enumerated().first {
        $0.element.0 != $0.element.1
      }?
      .offset
      #expect(
        expanded.count == expected.count && firstDifference == nil,
        "seed \(seed), range \(String(describing: range)): \(expanded.count) numbers by runs, \(expected.count) one by one, first differing at \(firstDifference.map { "\(expanded[$0]) for \(expected[$0])" } ?? "none")"
      )
      // A run ends only where its range ends or another base's number or start cuts it.
      let pieces = bases.reduce(0) { $0 + $1.ranges.count }
      let cuts = bases.reduce(0) { $0 + 2 * $1.ranges.count }
      #expect(steps <= pieces + cuts + bases.count)
      if bases.contains(where: \.isRules) { #expect(steps < expected.count) }
    }
  }

  @Test func aRangeOfAMillionNumbersIsOneRunEvenWithListEntriesInside() throws {
    let folder = try TemporaryFolder()
    let rules = try RuleBaseWriter(path: folder.path("rules"), kind: .blocking)
    try rules.append(1_000_000...1_999_999, label: "", rule: "+1 ######")
    try rules.append(3_000_000...3_999_999, label: "", rule: "+3 ######")
    _ = try rules.finish()
    let list = try BaseWriter(path: folder.path("list"), kind: .blocking)
    for number in stride(from: Int64(1_500_000), to: 1_500_100, by: 10) { try list.append(number) }
    _ = try list.finish()
    let bases = [
      Base(path: folder.path("rules"), priority: 1, isRules: true, ranges: []),
      Base(path: folder.path("list"), priority: 2, isRules: false, ranges: []),
    ]
    let merged = try merge(bases)
    var (steps, numbers) = (0, 0)
    while let run = try merged.nextRun() {
      steps += 1
      numbers += run.count
    }
    // Ten list entries inside the first range cut it into eleven pieces; the second is whole.
    #expect(numbers == 2_000_000)
    #expect(steps == 11 + 10 + 1)
  }

  @Test(arguments: 0..<20 as Range<UInt64>)
  func aCapAdmitsARunsFirstEntriesAsItAdmitsThemOneByOne(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    let runs = (0..<30).map { _ in
      (
        priority: Int.random(in: 1...4, using: &generator),
        count: Int.random(in: 1...50, using: &generator)
      )
    }
    let histogram = Dictionary(runs.map { ($0.priority, $0.count) }, uniquingKeysWith: +)
    let plan = CapPlan(histogram: histogram, cap: Int.random(in: 0...900, using: &generator))
    var oneByOne = CapFilter(plan)
    var byRuns = CapFilter(plan)
    for run in runs {
      let admitted = (0..<run.count).map { _ in oneByOne.admits(priority: run.priority) }
      let prefix = byRuns.admits(priority: run.priority, count: run.count)
      #expect(admitted == (0..<run.count).map { $0 < prefix })
    }
  }
}
