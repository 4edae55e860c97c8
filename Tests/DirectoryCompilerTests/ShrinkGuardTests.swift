import DirectoryContainer
import Foundation
import TestSupport
import Testing

@testable import DirectoryCompiler

/// An empty or all-rejected dump must not wipe a live container, and no compile clears the
/// user's choice of regions.
@Suite("A compile that would empty a container is refused; the choice of regions survives")
struct ShrinkGuardTests {
  func compile(_ rows: [String], into out: String, allowShrink: Bool = false) throws {
    let dump = out + ".tsv"
    try Data((["number\tlabel\tregion"] + rows).joined(separator: "\n").utf8).write(
      to: URL(fileURLWithPath: dump))
    var options = CompileOptions(inputs: [(dump, .tsv)], output: out)
    options.seedSize = 0
    options.allowShrink = allowShrink
    _ = try Compiler(options: options).run()
  }

  static let rows =
    (0..<40).map { "+7495\(1_000_000 + $0)\tMoscow \($0)\tMOW" }
    + (0..<40).map { "+7812\(1_000_000 + $0)\tPiter \($0)\tSPE" }

  @Test(arguments: [
    [String](),  // a header without rows
    ["not a number\tx\tMOW", "+7 495\tshort\tMOW"],  // every row rejected
    Array(rows.prefix(30)),  // 30 of 80 entries: under half
  ])
  func aCompileThatWouldEmptyOrHalveALiveContainerIsRefused(rows: [String]) throws {
    let folder = try TemporaryFolder()
    let out = folder.path("box")
    try compile(Self.rows, into: out)
    let before = try folderSnapshot(out)
    #expect {
      try compile(rows, into: out)
    } throws: { error in
      guard case CompileError.shrink(let message) = error else { return false }
      return message.contains("--allow-shrink")
    }
    #expect(try folderSnapshot(out) == before, "byte for byte as it was")
    // On purpose, it is published.
    try compile(rows, into: out, allowShrink: true)
    let entries = try Manifest.read(container: out).bases.filter { $0.state != .retired }
      .reduce(0) { $0 + $1.entries }
    #expect(entries == rows.filter { $0.hasPrefix("+7") && $0.count > 20 }.count)
  }

  @Test func aCompileThatKeepsHalfOrGrowsIsPublished() throws {
    let folder = try TemporaryFolder()
    let out = folder.path("box")
    try compile(Self.rows, into: out)
    try compile(Array(Self.rows.prefix(40)), into: out)
    try compile(Self.rows, into: out)
    #expect(try Manifest.read(container: out).bases.filter { $0.state != .retired }.count == 2)
  }

  @Test func theChoiceOfRegionsSurvivesAnEmptyCompile() throws {
    let folder = try TemporaryFolder()
    let out = folder.path("box")
    try compile(Self.rows, into: out)
    do {
      let transaction = try ContainerTransaction(container: out)
      var manifest = try #require(transaction.current)
      manifest.chosenRegions = ["SPE"]
      try transaction.commit(manifest)
    }
    try compile([], into: out, allowShrink: true)
    #expect(try Manifest.read(container: out).chosenRegions == ["SPE"])
    try compile(Self.rows, into: out)
    #expect(try Manifest.read(container: out).chosenRegions == ["SPE"], "not all, not none")
  }
}
