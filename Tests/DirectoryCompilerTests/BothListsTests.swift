import BaseFormat
import ByteCoding
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@testable import DirectoryCompiler

/// iOS keeps two lists, identification and blocking: a number may be in both. Issue 39, item 1:
/// a blocked number that also had a label vanished from the blocking list, silently.
@Suite("calldir compile: a number identified and blocked keeps both entries")
struct BothListsTests {
  func compile(
    _ inputs: [(String, InputFormat)], blocking: Set<String> = [], threads: Int,
    policy: DuplicatePolicy = .first, folder: TemporaryFolder
  ) throws -> (CompileReport, identified: [String], blocked: [Int64]) {
    let out = folder.path("box-\(threads)-\(policy)")
    var options = CompileOptions(inputs: inputs, output: out)
    options.seedSize = 0
    options.threads = threads
    options.blockingInputs = blocking
    options.duplicates = policy
    let report = try Compiler(options: options).run()
    let manifest = try Manifest.read(container: out)
    var identified: [String] = []
    var blocked: [Int64] = []
    for base in manifest.bases {
      let entries = try MappedBaseReader(path: out + "/" + base.file).readAll()
      switch base.role {
      case .region: identified += entries.map { "\($0.number) \($0.label)" }
      case .blocking: blocked += entries.map(\.number)
      case .seed: break
      }
    }
    return (report, identified.sorted(), blocked.sorted())
  }

  @Test(arguments: [1, 2])
  func aLabelledNumberInTheBlockingListStaysBlocked(threads: Int) throws {
    let folder = try TemporaryFolder()
    let identities = folder.path("i.tsv")
    let blocks = folder.path("b.tsv")
    try "number\tlabel\n+74951234567\tАптека\n".write(
      toFile: identities, atomically: true, encoding: .utf8)
    try "number\n+74951234567\n+78001000000\n".write(
      toFile: blocks, atomically: true, encoding: .utf8)
    let (report, identified, blocked) = try compile(
      [(identities, .tsv), (blocks, .tsv)], blocking: [blocks], threads: threads, folder: folder)
    #expect(identified == ["74951234567 Аптека"])
    #expect(blocked == [74_951_234_567, 78_001_000_000])
    #expect(report.blockingEntries.values.reduce(0, +) == 2)
    #expect(report.duplicatesDropped == 0)
  }

  @Test func aSpamCategoryRowForALabelledNumberIsBlockedToo() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("mixed.tsv")
    try
      "number\tlabel\tcategory\n+74951234567\tАптека\t\n+74951234567\tЗвонок\tspam\n+78001000000\t\tspam\n"
      .write(toFile: path, atomically: true, encoding: .utf8)
    let (_, identified, blocked) = try compile([(path, .tsv)], threads: 1, folder: folder)
    #expect(identified == ["74951234567 Аптека"])
    #expect(blocked == [74_951_234_567, 78_001_000_000])
  }

  /// The same dump given as both lists: every number is in each, once.
  @Test(arguments: [1, 2])
  func oneDumpGivenAsBothListsFillsBoth(threads: Int) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("spam.tsv")
    let copy = folder.path("spam-as-block.tsv")
    var text = "number\tlabel\n"
    for index in 0..<5_000 { text += "+7495\(String(1_000_000 + index * 7))\tСпам \(index % 13)\n" }
    // Each number twice in the identification list: duplicates are dropped per list.
    for index in 0..<5_000 { text += "+7495\(String(1_000_000 + index * 7))\tдубль\n" }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    try text.write(toFile: copy, atomically: true, encoding: .utf8)
    let (report, identified, blocked) = try compile(
      [(path, .tsv), (copy, .tsv)], blocking: [copy], threads: threads, folder: folder)
    #expect(identified.count == 5_000)
    #expect(!identified.contains { $0.hasSuffix("дубль") })
    #expect(blocked.count == 5_000)
    #expect(Set(blocked).count == 5_000)
    #expect(report.blockingEntries.values.reduce(0, +) == 5_000)
    #expect(report.duplicatesDropped == 10_000)
  }

  /// The dropper alone: a duplicate replacing the earlier of a number's two kept records moves
  /// the other list's record behind it, and nothing else changes.
  @Test(arguments: DuplicatePolicy.allCases)
  func duplicatesAreDroppedWithinAList(policy: DuplicatePolicy) throws {
    // (number, rank, label, category): interleaved lists for one number.
    let records: [(Int64, Int64, String, String)] = [
      (1, 1, "a1", ""), (1, 5, "b1", "spam"), (1, 9, "a2", ""), (1, 2, "b2", "spam"),
      (2, 0, "c", ""), (3, 0, "d", "spam"), (3, 7, "d2", "spam"),
    ]
    var dropper = DuplicateDropper(policy: policy)
    var batch: [UInt8] = []
    for (sequence, record) in records.enumerated() {
      try Array(record.2.utf8).withUnsafeBytes { label in
        try Array(record.3.utf8).withUnsafeBytes { category in
          let view = SortRecordView(
            number: record.0, rank: record.1, sequence: UInt64(sequence), label: label,
            region: UnsafeRawBufferPointer(start: nil, count: 0), category: category)
          try dropper.add(view, to: &batch, threshold: .max) { _ in }
        }
      }
    }
    var kept: Set<String> = []
    try DuplicateDropper.forEachRecord(in: batch) {
      kept.insert(String(decoding: $0.label, as: UTF8.self))
    }
    let expected: Set<String> =
      switch policy {
      case .first: ["a1", "b1", "c", "d"]
      case .last: ["a2", "b2", "c", "d2"]
      case .priority: ["a2", "b1", "c", "d2"]
      }
    #expect(kept == expected)
    #expect(dropper.dropped == 3)
  }
}
