import BaseFormat
import Foundation
import TestSupport
import Testing

@Suite("The compact version: deltas and a mapped label dictionary, read by both readers")
struct CompactFormatTests {
  /// Entries whose labels repeat (a few hundred companies) with some unique ones.
  func repetitiveEntries(count: Int) -> [BaseEntry] {
    var entries = sampleEntries(count: count, seed: 11)
    for index in entries.indices where index % 5 != 0 {
      entries[index].label = "Компания \(index % 300)"
    }
    return entries
  }

  func writeCompact(_ entries: [BaseEntry], kind: BaseKind = .identification, to path: String)
    throws
  {
    let candidates = Set(entries.map(\.label))
    let writer = try BaseWriter(
      path: path, kind: kind, compact: true, dictionaryCandidates: candidates)
    for entry in entries { try writer.append(entry.number, label: entry.label) }
    try writer.finish()
  }

  @Test(arguments: [0, 1, 3_000, 200_000])
  func compactBasesRoundTrip(count: Int) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("compact.cdb")
    let entries = repetitiveEntries(count: count)
    try writeCompact(entries, to: path)
    for reader in ReaderKind.allCases {
      let opened = try reader.open(path)
      #expect(opened.header.version == BaseHeader.compactVersion)
      #expect(try opened.readAll() == entries, "\(reader)")
    }
    if count <= 3_000 {
      #expect(try BufferedBaseReader(path: path, validatesLabels: true).readAll() == entries)
    }
  }

  @Test func compactIsSmallerAndNumbersOnlyReadsSkipLabels() throws {
    let folder = try TemporaryFolder()
    let entries = repetitiveEntries(count: 50_000)
    try writeCompact(entries, to: folder.path("compact.cdb"))
    try writeBase(entries, to: folder.path("fixed.cdb"))
    let compact = try fileSize(folder.path("compact.cdb"))
    let fixed = try fileSize(folder.path("fixed.cdb"))
    #expect(compact * 2 < fixed, "compact \(compact) vs fixed \(fixed)")
    let reader = try MappedBaseReader(path: folder.path("compact.cdb"))
    reader.skipsLabels = true
    #expect(try reader.readAll().map(\.number) == entries.map(\.number))
  }

  func fileSize(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
  }

  @Test func frequentLabelsAreStoredOnceInTheDictionaryAfterTheBlocks() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("compact.cdb")
    let label = String(repeating: "Аптека ", count: 20)
    let entries = (1...2_000).map { BaseEntry(number: 74_950_000_000 + Int64($0), label: label) }
    try writeCompact(entries, to: path)
    let reader = try MappedBaseReader(path: path)
    let section = try fileSize(path) - reader.header.payloadEndOffset
    #expect(section == LabelDictionary.sectionHeaderByteCount + 4 + label.utf8.count)
    // One byte of delta (the first: up to ten) and one of reference per entry, plus the blocks'
    // headers.
    #expect(reader.header.payloadByteCount <= 2 * 2_000 + 9 + 16 * reader.header.blockCount)
    #expect(try reader.readAll() == entries)
  }

  @Test(arguments: ReaderKind.allCases)
  func aDictionaryFromAnotherBaseIsRefusedAtOpen(reader: ReaderKind) throws {
    let folder = try TemporaryFolder()
    let entries = (1...3_000).map {
      BaseEntry(number: 74_950_000_000 + 3 * Int64($0), label: "Компания \($0 % 300)")
    }
    // Other numbers (so another header) and other labels, in the same dictionary layout.
    let relabelled = entries.map { BaseEntry(number: $0.number + 1, label: "Другая " + $0.label) }
    try writeCompact(entries, to: folder.path("a.cdb"))
    try writeCompact(relabelled, to: folder.path("b.cdb"))
    // a's blocks with b's dictionary: same structure, other labels.
    let a = try Data(contentsOf: URL(fileURLWithPath: folder.path("a.cdb")))
    let b = try Data(contentsOf: URL(fileURLWithPath: folder.path("b.cdb")))
    let aEnd = try MappedBaseReader(path: folder.path("a.cdb")).header.payloadEndOffset
    let bEnd = try MappedBaseReader(path: folder.path("b.cdb")).header.payloadEndOffset
    let mixed = folder.path("mixed.cdb")
    try (a.prefix(aEnd) + b.suffix(from: bEnd)).write(to: URL(fileURLWithPath: mixed))
    #expect {
      _ = try reader.open(mixed)
    } throws: { error in
      (error as? BaseFormatError)?.description.contains("does not belong to this base") == true
    }
  }

  @Test(arguments: ReaderKind.allCases)
  func aTruncatedDictionaryIsATruncatedFile(reader: ReaderKind) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("compact.cdb")
    try writeCompact(repetitiveEntries(count: 3_000), to: path)
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    for cut in [1, 40, LabelDictionary.sectionHeaderByteCount + 1] {
      try data.dropLast(cut).write(to: URL(fileURLWithPath: path))
      #expect {
        _ = try reader.open(path)
      } throws: { error in
        (error as? BaseFormatError)?.description.contains("truncated") == true
      }
    }
  }

  @Test func theRetiredVersion2IsRefusedWithAWayOut() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("old.cdb")
    try writeCompact(repetitiveEntries(count: 100), to: path)
    var header = try MappedBaseReader(path: path).header
    header.version = BaseHeader.retiredCompactVersion
    var data = try Data(contentsOf: URL(fileURLWithPath: path))
    data.replaceSubrange(0..<BaseHeader.byteCount, with: header.encoded())
    try data.write(to: URL(fileURLWithPath: path))
    #expect {
      _ = try MappedBaseReader(path: path)
    } throws: { error in
      (error as? BaseFormatError)?.description.contains("version 2 is retired") == true
        && (error as? BaseFormatError)?.description.contains("recompile") == true
    }
  }

  @Test func compactBlockingBasesRoundTrip() throws {
    let folder = try TemporaryFolder()
    let numbers: [Int64] = (1...30_000).map { 8_613_000_000_000 + Int64($0) * 7 }
    try writeCompact(
      numbers.map { BaseEntry(number: $0) }, kind: .blocking, to: folder.path("b.cdb"))
    for reader in ReaderKind.allCases {
      #expect(try reader.open(folder.path("b.cdb")).readAll().map(\.number) == numbers)
    }
  }

  @Test(arguments: ReaderKind.allCases)
  func compactBitFlipsNeverHandOnAWrongEntry(reader: ReaderKind) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("compact.cdb")
    let entries = repetitiveEntries(count: 5_000)
    try writeCompact(entries, to: path)
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    var state: UInt64 = 99
    for trial in 0..<60 {
      state = state &* 6_364_136_223_846_793_005 &+ 1
      let offset = BaseHeader.byteCount + Int(state >> 33) % (data.count - BaseHeader.byteCount)
      var corrupted = data
      corrupted[offset] ^= UInt8(1) << UInt8((state >> 8) % 8)
      try corrupted.write(to: URL(fileURLWithPath: path))
      let (handed, error) = readUntilError(reader, path)
      let end = (try? MappedBaseReader(path: path).header.payloadEndOffset) ?? -1
      #expect(
        error != nil,
        "trial \(trial): flip at \(offset) of \(data.count) went unnoticed (payload ends at \(end))"
      )
      #expect(handed == Array(entries.prefix(handed.count)), "trial \(trial)")
    }
  }
}

