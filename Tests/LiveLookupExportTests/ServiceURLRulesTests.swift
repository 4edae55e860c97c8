import Foundation
import LiveLookupExport
import Testing

/// iOS and macOS 26.4's rules for a Live Caller ID Lookup service's URLs (Apple's
/// pir-service-example, Onboarding.md, commits 52d08a8 and 5523147): the closing note's table.
@Suite("Service and issuer URLs against iOS 26.4's rules")
struct ServiceURLRulesTests {
  static let table: [(String, [ServiceURLRules.Violation])] = [
    // Apple's good examples.
    ("https://service.example.net", []),
    ("https://issuer.example.net", []),
    ("https://gateway.example.net", []),
    ("https://service.example.net:443", []),
    // Apple's bad examples: three rules broken at once, and a trailing '/'.
    ("http://example.net:8080/lookup", [.notHTTPS, .nonStandardPort, .path]),
    ("http://example.net/", [.notHTTPS, .trailingSlash]),
    ("https://example.net/", [.trailingSlash]),
    ("https://example.net/pir", [.path]),
    ("https://lookup.example.net/v1/issuer/", [.path]),
    ("https://service.example.net:8443", [.nonStandardPort]),
    ("https://service.example.net?user=1", [.queryOrFragment]),
    ("https://token:secret@service.example.net", [.credentials]),
    ("https://192.0.2.10", [.noDomainName]),
    ("https://localhost", [.noDomainName]),
    ("service.example.net", [.notAURL]),
    ("", [.notAURL]),
  ]

  @Test(arguments: table.indices)
  func eachURLBreaksExactlyTheRulesItShould(index: Int) {
    let (url, expected) = Self.table[index]
    #expect(ServiceURLRules.violations(of: url) == expected, "\(url)")
    #expect((ServiceURLRules.verdict(url) == "ok") == expected.isEmpty)
  }

  /// The article's table says what the rules say, row by row.
  @Test func theArticlesTableIsWhatTheRulesSay() throws {
    let article = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/calldir/calldir.docc/LiveCallerIDLookup.md"),
      encoding: .utf8)
    var rows = 0
    for line in article.split(separator: "\n") where line.hasPrefix("| `http") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      let url = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
      let verdict = ServiceURLRules.verdict(url)
      // The article may shorten a rule's words after its first mention, never change the rules.
      let said = cells[1].split(separator: ";").map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      let rules = verdict.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      #expect(
        said.count == rules.count, "\(url): the article says \(cells[1]), the rules \(verdict)")
      for (words, rule) in zip(said, rules) {
        #expect(
          rule.hasPrefix(words.split(separator: " (").first.map(String.init) ?? words),
          "\(url): \(words) against \(rule)")
      }
      rows += 1
    }
    #expect(rows >= 10, "the article's URL table has \(rows) rows")
  }
}
