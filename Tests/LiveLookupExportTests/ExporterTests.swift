import BaseFormat
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@testable import LiveLookupExport

/// The exporter on containers made here: what each number becomes, what is refused and
/// counted, and that a failed export leaves the folder as it was.
@Suite("Exporting a container for Live Caller ID Lookup")
struct ExporterTests {
  /// A container of `identification` and `blocking` bases, each (name, priority, entries).
  func container(
    _ folder: TemporaryFolder, identification: [(String, Int, [(Int64, String)])],
    blocking: [(String, Int, [Int64])] = []
  ) throws -> String {
    let box = folder.path("box")
    try FileManager.default.createDirectory(
      atPath: box + "/bases", withIntermediateDirectories: true)
    var manifest = Manifest(fullSetRequested: true)
    func add(_ name: String, _ kind: BaseKind, _ priority: Int, write: (BaseWriter) throws -> Void)
      throws
    {
      let file = "bases/\(name).cdb"
      let writer = try BaseWriter(path: box + "/" + file, kind: kind)
      try write(writer)
      let header = try writer.finish()
      let role: Manifest.Role = kind == .blocking ? .blocking : .region
      manifest.bases.append(
        Manifest.Base(
          name: name, role: role, kind: kind, region: kind == .blocking ? nil : name,
          priority: priority, version: 1, entries: header.entryCount,
          sha256: SHA256.hexDigest(ofFile: box + "/" + file) ?? "", state: .ready, file: file))
      if kind == .identification { manifest.chosenRegions.append(name) }
    }
    for (name, priority, entries) in identification {
      try add(name, .identification, priority) { writer in
        for (number, label) in entries { try writer.append(number, label: label) }
      }
    }
    for (name, priority, numbers) in blocking {
      try add(name, .blocking, priority) { writer in
        for number in numbers { try writer.append(number) }
      }
    }
    try manifest.write(container: box)
    return box
  }

  func options() -> LiveLookupExporter.Options {
    var options = LiveLookupExporter.Options(bundleID: "net.example.lookup")
    options.includesTestIdentity = false
    return options
  }

