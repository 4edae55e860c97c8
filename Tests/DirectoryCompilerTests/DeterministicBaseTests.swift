import BaseFormat
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@testable import DirectoryCompiler

/// A region's base depends only on its own entries (issue 27, item 3): relabelling part of one
/// region rewrites that region's base and no other, so a release's other bases keep their
/// bytes, hashes and names, and nothing is downloaded or reloaded for them. Before, the
/// dictionary's labels were the dump's most frequent ones, so one region's change moved labels
/// in and out of every other region's dictionary.
@Suite("A change in one region rewrites exactly one base")
struct DeterministicBaseTests {
  /// A ranked dump over six regions whose 5,000 labels (more than a dictionary holds) repeat
  /// across regions, with the rows of `relabelled` given other labels (new ones, and one other
  /// regions use).
  func dump(relabelled: Set<Int> = []) -> String {
    var rows = ["number\tlabel\tregion\trank"]
    for index in 0..<12_000 {
      let region = "R\(index % 6)"
      var label = "Фирма \(index % 5_000)"
      if relabelled.contains(index) { label = index % 2 == 0 ? "Новая \(index % 7)" : "Фирма 3" }
      rows.append("+7495\(1_000_000 + index)\t\(label)\t\(region)\t\(index)")
    }
    return rows.joined(separator: "\n") + "\n"
  }

  func compile(_ text: String, folder: TemporaryFolder, name: String) throws -> [String: String] {
    let path = folder.path(name + ".tsv")
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    var options = CompileOptions(inputs: [(path, .tsv)], output: folder.path(name))
    options.seedSize = 100  // the 100 highest ranks: rows 11,900 and up
    _ = try Compiler(options: options).run()
    let manifest = try Manifest.read(container: folder.path(name))
    return Dictionary(uniqueKeysWithValues: manifest.bases.map { ($0.name, $0.sha256) })
  }

  @Test func relabellingOneRegionChangesOnlyItsBase() throws {
    let folder = try TemporaryFolder()
    let before = try compile(dump(), folder: folder, name: "before")
    // Rows of region R2 only (index % 6 == 2), outside the seed set's ranks.
    let relabelled = Set(stride(from: 2, to: 6_000, by: 6).prefix(150))
    let after = try compile(dump(relabelled: relabelled), folder: folder, name: "after")
    #expect(Set(before.keys) == Set(after.keys))
    #expect(before.count >= 7, "six regions and the seed set: \(before.keys.sorted())")
    let changed = before.keys.filter { before[$0] != after[$0] }.sorted()
    #expect(changed.count == 1 && changed.first?.hasSuffix("R2") == true, "\(changed)")
  }

  @Test func theSameEntriesInAnotherOrderMakeTheSameBases() throws {
    let folder = try TemporaryFolder()
    let text = dump()
    var lines = text.split(separator: "\n").map(String.init)
    let header = lines.removeFirst()
    let shuffled = ([header] + lines.reversed()).joined(separator: "\n") + "\n"
    #expect(
      try compile(text, folder: folder, name: "a") == compile(shuffled, folder: folder, name: "b"))
  }
}
