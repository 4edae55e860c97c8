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

  /// Apple's Live Caller ID Lookup server example, as the article cites it (issue 69, item 1):
  /// each fact with the commit of `apple/pir-service-example` that states it, in one place.
  static let pirExampleCitations: [(commit: String, fact: String)] = [
    ("4ff41ab", "the repository's rename from live-caller-id-lookup-example"),
    ("441bb43", "TestingInstructions.md became TestingInstructionsLiveCallerIdLookup.md"),
    ("3cb73c0", "registration on the CloudKit Console's Identity & Trust page"),
    ("52d08a8", "no custom paths for the service and issuer URLs from iOS 26.4"),
    ("5523147", "no trailing '/'"),
  ]

  @Test func theLiveLookupArticleCitesApplesExampleAsItIsToday() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../..").standardized
    let article = try String(
      contentsOf: root.appendingPathComponent("Sources/calldir/calldir.docc/LiveCallerIDLookup.md"),
      encoding: .utf8)
    for citation in Self.pirExampleCitations {
      #expect(article.contains("commit \(citation.commit)"), "\(citation.fact)")
    }
    #expect(article.contains("apple/pir-service-example"))
    for stale in [
      "PIRService.docc/TestingInstructions.md", "Fill in Apple's onboarding form",
      "live-caller-id-lookup-example`:",
    ] {
      #expect(!article.contains(stale), "the article still says \(stale)")
    }
  }
}
