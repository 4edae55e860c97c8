import BaseFormat
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@testable import DirectoryCompiler

/// `compile --threads` (issue 30): a large plain TSV read by several threads, each a part cut at
/// a line feed, gives the container and report one thread gives, byte for byte: duplicates
/// across parts resolved in input order, rejected lines numbered in the whole file, the seed set
/// and the sort the same. Inputs a cut could break (gzip, quoted CSV) are read whole.
@Suite("Compiling on several threads: the same container, the same report")
struct ParallelCompileTests {
  /// A TSV of `rows` rows with a header, a BOM and CRLF line ends, duplicates far apart, and a
  /// rejected line of each kind scattered through it.
  static func dump(rows: Int, at path: String) throws {
    var text = "\u{FEFF}number\tlabel\tregion\trank\r\n"
    for index in 0..<rows {
      let number = 9_161_000_000 + (index * 7_919) % (rows * 3 / 4)  // repeats: duplicates
      switch index % 997 {
      case 13: text += "not a number\tФирма\tMOW\t1\r\n"
      case 29: text += "+7 \(number)\t\tMOW\t1\r\n"  // empty label
      case 31: text += "+7 \(number)\tbad \u{1}label\tMOW\t\(index)\r\n"
      case 57: text += "+7 \(number)\r\n"  // missing columns
      default:
        text +=
          "+7 \(number)\tФирма \(index % 311)\t\(index % 3 == 0 ? "SPE" : "MOW")\t\(index % 50)\r\n"
      }
    }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  func compile(_ input: String, threads: Int, folder: TemporaryFolder, seedBy: SeedChoice = .auto)
    throws -> (report: CompileReport, files: [String: Data])
  {
    let out = folder.path("out-\(threads)-\(seedBy)")
    var options = CompileOptions(inputs: [(input, .tsv)], output: out)
    options.threads = threads
    options.minimumSplitByteCount = 1
    options.seedSize = 500
    options.seedBy = seedBy
    options.memoryBudget = 1 << 20  // small: every part spills runs too
    let report = try Compiler(options: options).run()
    var files: [String: Data] = [:]
    for name in try FileManager.default.subpathsOfDirectory(atPath: out) {
      var isFolder: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: out + "/" + name, isDirectory: &isFolder)
      if !isFolder.boolValue, !name.hasSuffix(".lock") {
        files[name] = FileManager.default.contents(atPath: out + "/" + name)
      }
    }
    return (report, files)
  }

  @Test(arguments: [SeedChoice.rank, .spread])
  func anyThreadCountMakesTheSameContainerAndReport(seedBy: SeedChoice) throws {
    let folder = try TemporaryFolder()
    let input = folder.path("dump.tsv")
    try Self.dump(rows: 60_000, at: input)
    let one = try compile(input, threads: 1, folder: folder, seedBy: seedBy)
    #expect(one.report.rejectedCount > 200)
    #expect(one.report.duplicatesDropped > 10_000)
    #expect(one.files.keys.contains { $0.hasPrefix("bases/region-MOW") })
    for threads in [2, 3, 7] {
      let many = try compile(input, threads: threads, folder: folder, seedBy: seedBy)
      #expect(many.files == one.files, "\(threads) threads")
      #expect(many.report.linesRead == one.report.linesRead)
      #expect(many.report.accepted == one.report.accepted)
      #expect(many.report.duplicatesDropped == one.report.duplicatesDropped)
      #expect(many.report.seedEntries == one.report.seedEntries)
      for (reason, entry) in one.report.rejected {
        let theirs = many.report.rejected[reason]
        #expect(theirs?.count == entry.count, "\(reason) on \(threads) threads")
        #expect(theirs?.places == entry.places, "\(reason) on \(threads) threads")
      }
      #expect(many.report.rejected.count == one.report.rejected.count)
    }
  }

  @Test func theCutsFallAfterLineFeedsAndCoverTheFile() throws {
    let folder = try TemporaryFolder()
    let input = folder.path("dump.tsv")
    try Self.dump(rows: 5_000, at: input)
    let bytes = try #require(FileManager.default.contents(atPath: input))
    let ranges = try #require(
      InputSplit.ranges(path: input, format: .tsv, quoting: nil, parts: 4, minimumByteCount: 1))
    #expect(ranges.count == 4)
    #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == bytes.count)
    for (left, right) in zip(ranges, ranges.dropFirst()) {
      #expect(left.upperBound == right.lowerBound)
      #expect(bytes[right.lowerBound - 1] == UInt8(ascii: "\n"))
    }
  }

  @Test func inputsACutCouldBreakAreReadWhole() throws {
    let folder = try TemporaryFolder()
    let tsv = folder.path("dump.tsv")
    try Self.dump(rows: 2_000, at: tsv)
    // Quoted CSV (a field may hold a line feed), gzip, a small file, one thread, CR line ends.
    let csv = folder.path("dump.csv")
    try "number,label\n\"+7 9161000001\",\"two\nlines\"\n".write(
      toFile: csv, atomically: true, encoding: .utf8)
    #expect(
      InputSplit.ranges(path: csv, format: .csv, quoting: nil, parts: 2, minimumByteCount: 1) == nil
    )
    let gzip = folder.path("dump.tsv.gz")
    let zipped = try runProcess("/bin/sh", ["-c", "gzip -c '\(tsv)' > '\(gzip)'"])
    try #require(zipped.status == 0)
    #expect(
      InputSplit.ranges(path: gzip, format: .tsv, quoting: nil, parts: 2, minimumByteCount: 1)
        == nil)
    #expect(
      InputSplit.ranges(path: tsv, format: .tsv, quoting: nil, parts: 2, minimumByteCount: 1 << 30)
        == nil)
    #expect(
      InputSplit.ranges(path: tsv, format: .tsv, quoting: nil, parts: 1, minimumByteCount: 1) == nil
    )
    let classic = folder.path("mac.tsv")
    try "number\tlabel\r+7 9161000001\tone\r".write(
      toFile: classic, atomically: true, encoding: .utf8)
    #expect(
      InputSplit.ranges(path: classic, format: .tsv, quoting: nil, parts: 2, minimumByteCount: 1)
        == nil)
  }
}
