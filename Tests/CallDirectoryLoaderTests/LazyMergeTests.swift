import BaseFormat
import CallDirectoryLoader
import TestSupport
import Testing

/// A merge that opens its bases as it reaches them yields exactly what one over bases opened up
/// front yields, and holds only the bases whose number ranges overlap the current number: the
/// extension's footprint does not grow with the number of regions.
@Suite("A lazy merge opens bases as it reaches them")
struct LazyMergeTests {
  /// Counts the readers alive, and the most alive at once.
  final class Census {
    var alive = 0
    var most = 0
    var opened = 0
  }

  /// A reader that tells the census when it is made and released.
  final class CountedReader: BaseReader {
    let reader: MappedBaseReader
    let census: Census
    init(_ reader: MappedBaseReader, _ census: Census) {
      self.reader = reader
      self.census = census
      census.alive += 1
      census.opened += 1
      census.most = max(census.most, census.alive)
    }
    deinit { census.alive -= 1 }
    var header: BaseHeader { reader.header }
    func next() throws(BaseFormatError) -> BaseEntry? { try reader.next() }
  }

  /// 40 regions of contiguous ranges (as area codes are), a seed set spanning all of them with a
  /// lower priority, and a high-priority list overlapping two regions.
  func bases(in folder: TemporaryFolder) throws -> [(path: String, priority: Int)] {
    var bases: [(String, Int)] = []
    func write(_ name: String, _ priority: Int, _ entries: [(Int64, String)]) throws {
      let path = folder.path(name)
      let writer = try BaseWriter(path: path, kind: .identification)
      for (number, label) in entries { try writer.append(number, label: label) }
      try writer.finish()
      bases.append((path, priority))
    }
    for region in 0..<40 {
      let start = Int64(1_000 + region * 100)
      try write(
        "region-\(region)", 10,
        stride(from: start, to: start + 100, by: 3).map { ($0, "region \(region)") })
    }
    try write("seed", 1, stride(from: Int64(1_000), to: 5_000, by: 7).map { ($0, "seed") })
    try write("spam", 50, (1_450..<1_650).map { ($0, "spam") })
    return bases
  }

  /// The lazy merge of `bases`, ordered by their headers as the loader orders them.
  func lazyMerge(_ bases: [(path: String, priority: Int)], _ census: Census) throws -> MergedList {
    let headers = try bases.map { try BaseHeader.read(path: $0.path) }
    return MergedList(pending: zip(headers, bases).map { ($0.lowestNumber, $1.priority) }) {
      index throws(BaseFormatError) in
      CountedReader(try MappedBaseReader(path: bases[index].path), census)
    }
  }

  func drain(_ list: MergedList) throws -> [String] {
    var result: [String] = []
    while let (entry, priority) = try list.next() {
      result.append("\(entry.number) \(entry.label) \(priority)")
    }
    return result
  }

  @Test func itYieldsWhatAnEagerMergeYieldsHoldingOnlyOverlappingBases() throws {
    let folder = try TemporaryFolder()
    let bases = try bases(in: folder)
    let readers = try bases.map {
      (try MappedBaseReader(path: $0.path) as any BaseReader, $0.priority)
    }
    let expected = try drain(try MergedList(readers))

    let census = Census()
    let lazy = try lazyMerge(bases, census)
    #expect(census.opened == 0, "nothing is opened before the first entry is asked for")
    let first = try lazy.next()
    #expect(first?.entry.number == 1_000)
    #expect(census.opened == 2, "the first region and the seed set, which start at 1000")
    let rest = try drain(lazy)
    #expect(
      [first.map { "\($0.entry.number) \($0.entry.label) \($0.priority)" }!] + rest == expected)
    #expect(expected.count > 1_000)
    #expect(census.opened == bases.count, "every base is read")
    #expect(census.alive == 0, "each is released at its end")
    // A region, the seed set, and the spam list across two regions' boundary.
    #expect(census.most <= 3)
  }

  @Test func aRangeStopsTheMergeBeforeTheBasesPastIt() throws {
    let folder = try TemporaryFolder()
    let bases = try bases(in: folder)
    let census = Census()
    let lazy = try lazyMerge(bases, census)
    lazy.range = 1_000..<1_300
    let numbers = try drain(lazy).map { Int64($0.split(separator: " ")[0])! }
    #expect(numbers.first == 1_000 && numbers.allSatisfy { $0 < 1_300 })
    #expect(census.opened == 5, "regions 0-3 and the seed set; none of the 36 past the range")
  }
}
