import Foundation
import TestSupport
import Testing

@testable import BenchGating
@testable import BenchMeasuring
@testable import BenchReporting
@testable import DirectoryCompiler

/// `bench compile --entries A,B,C`: the exponents fitted across sizes, the gate on them, the
/// CSV read back, and the compile report's sort figures as the bench reads them.
@Suite("The compile scale bench")
struct CompileScaleTests {
  /// A size's runs: compile and sort -u, each `seconds(rows)` and `rss(rows)`.
  func point(
    _ rows: Int, seconds: (Double) -> Double, rss: (Double) -> Double, sortRuns: Int = 0
  ) -> CompileScale.Point {
    let n = Double(rows)
    var compile = CompileBench.Run(
      tool: "compile", repeatIndex: 1, wallSeconds: seconds(n), cpuSeconds: seconds(n),
      maxResidentBytes: Int(rss(n)), rows: rows)
    compile.sortRuns = sortRuns
    let sort = CompileBench.Run(
      tool: "sort -u", repeatIndex: 1, wallSeconds: 2 * seconds(n), cpuSeconds: 2 * seconds(n),
      maxResidentBytes: 256 << 20, rows: rows)
    return CompileScale.Point(entries: rows, runs: [compile, sort])
  }

  @Test func linearTimeAndFlatMemoryPassAndTheirExponentsAreFitted() throws {
    let scale = CompileScale(
      points: [4_000_000, 40_000_000, 400_000_000].map {
        point($0, seconds: { $0 / 1.5e6 }, rss: { _ in 240 * 1_048_576 })
      })
    let (wall, cpu, memory) = scale.compileExponents
    let fitted = try [#require(wall), #require(cpu), #require(memory)]
    #expect(abs(fitted[0] - 1) < 1e-9 && abs(fitted[1] - 1) < 1e-9 && abs(fitted[2]) < 1e-9)
    #expect(scale.evaluate().passed)
    #expect(scale.points.allSatisfy { abs($0.wallRatio - 0.5) < 1e-9 })
    #expect(scale.summary().contains("peak RSS N^0.000"), "\(scale.summary())")
  }

  @Test func memoryThatGrowsWithTheRunsAndSuperlinearTimeFail() {
    // 234 MiB at 4 M and 313 MiB at 40 M: the measurement before the merge was bounded.
    let growing = CompileScale(points: [
      point(4_000_000, seconds: { $0 / 1.5e6 }, rss: { _ in 234 * 1_048_576 }),
      point(40_000_000, seconds: { $0 / 1.5e6 }, rss: { _ in 313 * 1_048_576 }),
    ])
    #expect(growing.evaluate().failures.count == 1)
    #expect(growing.evaluate().failures.first?.contains("peak RSS grows as N^0.126") == true)
    let quadratic = CompileScale(
      points: [1_000_000, 2_000_000].map {
        point($0, seconds: { $0 * $0 / 1e12 }, rss: { _ in Double(1 << 28) })
      })
    #expect(quadratic.evaluate().failures == ["compile's CPU time grows as N^2.000 (bar N^1.10)"])
    // One size has no slope: refused, not passed.
    let single = CompileScale(points: [point(4_000_000, seconds: { $0 / 1e6 }, rss: { $0 })])
    #expect(!single.evaluate().passed)
  }

  @Test func theCPUGateReadsEachSizesFastestRunSoOneLoadedRunDoesNotFailIt() throws {
    // Three repeats a size, linear at 1.5 M rows a CPU second; at 40 M two of them shared the
    // machine (+40%): the medians fit N^1.146, the fastest runs N^1.000.
    func repeats(_ rows: Int, loaded: Set<Int>) -> CompileScale.Point {
      let linear = Double(rows) / 1.5e6
      let runs = (1...3).map { index in
        CompileBench.Run(
          tool: "compile", repeatIndex: index, wallSeconds: linear,
          cpuSeconds: loaded.contains(index) ? linear * 1.4 : linear,
          maxResidentBytes: 240 << 20, rows: rows)
      }
      return CompileScale.Point(entries: rows, runs: runs)
    }
    let loadedRuns = CompileScale(points: [
      repeats(4_000_000, loaded: []), repeats(40_000_000, loaded: [1, 3]),
    ])
    let medianExponent = try #require(loadedRuns.exponent("compile") { $0.cpuSeconds })
    #expect(abs(medianExponent - 1.146) < 0.001)
    #expect(abs(try #require(loadedRuns.compileExponents.cpu) - 1) < 1e-9)
    #expect(loadedRuns.evaluate().passed, "\(loadedRuns.evaluate().failures)")
    // Every run at 40 M slower by the same 40% is the code, not the machine: it fails.
    let slowerEverywhere = CompileScale(points: [
      repeats(4_000_000, loaded: []), repeats(40_000_000, loaded: [1, 2, 3]),
    ])
    #expect(
      slowerEverywhere.evaluate().failures == ["compile's CPU time grows as N^1.146 (bar N^1.10)"])
  }

  @Test func theCSVReadsBackAsTheSamePoints() throws {
    let scale = CompileScale(
      points: [4_000_000, 40_000_000].map {
        point($0, seconds: { $0 / 1e6 }, rss: { $0 / 100 }, sortRuns: $0 / 600_000)
      })
    let table = scale.csv(profile: "directory-4m", memoryBytes: 256 << 20)
    let again = CompileScale(
      points: try CompileScale.points(from: CSVTable(parsing: table.encoded())))
    #expect(again.csv(profile: "directory-4m", memoryBytes: 256 << 20) == table)
    #expect(table.column("sort_runs") == ["6", "0", "66", "0"])
    var broken = table
    broken.rows[1][4] = "fast"
    #expect(throws: BenchError.self) { try CompileScale.points(from: broken) }
  }

  /// The bench reads the figures from the compile's own report line, as the compile prints it.
  @Test func theSortFiguresAreReadFromTheCompilesReport() {
    var report = CompileReport()
    report.sortRuns = 704
    report.mergePasses = 1
    report.temporaryBytes = 33 << 30
    report.temporaryFolder = "/var/tmp/box, with a comma"
    let figures = CompileBench.sortFigures(inReport: report.render())
    #expect(figures.runs == 704 && figures.passes == 1 && figures.bytes == 33 << 30)
    #expect(CompileBench.sortFigures(inReport: "accepted: 3\n") == (0, 0, 0))
  }
}
