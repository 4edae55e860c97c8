import Datasets
import Foundation
import TestSupport
import Testing

@testable import BenchReporting

/// Change points (issue 29): exact steps in deterministic counts at their commit; wall-time
/// steps under this machine's measured noise found within 3 commits; A/A histories with at most
/// one false alert. The noise is `Results/history-aa-ci-smoke.csv`: each of 40 `calldir bench
/// --profile ci-smoke` runs of one build on this machine, its fastest repeat, resampled.
@Suite("Change points in a bench history")
struct ChangePointTests {
  /// The measured A/A fastest repeats of `strategy`'s load time, seconds (what a trend follows).
  static func measuredLoads(_ strategy: String) throws -> [Double] {
    let path =
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Results/history-aa-ci-smoke.csv").path
    let table = try CSVTable(parsing: String(contentsOfFile: path, encoding: .utf8))
    let strategyColumn = try #require(table.header.firstIndex(of: "strategy"))
    let loadColumn = try #require(table.header.firstIndex(of: "load_min_s"))
    return table.rows.filter { $0[strategyColumn] == strategy }.compactMap {
      Double($0[loadColumn])
    }
  }

  static func commits(_ count: Int) -> [BenchHistory.Commit] {
    (1...count).map {
      BenchHistory.Commit(
        sha: String(format: "%040x", $0), parent: "", branch: "main", subject: "",
        environment: "env", position: $0)
    }
  }

  static func series(
    _ values: [Double], metric: String = "load_s", deterministic: Bool = false,
    commits: [BenchHistory.Commit]
  ) -> BenchHistory.Series {
    BenchHistory.Series(
      metric: metric, strategy: "mmap", isDeterministic: deterministic,
      points: zip(commits, values).map { commit, value in
        (
          commit,
          HistoryFigure(
            metric: metric, strategy: "mmap", median: value, low: value, high: value, runs: 5,
            isDeterministic: deterministic)
        )
      })
  }

  @Test func aOnePercentInstructionStepIsFoundAtItsCommit() {
    let commits = Self.commits(200)
    var generator = SplitMix64(seed: 1)
    // Counts repeat to 0.002%; the step at commit 137 is 1%.
    let values = (1...200).map { number in
      670.0 * (number >= 137 ? 1.01 : 1) * Double.random(in: 0.99998...1.00002, using: &generator)
    }
    let changes = ChangePointDetector.changes(
      in: [
        Self.series(values, metric: "instructions_per_entry", deterministic: true, commits: commits)
      ],
      commits: commits)
    #expect(changes.count == 1)
    #expect(changes.first?.isExact == true)
    #expect(changes.first?.commit.position == 137)
    #expect(changes.first?.isRegression == true)
    #expect(abs((changes.first?.relativeChange ?? 0) - 0.01) < 0.0005)
  }

  @Test func aGapInACountSeriesIsARange() {
    let commits = Self.commits(10)
    // Commits 5 and 6 measured nothing; the step shows at 7.
    let measured = commits.filter { ![5, 6].contains($0.position) }
    let values = measured.map { $0.position >= 7 ? 700.0 : 670.0 }
    let changes = ChangePointDetector.changes(
      in: [
        Self.series(
          values, metric: "instructions_per_entry", deterministic: true, commits: measured)
      ],
      commits: commits)
    #expect(changes.count == 1)
    #expect(changes.first?.firstCommit.position == 5)
    #expect(changes.first?.lastCommit.position == 7)
    #expect(changes.first?.place.hasPrefix("between") == true)
  }

  /// A footprint moves in 4 KiB pages, so most commits repeat the one before exactly: a page
  /// gained or lost is no change (the real 30-commit history reported 50 of them), a 3.5% step
  /// is one, at its commit.
  @Test func aFootprintThatFlipsByAPageIsNoChangeAndAStepIsOne() {
    let commits = Self.commits(30)
    let page = 4096.0
    // Flips of one or two pages around 1.16 MB, then the step at commit 19 (+40 KiB).
    let flips: [Double] = [0, 0, 1, 0, 0, 2, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0]
    let before = flips.map { 1_159_168 + $0 * page }
    let after: [Double] = (19...30).map { 1_200_128 + ($0 % 4 == 0 ? page : 0) }
    let values = before + after
    let changes = ChangePointDetector.changes(
      in: [Self.series(values, metric: "footprint_bytes", commits: commits)], commits: commits)
    #expect(changes.count == 1, "\(changes.map(\.commit.position))")
    #expect(changes.first?.commit.position == 19)
    #expect(changes.first?.isRegression == true)
    let flat = ChangePointDetector.changes(
      in: [Self.series(before, metric: "footprint_bytes", commits: Array(commits.prefix(18)))],
      commits: Array(commits.prefix(18)))
    #expect(flat.isEmpty, "\(flat.map(\.commit.position))")
  }

  @Test func anEnvironmentChangeIsNamed() {
    var commits = Self.commits(12)
    for index in 6..<12 { commits[index].environment = "new runner" }
    let values = commits.map { $0.position >= 7 ? 700.0 : 670.0 }
    let changes = ChangePointDetector.changes(
      in: [
        Self.series(values, metric: "instructions_per_entry", deterministic: true, commits: commits)
      ],
      commits: commits)
    #expect(changes.first?.environmentChanged == true)
  }

  /// 100 histories of 100 commits drawn from the measured noise: at most 1 false alert in each,
  /// and at most 2 in all (500 such histories raised none when the penalty was calibrated).
  @Test(arguments: ["mmap", "buffered"])
  func anAAHistoryOfThisMachinesNoiseRaisesAtMostOneAlert(strategy: String) throws {
    let noise = try Self.measuredLoads(strategy)
    try #require(noise.count >= 30, "the measured noise has \(noise.count) runs")
    let commits = Self.commits(100)
    var generator = SplitMix64(seed: 4242)
    var total = 0
    for trial in 0..<100 {
      let values = (0..<100).map { _ in noise.randomElement(using: &generator)! }
      let alerts = ChangePointDetector.changes(
        in: [Self.series(values, commits: commits)], commits: commits)
      #expect(alerts.count <= 1, "trial \(trial): \(alerts.map(\.line))")
      total += alerts.count
    }
    #expect(total <= 2, "\(total) false alerts in 100 A/A histories")
  }

  /// A 5% step in wall time, at commit 100 of 200, under the measured noise: found in every
  /// history, its likeliest commit within 3 of it in at least 90 of 100 (93–97% over 500 when
  /// calibrated), and its size within 2 points.
  @Test(arguments: ["mmap", "buffered"])
  func aFivePercentWallTimeStepIsFoundWithinThreeCommits(strategy: String) throws {
    let noise = try Self.measuredLoads(strategy)
    try #require(noise.count >= 30)
    let commits = Self.commits(200)
    var generator = SplitMix64(seed: 77)
    var found = 0
    var detected = 0
    for _ in 0..<100 {
      let values = (1...200).map { number in
        noise.randomElement(using: &generator)! * (number >= 100 ? 1.05 : 1)
      }
      let changes = ChangePointDetector.changes(
        in: [Self.series(values, commits: commits)], commits: commits)
      detected += changes.isEmpty ? 0 : 1
      if changes.count == 1, let change = changes.first, change.isRegression,
        abs(change.commit.position - 100) <= 3,
        abs(change.relativeChange - 0.05) < 0.02
      {
        found += 1
      }
    }
    #expect(detected == 100)
    #expect(found >= 90, "found within 3 commits in \(found) of 100")
  }
}
