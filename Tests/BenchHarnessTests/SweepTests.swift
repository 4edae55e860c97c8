import Foundation
import TestSupport
import Testing

@testable import BenchGating
@testable import BenchMeasuring
@testable import BenchReporting

/// A sweep over N: growth exponents, their gate, the command and its chart.
@Suite("Sweeps: how cost grows with N")
struct SweepTests {
  /// Completed load rows at `size` with a load time and footprint that follow N^time and
  /// N^memory.
  func records(size: Int, time: Double, memory: Double) -> [RunRecord] {
    (1...3).map { index in
      var record = RunRecord()
      record.strategy = "mmap"
      record.binary = "calldir-extension"
      record.repeatIndex = index
      record.entries = size
      record.loadSeconds = 1e-7 * pow(Double(size), time)
      record.entriesPerSecond = Double(size) / record.loadSeconds
      record.footprintPeakBytes = Int(1_000_000 * pow(Double(size) / 1e5, memory))
      record.heapPeakBytes = 1_024
      record.instructionsPerEntry = 660
      return record
    }
  }

  func analysis(time: Double, memory: Double) -> SweepAnalysis {
    SweepAnalysis(
      [100_000, 500_000, 1_000_000, 4_000_000].map {
        ($0, records(size: $0, time: time, memory: memory))
      })
  }

  @Test func theExponentsAreTheLogLogSlopes() throws {
    let row = try #require(analysis(time: 1, memory: 0).rows.first)
    #expect(abs(try #require(row.loadTime) - 1) < 1e-9)
    #expect(abs(try #require(row.footprint)) < 1e-6)
    #expect(try #require(row.heapPeak) == 0)
    #expect(try #require(row.instructionsPerEntry) == 0)
    #expect(SweepAnalysis.exponent([(1, 1), (2, nil)]) == nil, "a missing point fits nothing")
  }

  @Test func memoryGrowingWithNOrSuperlinearTimeFailsTheGate() {
    #expect(analysis(time: 1, memory: 0).evaluate().passed)
    let growing = analysis(time: 1, memory: 0.1).evaluate().failures
    #expect(growing.count == 1 && growing[0].contains("footprint grows as N^0.100"))
    let quadratic = analysis(time: 1.5, memory: 0).evaluate().failures
    #expect(quadratic.count == 1 && quadratic[0].contains("load time grows as N^1.500"))
    #expect(analysis(time: 1, memory: 0).render().contains("over 100k, 500k, 1M, 4M:"))
  }

  @Test func theCommandSweepsWritesOneCSVAndALogLogChart() throws {
    let folder = try TemporaryFolder()
    let csv = folder.path("sweep.csv")
    let result = try runProcess(
      try builtExecutable("calldir"),
      [
        "bench", "sweep", "--profile", "ci-smoke", "--entries", "2k,8k,32k", "--strategies", "mmap",
        "--repeat", "2", "--instructions", "off", "--cache", folder.path("cache"), "--out", csv,
        "--quiet",
      ])
    // No --gate: at a few thousand entries a loaded machine's timings are mostly start-up; the
    // gate's arithmetic is tested above on figures that cannot flake.
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("growth with N"), "\(result.stdout)")
    #expect(result.stdout.contains("mmap "))
    let records = try RunRecord.records(fromCSV: String(contentsOfFile: csv, encoding: .utf8))
    #expect(Set(records.filter { $0.run == .load }.map(\.entries)) == [2_000, 8_000, 32_000])
    let svg = try String(contentsOfFile: folder.path("sweep.svg"), encoding: .utf8)
    #expect(svg.contains("how cost grows with N") && svg.contains("log-log"))
    // `chart` redraws the same sweep from the CSV.
    let redraw = try runProcess(
      try builtExecutable("calldir"), ["chart", csv, "--out", folder.path("again.svg")])
    #expect(redraw.status == 0)
    // The CSV keeps load times to the microsecond, so the redraw is the same chart up to that
    // rounding: the same panels, sizes and strategies.
    let again = try String(contentsOfFile: folder.path("again.svg"), encoding: .utf8)
    for text in ["how cost grows with N", ">2k<", ">8k<", ">32k<", "mmap: time N^"] {
      #expect(svg.contains(text) && again.contains(text), "\(text)")
    }
  }

  @Test(arguments: [
    (["generate", "--profile", "ci-smoke", "--entries", "1k,2k", "--out", "x"], "takes one count"),
    (["bench", "--profile", "ci-smoke", "--entries", "1k,x"], "--entries"),
    (["bench", "--profile", "ci-smoke", "--entries", "1k,2k"], "calldir bench sweep"),
    (["bench", "sweep", "--profile", "ci-smoke", "--entries", "1k"], "two sizes or more"),
    (["bench", "sweep", "--entries", "1k,2k", "--against", "."], "--against"),
    (["bench", "ab", "--entries", "1k,2k", "--against", "."], "one size"),
    (["bench", "ab", "--entries", "1k"], "--against"),
  ])
  func aListWhereOneCountBelongsIsAUsageError(arguments: [String], message: String) throws {
    let folder = try TemporaryFolder()
    let result = try runProcess(
      try builtExecutable("calldir"), arguments, directory: folder.url)
    #expect(result.status == 1, "\(arguments): \(result.stdout)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }
}
