import Foundation
import Testing

@testable import BenchGating

/// The harness catalog's list of gate checks (`GatingCI.md`) is `calldir bench checks`' output,
/// which comes from the constants the gates read: the two cannot drift (issue 41, item 3).
@Suite("The documented gate checks are the code's")
struct GateChecksDocTests {
  @Test func theArticlesTableIsTheCommandsOutput() throws {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Sources/BenchGating/BenchGating.docc/GatingCI.md")
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

/// The Action's inputs for the gate's settings are the ones `calldir bench checks` says it has.
@Suite("The Action's inputs are the gate's settings")
struct ActionInputsTests {
  @Test func everyNamedInputIsInTheActionAndASetting() throws {
    let action = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../action.yml")
    let text = try String(contentsOf: action, encoding: .utf8)
    let names = Set(GateSettings.keys.map(\.name))
    for input in GateChecks.actionInputs {
      #expect(text.contains("\n  \(input):\n"), "action.yml has no input \(input)")
      #expect(names.contains(input), "\(input) is not a gate setting")
      // The input reaches calldir gate as the setting of the same name.
      let key = try #require(GateSettings.keys.first { $0.name == input })
      #expect(text.contains("--set \"\(key.path)="), "action.yml never passes \(key.path)")
    }
  }

  @Test func aSettingsFileSetsValuesAndNamesItsMistakes() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gate-settings-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let good = folder.appendingPathComponent("good.yml")
    try """
    # a team's budgets
    budgets:
      footprint-margin-percent: 25%
      requests: 4
      device: iphone17pro
    calldir:
      max-regression-percent: 3
    report-only:
      - lcidl-server-ms
      - budgets.update-percent
    """.write(to: good, atomically: true, encoding: .utf8)
    var settings = GateSettings()
    try settings.read(file: good.path)
    #expect(settings.budgets.footprintMargin == 0.25)
    #expect(settings.budgets.requests == 4)
    #expect(settings.budgets.device == "iphone17pro")
    #expect(settings.thresholds.maximumRegression == 0.03)
    #expect(settings.budgets.footprintBytes == Int(Double(5 * 1_048_576) * 0.75))
    #expect(settings.reportOnly == ["budgets.lcidl-server-ms", "budgets.update-percent"])
    let notBudget = folder.appendingPathComponent("not-budget.yml")
    try "report-only:\n  - repeat\n".write(to: notBudget, atomically: true, encoding: .utf8)
    var third = GateSettings()
    #expect {
      try third.read(file: notBudget.path)
    } throws: { error in
      "\(error)".contains("not-budget.yml:2: 'repeat' is not a budget (known: ")
    }
    let wrong = folder.appendingPathComponent("wrong.yml")
    try "calldir:\n  repeat: 2.5\n".write(to: wrong, atomically: true, encoding: .utf8)
    var other = GateSettings()
    #expect {
      try other.read(file: wrong.path)
    } throws: { error in
      "\(error)".contains("wrong.yml:2: calldir.repeat must be a whole number from 3 to 100")
    }
  }
}
