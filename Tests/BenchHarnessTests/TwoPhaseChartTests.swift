import Foundation
import Testing

@testable import BenchMeasuring
@testable import BenchReporting

/// The two-phase chart: a timeline per repeat, with the real counts.
@Suite("The two-phase timeline")
struct TwoPhaseChartTests {
  func records() -> [RunRecord] {
    (1...2).flatMap { index in
      [("seed", 100_000), ("full", 1_999_999), ("incremental", 13_327)].map { phase, entries in
        var record = RunRecord()
        record.strategy = "two-phase-r3"
        record.repeatIndex = index
        record.phase = phase
        record.entries = entries
        record.wallSeconds = phase == "incremental" ? 0.4 : 2.5
        record.timeToEnabledSeconds = 0.35
        record.timeToFullSeconds = phase == "full" ? 3.2 : nil
        return record
      }
    }
  }

  @Test func itSaysWhatWasLoadedAndDrawsEveryRepeatOnOneAxis() {
    let svg = TwoPhaseChart.svg(records: records(), title: "two-phase", targetSeconds: 1)
    #expect(svg.contains("seed set 100k entries · full set 2M · incremental 13.33k changes"))
    #expect(svg.contains("repeat 1") && svg.contains("repeat 2"))
    #expect(svg.contains("target: enabled in 1.0 s"))
    // Full at 3.2 s plus 0.4 s incremental: the axis ends at the next tick, 4 s.
    #expect(svg.contains(">4.0 s<") && !svg.contains(">5.0 s<"))
    #expect(TwoPhaseChart.niceStep(0.6) == 1 && TwoPhaseChart.niceStep(0.11) == 0.2)
    // No run went past the cap: the legend does not name chunks nobody drew.
    #expect(!svg.contains("chunks past the cap"))
    #expect(!svg.contains("extensions"))
  }

  @Test func severalExtensionsAreNamedAndChunksOnlyWhenDrawn() {
    // Three extensions per repeat, each with its own full row, and a chunk past the cap.
    var records = records().flatMap { record in
      record.phase == "full" ? Array(repeating: record, count: 3) : [record]
    }
    var chunk = records[1]
    chunk.phase = "chunk"
    records.append(chunk)
    let svg = TwoPhaseChart.svg(records: records, title: "two-phase", targetSeconds: 1)
    #expect(svg.contains("3 extensions, each at most: seed set 100k entries · full set 2M"))
    #expect(svg.contains("chunks past the cap"))
  }

  /// A sweep (`--regions 3,300`) is one extension and two containers: each container's figures
  /// are named, and no "2 extensions" (issue 41).
  @Test func aSweepNamesEachContainersFiguresAndNoExtensions() {
    let small = records()
    let large = records().map { record in
      var copy = record
      copy.strategy = "two-phase-r300"
      copy.entries = record.phase == "incremental" ? 1_328 : record.entries
      return copy
    }
    let svg = TwoPhaseChart.svg(records: small + large, title: "two-phase", targetSeconds: 1)
    #expect(!svg.contains("extensions"))
    #expect(svg.contains("3 regions: seed 100k, full 2M, incremental 13.33k"))
    #expect(svg.contains("300 regions: seed 100k, full 2M, incremental 1.33k"))
    // The line fits the chart: 12 px text is at most ~6.5 px a character.
    let line = TwoPhaseChart.subtitle(small + large)
    #expect(Double(line.count) * 6.5 <= TwoPhaseChart.width - 40, "\(line.count) characters")
    #expect(TwoPhaseReport.extensionCount(small + large) == 1)
  }
}
