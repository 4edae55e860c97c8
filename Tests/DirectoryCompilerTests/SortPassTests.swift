import ByteCoding
import TestSupport
import Testing

@testable import DirectoryCompiler

/// The compiler's own sort pieces (issue 30): the radix sort of a run's index and the duplicate
/// dropper of the merge, each against the obvious slow way.
@Suite("The run's radix sort and the merge's duplicate dropper")
struct SortPassTests {
  /// A reproducible generator (SplitMix64): the same entries on every run.
  struct Numbers {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  @Test(arguments: [
    (count: 50_000, spread: UInt64(1) << 62, spare: 0),  // every pass taken
    (count: 50_000, spread: 100_000_000_000, spare: 0),  // phone numbers: top passes skipped
    (count: 5_000, spread: 50, spare: 0),  // mostly duplicates
    // A scratch buffer left longer by an earlier, bigger run: the passes swap the two buffers,
    // so the sorted entries may end in the longer one, which must come back at the right length.
    (count: 5_000, spread: 50, spare: 777),
    (count: 5_000, spread: 100_000_000_000, spare: 777),
  ])
  func theRadixSortOrdersByNumberThenSequence(count: Int, spread: UInt64, spare: Int) {
    var random = Numbers(state: UInt64(count) &+ spread)
    var entries: [IndexRadixSort.Entry] = (0..<count).map { index in
      let magnitude = Int64(random.next() % spread)
      // Negative numbers too (they sort before positive ones), and sequences out of order for
      // a third of the entries, as records added otherwise than in input order would be.
      let number = random.next() % 7 == 0 ? -magnitude : magnitude
      let sequence = index % 3 == 0 ? random.next() % UInt64(count) : UInt64(index)
      return (number, sequence, index)
    }
    let expected = entries.sorted {
      $0.number != $1.number ? $0.number < $1.number : $0.sequence < $1.sequence
    }
    var scratch = [IndexRadixSort.Entry](
      repeating: (0, 0, -1), count: spare > 0 ? count + spare : 0)
    IndexRadixSort.sort(&entries, scratch: &scratch)
    #expect(entries.count == count)
    #expect(entries.map(\.number) == expected.map(\.number))
    #expect(entries.map(\.sequence) == expected.map(\.sequence))
    // Equal (number, sequence) pairs keep their order: the offsets say which entry is which.
    #expect(entries.map(\.offset) == expected.map(\.offset))
  }

  @Test(arguments: DuplicatePolicy.allCases)
  func theDropperKeepsWhatThePolicySaysAcrossBatches(policy: DuplicatePolicy) throws {
    var random = Numbers(state: 7)
    // (number, rank, label) in merge order: numbers ascending, duplicates in input order.
    var records: [(number: Int64, rank: Int64, label: [UInt8])] = []
    for number in Int64(1)...3_000 {
      for copy in 0..<Int(random.next() % 4 + 1) {
        let rank = Int64(random.next() % 5)
        records.append((number, rank, Array("label \(number)/\(copy)".utf8)))
      }
    }
    var expected: [(number: Int64, label: [UInt8])] = []
    var start = 0
    while start < records.count {
      var end = start
      while end < records.count && records[end].number == records[start].number { end += 1 }
      let group = records[start..<end]
      let kept: (number: Int64, rank: Int64, label: [UInt8]) =
        switch policy {
        case .first: group.first!
        case .last: group.last!
        // The highest rank, the first of equal ones.
        case .priority: group.reduce(group.first!) { $1.rank > $0.rank ? $1 : $0 }
        }
      expected.append((kept.number, kept.label))
      start = end
    }
    var dropper = DuplicateDropper(policy: policy)
    var batch: [UInt8] = []
    var got: [(number: Int64, label: [UInt8])] = []
    var handedOn = 0
    func collect(_ batch: [UInt8]) throws {
      try DuplicateDropper.forEachRecord(in: batch) { got.append(($0.number, Array($0.label))) }
    }
    for (sequence, record) in records.enumerated() {
      try record.label.withUnsafeBytes { label in
        let view = SortRecordView(
          number: record.number, rank: record.rank, sequence: UInt64(sequence), label: label,
          region: UnsafeRawBufferPointer(start: nil, count: 0),
          category: UnsafeRawBufferPointer(start: nil, count: 0))
        // A small threshold: a batch is handed on every few records, between duplicates too.
        try dropper.add(view, to: &batch, threshold: 200) { full in
          handedOn += 1
          try collect(full)
          full.removeAll(keepingCapacity: true)
        }
      }
    }
    try collect(batch)
    #expect(handedOn > 100)
    #expect(got.map(\.number) == expected.map(\.number))
    #expect(got.map(\.label) == expected.map(\.label))
    #expect(dropper.dropped == records.count - expected.count)
  }

  struct WriterFailed: Error, Equatable {}

  /// Records from a sorter that spilled several runs, merged again for each use.
  func merged(in folder: TemporaryFolder, count: Int) throws -> [ExternalSorter] {
    let sorter = ExternalSorter(budget: 64 * 1024, directory: folder.path(""))
    var random = Numbers(state: 11)
    for sequence in 0..<count {
      let number = Int64(random.next() % UInt64(count / 2))
      var label = "label \(sequence)"
      try label.withUTF8 {
        try sorter.add(
          number: number, rank: 0, sequence: UInt64(sequence), label: ByteView($0),
          region: .empty, category: .empty)
      }
    }
    #expect(sorter.runPaths.count > 3)
    return [sorter]
  }

  @Test func thePipelineHandsOnWhatOneThreadWouldAndStopsOnTheWritersError() throws {
    let folder = try TemporaryFolder()
    let sorters = try merged(in: folder, count: 40_000)
    var oneThread: [(Int64, [UInt8])] = []
    var dropper = DuplicateDropper(policy: .first)
    var batch: [UInt8] = []
    let merge = try ExternalSorter.merged(sorters)
    while try merge.next({ try dropper.add($0, to: &batch, threshold: .max) { _ in } }) {}
    try DuplicateDropper.forEachRecord(in: batch) { oneThread.append(($0.number, Array($0.label))) }

    var piped: [(Int64, [UInt8])] = []
    let dropped = try ChosenRecordPipeline.run(
      try ExternalSorter.merged(sorters), policy: .first
    ) { piped.append(($0.number, Array($0.label))) }
    #expect(piped.map(\.0) == oneThread.map(\.0))
    #expect(piped.map(\.1) == oneThread.map(\.1))
    #expect(dropped == dropper.dropped && dropped > 0)

    // The writer fails halfway: its error comes back, and the merging thread is stopped (the
    // call returns; a producer left waiting for a free batch would hang it).
    var seen = 0
    #expect(throws: WriterFailed()) {
      _ = try ChosenRecordPipeline.run(try ExternalSorter.merged(sorters), policy: .first) { _ in
        seen += 1
        if seen == oneThread.count / 2 { throw WriterFailed() }
      }
    }
    #expect(seen == oneThread.count / 2)
  }
}
