import Foundation
import Testing

/// What ships states each fact with its public source (Apple's documentation, a repository or
/// an article's address), never a note kept outside the repository: `bench checks`, the gate's
/// settings and several articles cited "BRIEF §1/§3/§8", which no user can open (issue 65,
/// item 5).
@Suite("Shipped text cites public sources only")
struct ShippedCitationTests {
  @Test func noShippedFileCitesTheProjectsPrivateBrief() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../..").standardized
    var citing: [String] = []
    for folder in ["Sources", "Examples", "Scripts", ".ci"] {
      let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
      while let name = walker?.nextObject() as? String {
        guard
          [".swift", ".md", ".py", ".sh", ".yml", ".json"].contains(where: name.hasSuffix)
            || folder == ".ci"
        else { continue }
        let path = root.appendingPathComponent(folder + "/" + name).path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
        if text.contains("BRIEF") || text.contains("../shared") {
          citing.append(folder + "/" + name)
        }
      }
    }
    for file in ["README.md", "action.yml", "CONTRIBUTING.md"] {
      let text = try String(
        contentsOf: root.appendingPathComponent(file), encoding: .utf8)
      if text.contains("BRIEF") || text.contains("../shared") { citing.append(file) }
    }
    #expect(citing.isEmpty, "\(citing)")
  }
}
