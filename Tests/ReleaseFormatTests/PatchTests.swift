import BaseFormat
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@testable import ReleaseFormat

/// A semantic patch makes, from the base it names, a base byte-identical to the published one,
/// or refuses: a wrong base, a damaged or cut patch, and one whose result is not what it names
/// leave nothing behind (issue 27, item 2).
@Suite("Patches make the published base or nothing")
struct PatchTests {
  /// A compact base of `entries` written as the compiler writes it.
  func base(
    _ entries: [(Int64, String)], at path: String, kind: BaseKind = .identification,
    compact: Bool = true
  ) throws {
    let writer = try BaseWriter(
      path: path, kind: kind, compact: compact, dictionaryChoice: .firstLabels)
    for (number, label) in entries {
      try writer.append(number, label: kind == .blocking ? "" : label)
    }
    try writer.finish()
  }

  /// 20,000 entries over 300 labels, and the same with a week's changes: a few percent
  /// relabelled (to labels the base has, and to new ones), removed and added.
  func week() -> (old: [(Int64, String)], new: [(Int64, String)]) {
    let old = (0..<20_000).map { (Int64(74_950_000_000 + 7 * $0), "Фирма \($0 % 300)") }
    var new: [(Int64, String)] = []
    for (index, entry) in old.enumerated() {
      if index % 80 == 3 { continue }  // removed
      if index % 40 == 5 {
        new.append((entry.0, index % 3 == 0 ? "Новая фирма \(index % 11)" : "Фирма \(index % 17)"))
      } else {
        new.append(entry)
      }
      if index % 80 == 7 { new.append((entry.0 + 1, "Добавлена \(index % 5)")) }  // added
    }
    return (old, new)
  }