/// `strace`, when installed (CI installs it): the tests that watch system calls need it.
let straceAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")

@Suite("A rejected dictionary is unmapped once")
struct DictionaryUnmapTests {
  /// A dictionary that fails its checks after it was mapped used to be unmapped twice: once on
  /// the way out of the initializer and again by deinit, which Swift runs once every property
  /// is set. Between the two, another thread could map that range, and lose it. Watched here
  /// through the real system calls of a process opening such a base.
  @Test(.enabled(if: straceAvailable, "needs /usr/bin/strace"))
  func aCorruptDictionaryIsUnmappedExactlyOnce() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("corrupt.cdb")
    let labels = ["Аптека", "Кафе", "Такси", "Клиника"]
    let entries = (0..<2_000).map {
      BaseEntry(number: 74_950_000_000 + Int64($0) * 3, label: labels[$0 % 4])
    }
    let writer = try BaseWriter(
      path: path, kind: .identification, compact: true, dictionaryCandidates: Set(labels))
    for entry in entries { try writer.append(entry.number, label: entry.label) }
    try writer.finish()
    // The last byte is a label byte: the dictionary's checksum fails after it is mapped.
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    bytes[bytes.count - 1] ^= 0x01
    try bytes.write(to: URL(fileURLWithPath: path))
    let trace = folder.path("trace")
    let run = try runProcess(
      "/usr/bin/strace",
      [
        "-f", "-e", "trace=mmap,munmap", "-o", trace, builtExecutablePath("calldir-extension"),
        "--base", path,
      ])
    #expect(run.status != 0, "the corrupt base must be refused")
    // No address may be unmapped again before a mmap has returned it anew.
    var unmapped = Set<String>()
    var unmappedTwice: [String] = []
    for line in try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n") {
      if let open = line.range(of: "munmap(") {
        let address = String(line[open.upperBound...].prefix { $0 != "," })
        if !unmapped.insert(address).inserted { unmappedTwice.append(String(line)) }
      } else if line.contains("mmap("), let result = line.split(separator: "=").last {
        unmapped.remove(result.trimmingCharacters(in: .whitespaces))
      }
    }
    #expect(!unmapped.isEmpty, "the trace must show the dictionary's munmap")
    #expect(unmappedTwice.isEmpty, "\(unmappedTwice)")
  }
}
