import Foundation
import Testing

@testable import BenchMeasuring
@testable import BenchReporting

/// The harness catalog's CSV table (`CSVColumns.md`) names every column the bench writes, so
/// the two cannot drift (issue 41: the table omitted `startup_s` and eight others).
@Suite("The documentation names every CSV column")
struct CSVColumnsDocTests {
  @Test func everyColumnHasARowInTheTable() throws {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Sources/BenchReporting/BenchReporting.docc/CSVColumns.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    let start = try #require(text.range(of: "# The CSV columns\n"), "the article's title")
    let section = text[start.upperBound...]
    let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
    // The table's rows: the first cell of each line that starts with "| `".
    let documented = Set(
      section[..<end].split(separator: "\n").filter { $0.hasPrefix("| `") }.flatMap { row in
        row.split(separator: "|").first.map { cell in
          cell.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map {
            String($0.element)
          }
        } ?? []
      })
    let missing = RunRecord.columns.filter { !documented.contains($0) }
    #expect(missing.isEmpty, "columns without a row in CSVColumns.md's table: \(missing)")
    let unknown = documented.subtracting(RunRecord.columns)
    #expect(unknown.isEmpty, "rows for columns the bench does not write: \(unknown.sorted())")
  }
}
