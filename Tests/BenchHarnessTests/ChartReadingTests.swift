import Foundation
import Testing

@testable import BenchMeasuring
@testable import BenchReporting

/// What a person sees in the strategies and sweep charts, checked in the SVG text: a value label
/// never straddles a reference line, overlapping series stay told apart, bytes read in binary
/// units.
@Suite("Charts a person reads right")
struct ChartReadingTests {
  /// A `<text>` element's x, anchor, size and content; a `<line>`'s x1/x2 and dash.
  struct Text { var x: Double, size: Double, anchor: String, content: String }

  static func texts(_ svg: String) -> [Text] {
    svg.split(separator: "\n").compactMap { line -> Text? in
      guard line.hasPrefix("<text"), let x = attribute("x", line),
        let size = attribute("font-size", line),
        let open = line.firstIndex(of: ">"), let close = line.range(of: "</text>")
      else { return nil }
      let anchor =
        line.range(of: "text-anchor=\"").map {
          String(line[$0.upperBound...].prefix { $0 != "\"" })
        } ?? "start"
      return Text(
        x: x, size: size, anchor: anchor,
        content: String(line[line.index(after: open)..<close.lowerBound]))
    }
  }

  static func attribute(_ name: String, _ line: Substring) -> Double? {
    guard let range = line.range(of: " \(name)=\"") else { return nil }
    return Double(line[range.upperBound...].prefix { $0 != "\"" })
  }

  func run(_ strategy: String, rate: Double) -> RunRecord {
    var record = RunRecord()
    record.strategy = strategy
    record.entriesPerSecond = rate
    record.footprintPeakBytes = 1 << 20
    record.idleRSSBytes = 10 << 20
    record.peakRSSBytes = 10 << 20
    record.memoryLimitBytes = 5 << 20
    return record
  }

  /// The committed chart's case: a reader at 165 k/s, whose label began left of the 2GIS line
  /// (200 k/s) and ran through it.
  @Test(arguments: [150_000.0, 165_300, 180_000, 195_000, 30_000, 40_000])
  func noValueLabelStraddlesAReferenceLine(rate: Double) {
    let svg = BenchChart.svg(
      records: [run("mmap", rate: 2e7), run("baseline-jsonl", rate: rate)], title: "t")
    let references = svg.split(separator: "\n").filter {
      $0.hasPrefix("<line") && $0.contains("stroke=\"#9a6700\"")
    }.compactMap { Self.attribute("x1", $0) }
    #expect(references.count == 2)
    let labels = Self.texts(svg).filter { $0.content.hasSuffix("/s") && $0.anchor == "start" }
    #expect(labels.count == 2)
    for label in labels {
      let end = label.x + ChartLabels.estimatedWidth(label.content, size: label.size)
      for line in references {
        #expect(
          !(label.x - 2...end + 2).contains(line), "\(label.content) at \(label.x) over \(line)")
      }
    }
  }

  @Test func aLabelIsMovedPastEveryLineItWouldCross() {
    #expect(ChartLabels.clear(of: [100], startingAt: 90, width: 40) == 106)
    #expect(ChartLabels.clear(of: [100, 120], startingAt: 90, width: 40) == 126)
    #expect(ChartLabels.clear(of: [100], startingAt: 110, width: 40) == 110)
    #expect(ChartLabels.clear(of: [200], startingAt: 90, width: 40) == 90)
  }

  /// mmap and buffered measure alike: their lines coincide, and only markers and dashes tell
  /// them apart. The footprint axis is in KiB/MiB at powers of two, as the tables are.
  @Test func overlappingSweepSeriesHaveTheirOwnMarkersAndBinaryByteTicks() {
    var runs: [(size: Int, records: [RunRecord])] = []
    for size in [100_000, 1_000_000, 4_000_000] {
      let records = ["mmap", "buffered"].map { strategy in
        var record = run(strategy, rate: 2e7)
        record.entries = size
        record.loadSeconds = Double(size) / 2e7
        record.footprintPeakBytes = 1_300_000
        record.instructionsPerEntry = 380
        return record
      }
      runs.append((size, records))
    }
    let svg = SweepChart.svg(runs: runs, title: "sweep")
    #expect(svg.contains("<circle"), "buffered's markers are circles, drawn over mmap's squares")
    #expect(svg.contains("stroke-dasharray=\"7 4\""), "buffered's line is dashed")
    let ticks = Self.texts(svg).map(\.content)
    #expect(ticks.contains("1.0 MiB") || ticks.contains("1 MiB"), "\(ticks)")
    #expect(!ticks.contains { $0.hasSuffix(" MB") || $0.hasSuffix(" kB") }, "\(ticks)")
    #expect(!ticks.contains { $0.range(of: #"\de[+-]?\d"#, options: .regularExpression) != nil })
  }

  @Test func byteTicksArePowersOfTwoEveryOtherWhenDense() {
    let ticks = SweepChart.ticks(fromDecade: 5, toDecade: 7, binary: true)
    #expect(ticks.allSatisfy { log2($0) == log2($0).rounded() })
    #expect(ticks.count <= 8 && ticks.count >= 3, "\(ticks)")
    #expect(ticks.first! >= 1e5 && ticks.last! <= 1e7)
    #expect(SweepChart.ticks(fromDecade: 2, toDecade: 3, binary: false) == [100, 1000])
  }
}
