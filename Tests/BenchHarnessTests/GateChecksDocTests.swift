import Foundation
import Testing

@testable import BenchHarness

/// The harness catalog's list of gate checks (`GatingCI.md`) is `calldir bench checks`' output,
/// which comes from the constants the gates read: the two cannot drift (issue 41, item 3).
@Suite("The documented gate checks are the code's")
struct GateChecksDocTests {
  @Test func theArticlesTableIsTheCommandsOutput() throws {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Sources/BenchHarness/BenchHarness.docc/GatingCI.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    let begin = try #require(text.range(of: "<!-- gate-checks: begin -->\n"))
    let end = try #require(
      text.range(of: "<!-- gate-checks: end -->", range: begin.upperBound..<text.endIndex))
    #expect(String(text[begin.upperBound..<end.lowerBound]) == GateChecks.markdown())
  }

  @Test func everyGateHasItsChecksAndNoneReadsTheWallClockAgainstAFixedBarUnsaid() {
    let gates = Set(GateChecks.all.map(\.gate))
    for gate in [
      "bench", "bench --baseline", "bench ab", "bench two-phase", "bench sweep",
      "bench compile", "history changes",
    ] {
      #expect(gates.contains(gate), "\(gate) has no check listed")
    }
    // A check that stays absolute says why, with its margin.
    let absolute = GateChecks.all.filter { $0.why.contains("absolute") }
    #expect(absolute.count == 2 && absolute.allSatisfy { $0.why.contains("kept") })
  }
}