  @Test(arguments: [true, false])
  func aPatchMakesTheNewBaseByteForByte(compact: Bool) throws {
    let folder = try TemporaryFolder()
    let (old, new) = week()
    try base(old, at: folder.path("old.cdb"), compact: compact)
    try base(new, at: folder.path("new.cdb"), compact: compact)
    let header = try PatchMaker.make(
      from: folder.path("old.cdb"), to: folder.path("new.cdb"), patch: folder.path("p.cdp"))
    #expect(header.toEntryCount == new.count)
    let oldLabels = Dictionary(uniqueKeysWithValues: old)
    let newNumbers = Set(new.map(\.0))
    let removed = old.filter { !newNumbers.contains($0.0) }.count
    let added = new.filter { oldLabels[$0.0] == nil }.count
    let relabelled = new.filter { entry in
      if let label = oldLabels[entry.0] { return label != entry.1 }
      return false
    }.count
    #expect((removed, added) == (250, 250))
    #expect(relabelled > 450)
    #expect(header.operationCount == removed + added + relabelled, "only what changed")
    try PatchApplier.apply(
      patch: folder.path("p.cdp"), to: folder.path("old.cdb"), output: folder.path("made.cdb"))
    #expect(
      FileManager.default.contents(atPath: folder.path("made.cdb"))
        == FileManager.default.contents(atPath: folder.path("new.cdb")))
    let patchBytes = try #require(FileManager.default.contents(atPath: folder.path("p.cdp"))).count
    let baseBytes = try #require(FileManager.default.contents(atPath: folder.path("new.cdb"))).count
    #expect(patchBytes * 10 < baseBytes, "\(patchBytes) bytes of patch for \(baseBytes) of base")
  }

  @Test func aBlockingBasePatchesToo() throws {
    let folder = try TemporaryFolder()
    let old = (0..<5_000).map { (Int64(74_950_000_000 + 3 * $0), "") }
    let new = old.filter { $0.0 % 7 != 0 } + [(74_960_000_000, "")]
    try base(old, at: folder.path("old.cdb"), kind: .blocking)
    try base(new, at: folder.path("new.cdb"), kind: .blocking)
    try PatchMaker.make(
      from: folder.path("old.cdb"), to: folder.path("new.cdb"), patch: folder.path("p.cdp"))
    try PatchApplier.apply(
      patch: folder.path("p.cdp"), to: folder.path("old.cdb"), output: folder.path("made.cdb"))
    #expect(
      FileManager.default.contents(atPath: folder.path("made.cdb"))
        == FileManager.default.contents(atPath: folder.path("new.cdb")))
  }

  /// Applies `patch` to `old` and expects a refusal whose line contains `message`, with
  /// nothing left at the output.
  func expectRefusal(_ patch: String, to old: String, _ message: String, folder: TemporaryFolder) {
    let output = folder.path("refused.cdb")
    do {
      try PatchApplier.apply(patch: patch, to: old, output: output)
      Issue.record("applied; expected: \(message)")
    } catch {
      #expect(error.description.contains(message), "\(error)")
      #expect(!error.description.contains("\n"))
    }
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func aPatchIsRefusedByAnyOtherBaseAndWhenDamaged() throws {
    let folder = try TemporaryFolder()
    let (old, new) = week()
    try base(old, at: folder.path("old.cdb"))
    try base(new, at: folder.path("new.cdb"))
    let patch = folder.path("p.cdp")
    try PatchMaker.make(from: folder.path("old.cdb"), to: folder.path("new.cdb"), patch: patch)
    // Another base, even the one it makes.
    expectRefusal(patch, to: folder.path("new.cdb"), "applies to the base", folder: folder)
    let bytes = try #require(FileManager.default.contents(atPath: patch))
    func variant(_ name: String, _ change: (inout Data) -> Void) -> String {
      var copy = bytes
      change(&copy)
      let path = folder.path(name)
      FileManager.default.createFile(atPath: path, contents: copy)
      return path
    }
    // Cut short, a byte flipped in the operations, bytes after the end, not a patch at all.
    expectRefusal(
      variant("cut.cdp") { $0 = $0.prefix($0.count - 40) }, to: folder.path("old.cdb"), "cut short",
      folder: folder)
    expectRefusal(
      variant("flipped.cdp") { $0[$0.count / 2] ^= 0x5a }, to: folder.path("old.cdb"), "damaged",
      folder: folder)
    expectRefusal(
      variant("longer.cdp") { $0.append(contentsOf: [1, 2, 3]) }, to: folder.path("old.cdb"),
      "after the patch's end", folder: folder)
    expectRefusal(
      variant("foreign.cdp") { $0.replaceSubrange(0..<8, with: Array("NOTPATCH".utf8)) },
      to: folder.path("old.cdb"), "not a calldir patch", folder: folder)
    // A byte flipped in each of the three streams; stream lengths that do not divide the bytes
    // as they were written (the same total).
    let header = try PatchApplier.header(ofPatch: patch)
    var start = PatchHeader.byteCount
    for (index, count) in header.streamByteCounts.enumerated() {
      #expect(count > 0, "stream \(index) is empty")
      let middle = start + count / 2
      let refused = variant("stream-\(index).cdp") { $0[middle] ^= 0x21 }
      #expect(throws: ReleaseError.self) {
        try PatchApplier.apply(patch: refused, to: folder.path("old.cdb"), output: folder.path("o"))
      }
      start += count
    }
    expectRefusal(
      variant("shifted.cdp") { data in
        let lengths = PatchHeader.byteCount - 24
        var first = Array(data[lengths..<(lengths + 8)])
        var second = Array(data[(lengths + 8)..<(lengths + 16)])
        first[0] &+= 1
        second[0] &-= 1
        data.replaceSubrange(lengths..<(lengths + 16), with: first + second)
      }, to: folder.path("old.cdb"), "(operations): bytes after the stream's end", folder: folder)
    // A header that names another result: the made base's hash gives it away.
    expectRefusal(
      variant("named.cdp") { data in
        let offset = 8 + 2 + 1 + 2 + 64
        data[offset] = data[offset] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
      }, to: folder.path("old.cdb"), "did not make the base it names", folder: folder)
  }
}
