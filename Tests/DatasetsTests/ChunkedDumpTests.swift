import Foundation
import TestSupport
import Testing

@testable import Datasets

/// A dump past the generator's size is written in slices, each the generator's own rows for
/// a seed of its own, under one header; within a slice's size it is the generator's file.
@Suite("Dumps of any size")
struct ChunkedDumpTests {
  @Test func aDumpWithinASliceIsTheGeneratorsFile() throws {
    let folder = try TemporaryFolder()
    let parameters = DatasetParameters(entries: 3_000, duplicateShare: 0.1, seed: 9)
    try ChunkedDump.write(parameters, to: folder.path("chunked.tsv"), sliceEntries: 3_000) { _ in }
    try DatasetGenerator(parameters: parameters).write(.tsv, to: folder.path("plain.tsv"))
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: folder.path("chunked.tsv")))
        == Data(contentsOf: URL(fileURLWithPath: folder.path("plain.tsv"))))
  }

  @Test func aLargerDumpIsSlicesUnderOneHeader() throws {
    let folder = try TemporaryFolder()
    let parameters = DatasetParameters(entries: 2_500, duplicateShare: 0.1, seed: 9)
    var fractions: [Double] = []
    try ChunkedDump.write(parameters, to: folder.path("dump.tsv"), sliceEntries: 1_000) {
      fractions.append($0)
    }
    let lines = try String(contentsOfFile: folder.path("dump.tsv"), encoding: .utf8)
      .split(separator: "\n")
    #expect(lines.first == "number\tlabel\tregion\trank")
    #expect(lines.filter { $0.hasPrefix("number\t") }.count == 1)
    // Three slices: 1,000, 1,000 and 500 entries, each with its tenth of repeats, in order.
    var expected: [Substring] = []
    for (slice, entries) in [1_000, 1_000, 500].enumerated() {
      var sliceParameters = parameters
      sliceParameters.entries = entries
      sliceParameters.seed = ChunkedDump.seed(of: parameters, slice: UInt64(slice))
      let path = folder.path("slice-\(slice).tsv")
      try DatasetGenerator(parameters: sliceParameters).write(.tsv, to: path)
      expected += try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        .dropFirst()
    }
    #expect(Array(lines.dropFirst()) == expected)
    #expect(lines.count - 1 == 2_500 + 100 + 100 + 50)
    #expect(fractions.last == 1 && zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 })
  }

  /// Slices draw apart: stepped seeds (seed + k × SplitMix64's own increment) made every slice
  /// slice 0's numbers again, a few draws later, and 420 M rows held 110 M numbers.
  @Test func slicesShareFewNumbers() throws {
    let parameters = DatasetParameters(entries: 40_000, seed: 4_000_000)
    let numbers = try (0..<4).map { slice in
      var sliceParameters = parameters
      sliceParameters.entries = 10_000
      sliceParameters.seed = ChunkedDump.seed(of: parameters, slice: UInt64(slice))
      return Set(try DatasetGenerator(parameters: sliceParameters).numbers)
    }
    // The RU plan holds 568 M numbers: 10,000 draws each meet by chance a handful of times.
    for (first, second) in [(0, 1), (1, 2), (0, 3)] {
      #expect(numbers[first].intersection(numbers[second]).count < 10)
    }
  }
}