  @Test func eachNumberOnceWithTheHighestPriorityLabelAndItsBlockByte() throws {
    let folder = try TemporaryFolder()
    let box = try container(
      folder,
      identification: [
        ("low", 10, [(74_951_000_001, "Low"), (74_951_000_002, "Only low")]),
        ("high", 50, [(74_951_000_001, "High")]),
      ],
      blocking: [("spam", 0, [74_951_000_001, 78_001_000_000])])
    let report = try LiveLookupExporter(container: box, options: options())
      .export(to: folder.path("out"))
    #expect(report.blockRows == 3 && report.blocked == 2 && report.identityRows == 2)
    let block = try KeywordDatabaseReader.rows(of: folder.path("out/block.binpb"))
    #expect(block.map(\.keyword) == ["+74951000001", "+74951000002", "+78001000000"])
    #expect(block.map(\.value) == [[1], [0], [1]])
    let identities = try KeywordDatabaseReader.rows(of: folder.path("out/identity.binpb"))
    #expect(identities.map(\.keyword) == ["+74951000001", "+74951000002"])
    #expect(
      try identities.map { try KeywordDatabaseReader.name(in: $0.value) } == ["High", "Only low"])
  }

  @Test func theTestIdentityFillsItsPlaceUnlessTheDataHasIt() throws {
    let folder = try TemporaryFolder()
    let box = try container(folder, identification: [("r", 1, [(74_951_000_001, "A")])])
    var withTest = options()
    withTest.includesTestIdentity = true
    _ = try LiveLookupExporter(container: box, options: withTest).export(to: folder.path("out"))
    let rows = try KeywordDatabaseReader.rows(of: folder.path("out/identity.binpb"))
    #expect(rows.map(\.keyword) == ["+14085551212", "+74951000001"])
    #expect(try KeywordDatabaseReader.name(in: rows[0].value) == "Johnny Appleseed")
    let other = try TemporaryFolder()
    let taken = try container(other, identification: [("r", 1, [(14_085_551_212, "Ours")])])
    _ = try LiveLookupExporter(container: taken, options: withTest).export(to: other.path("out"))
    let kept = try KeywordDatabaseReader.rows(of: other.path("out/identity.binpb"))
    #expect(kept.count == 1)
    #expect(try KeywordDatabaseReader.name(in: kept[0].value) == "Ours")
  }

  @Test func badIconsAndNumbersWithoutE164AreRefusedAndCounted() throws {
    let folder = try TemporaryFolder()
    let long: Int64 = 1_234_567_890_123_456  // 16 digits
    let box = try container(
      folder,
      identification: [
        (
          "r", 1,
          [
            (74_951_000_001, "Fine"), (74_951_000_002, "Big"), (74_951_000_003, "PNG"),
            (long, "Long"),
          ]
        )
      ])
    let icons = folder.path("icons")
    try FileManager.default.createDirectory(atPath: icons, withIntermediateDirectories: true)
    let heic: [UInt8] = [0, 0, 0, 16] + Array("ftypheic".utf8) + [0, 0, 0, 0]
    try Data(heic).write(to: URL(fileURLWithPath: icons + "/+74951000001.heic"))
    try Data(heic + [UInt8](repeating: 7, count: IconFolder.maximumIconByteCount))
      .write(to: URL(fileURLWithPath: icons + "/+74951000002.heic"))
    try Data("\u{89}PNG not heic".utf8).write(
      to: URL(fileURLWithPath: icons + "/+74951000003.heic"))
    // Without --skip-bad-icons a refused icon fails the export, naming each, and the folder
    // keeps what an earlier export wrote (issue 69, item 5).
    let out = folder.path("out")
    _ = try LiveLookupExporter(container: box, options: options()).export(to: out)
    let before = try FileManager.default.contentsOfDirectory(atPath: out).sorted().map {
      try Data(contentsOf: URL(fileURLWithPath: out + "/" + $0))
    }
    var withIcons = options()
    withIcons.iconsFolder = icons
    let failure = #expect(throws: ExportError.self) {
      _ = try LiveLookupExporter(container: box, options: withIcons).export(to: out)
    }
    #expect(failure?.description.hasPrefix("refused icons +74951000002.heic: ") == true)
    #expect(failure?.description.contains("; +74951000003.heic: not a HEIC image") == true)
    #expect(
      failure?.description.hasSuffix(
        "; nothing was exported (--skip-bad-icons exports those identities without an icon)")
        == true)
    let after = try FileManager.default.contentsOfDirectory(atPath: out).sorted().map {
      try Data(contentsOf: URL(fileURLWithPath: out + "/" + $0))
    }
    #expect(after == before)
    withIcons.skipsBadIcons = true
    let report = try LiveLookupExporter(container: box, options: withIcons).export(to: out)
    #expect(report.numbersWithoutE164 == 1)
    #expect(report.icons == 1)
    #expect(report.refusedIcons.count == 2)
    // The one limit: an icon one byte over it is refused, in the words the help uses.
    #expect(IconFolder.maximumIconByteCount == CallIdentity.maximumIconByteCount)
    #expect(
      report.refusedIcons.contains {
        $0.hasPrefix(
          "+74951000002.heic: \(heic.count + CallIdentity.maximumIconByteCount) bytes, over the \(CallIdentity.maximumIconByteCount)"
        )
      })
    #expect(report.refusedIcons.contains { $0.hasPrefix("+74951000003.heic: not a HEIC image") })
    // The refused icons' numbers keep their names; the long number is in neither database.
    let rows = try KeywordDatabaseReader.rows(of: folder.path("out/identity.binpb"))
    #expect(rows.map(\.keyword) == ["+74951000001", "+74951000002", "+74951000003"])
    #expect(try KeywordDatabaseReader.rows(of: folder.path("out/block.binpb")).count == 3)
  }

  /// A label the compiler would refuse today, in a base written before the rule (a zero
  /// width space, a soft hyphen): the number is exported as listed, without a name, and the
  /// identity is counted as refused (issue 69, item 6).
  @Test func labelsWithInvisibleCharactersAreLeftOutOfTheIdentities() throws {
    let folder = try TemporaryFolder()
    let box = try container(
      folder,
      identification: [
        (
          "r", 1,
          [
            (74_951_000_001, "Bank"), (74_951_000_002, "Ba\u{200B}nk"),
            (74_951_000_003, "Soft\u{00AD}hyphen"),
          ]
        )
      ], blocking: [("spam", 0, [74_951_000_002])])
    let report = try LiveLookupExporter(container: box, options: options())
      .export(to: folder.path("out"))
    let identities = try KeywordDatabaseReader.rows(of: folder.path("out/identity.binpb"))
    #expect(identities.map(\.keyword) == ["+74951000001"])
    #expect(
      report.refusedIdentities == [
        "+74951000002: its label has a bidirectional control or an invisible character at byte 3 (left without a name; its block row is kept)",
        "+74951000003: its label has a bidirectional control or an invisible character at byte 5 (left without a name; its block row is kept)",
      ])
    let block = try KeywordDatabaseReader.rows(of: folder.path("out/block.binpb"))
    #expect(block.map(\.value) == [[0], [1], [0]])
  }

  /// An icons folder that is not one (missing, a file, `/dev/zero`) is refused before anything
  /// is written, where it read as "no icons"; names that are not `+E164.heic` (`++7…`, `+07…`)
  /// and icons of numbers without an identity are named as ignored (issue 65, item 15).
  @Test func iconsThatCannotBeUsedAreRefusedOrNamed() throws {
    let folder = try TemporaryFolder()
    let box = try container(
      folder, identification: [("r", 1, [(74_951_000_001, "Fine"), (74_951_000_002, "Other")])])
    let file = folder.path("a-file")
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    for (path, reason) in [
      (folder.path("missing"), "no such folder"), (file, "not a folder"),
      ("/dev/zero", "not a folder"),
    ] {
      var withIcons = options()
      withIcons.iconsFolder = path
      #expect {
        try LiveLookupExporter(container: box, options: withIcons).export(to: folder.path("out"))
      } throws: {
        ($0 as? ExportError)?.description == "--icons \(path): \(reason); nothing was exported"
      }
      #expect(!FileManager.default.fileExists(atPath: folder.path("out/block.binpb")))
    }
    let icons = folder.path("icons")
    try FileManager.default.createDirectory(atPath: icons, withIntermediateDirectories: true)
    let heic: [UInt8] = [0, 0, 0, 16] + Array("ftypheic".utf8) + [0, 0, 0, 0]
    for name in [
      "+74951000001.heic", "++74951000002.heic", "+074951000002.heic", "+7495100000x.heic",
      "+74951000009.heic", "photo.jpg", ".DS_Store", "+1234567890123456.heic",
    ] {
      try Data(heic).write(to: URL(fileURLWithPath: icons + "/" + name))
    }
    var withIcons = options()
    withIcons.iconsFolder = icons
    let report = try LiveLookupExporter(container: box, options: withIcons)
      .export(to: folder.path("out"))
    #expect(report.icons == 1)
    #expect(
      report.ignoredIcons == [
        "++74951000002.heic: not named +E164.heic (a + then 1 to 15 digits)",
        "+074951000002.heic: not named +E164.heic (a + then 1 to 15 digits)",
        "+1234567890123456.heic: not named +E164.heic (a + then 1 to 15 digits)",
        "+7495100000x.heic: not named +E164.heic (a + then 1 to 15 digits)",
        "photo.jpg: not named +E164.heic (a + then 1 to 15 digits)",
        "+74951000009.heic: no identity in the directory has this number",
      ])
    #expect(IconFolder.number(named: "+74951000001.heic") == 74_951_000_001)
    #expect(IconFolder.number(named: "+.heic") == nil)
  }

  /// A failed export changes nothing that was there: a base that turns out corrupt half-way,
  /// and a folder where a database must go (refused before anything is written).
  @Test func aFailedExportLeavesTheFolderAsItWas() throws {
    let folder = try TemporaryFolder()
    let box = try container(folder, identification: [("r", 1, [(74_951_000_001, "A")])])
    let out = folder.path("out")
    _ = try LiveLookupExporter(container: box, options: options()).export(to: out)
    func snapshot() throws -> [String: Data] {
      var files: [String: Data] = [:]
      for name in try FileManager.default.contentsOfDirectory(atPath: out) {
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: out + "/" + name, isDirectory: &isFolder)
        files[name] =
          isFolder.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
      }
      return files
    }
    let before = try snapshot()
    // A second container whose base is damaged past its first block: the export fails late.
    let second = try TemporaryFolder()
    let entries = (1...3_000).map { (Int64(74_951_000_000 + $0), "Label \($0)") }
    let damaged = try container(second, identification: [("r", 1, entries)])
    let base = damaged + "/bases/r.cdb"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: base))
    bytes[bytes.count - 100] ^= 0xFF
    try bytes.write(to: URL(fileURLWithPath: base))
    #expect(throws: ExportError.self) {
      _ = try LiveLookupExporter(container: damaged, options: options()).export(to: out)
    }
    #expect(try snapshot() == before)
    // A folder in a database's place: refused, with the path, before anything is written.
    try FileManager.default.removeItem(atPath: out + "/identity.binpb")
    try FileManager.default.createDirectory(
      atPath: out + "/identity.binpb", withIntermediateDirectories: true)
    let occupied = try snapshot()
    let error = #expect(throws: ExportError.self) {
      _ = try LiveLookupExporter(container: box, options: options()).export(to: out)
    }
    #expect(error?.description.contains("identity.binpb: not a regular file") == true)
    #expect(try snapshot() == occupied)
  }
}
