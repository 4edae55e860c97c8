import Foundation
import TestSupport
import Testing

@testable import BenchGating
@testable import BenchReporting

/// Issue 70, item 2: a budget's time to the limit is a least-squares line through its figure
/// at the history's last commits, by commit time, extended to the limit.
@Suite("A budget's trend and its time to the limit")
struct BudgetTrendTests {
  let month = BudgetTrend.monthSeconds

  /// Points on an exact line: the line reaches the limit when the line says, from the newest
  /// point, and its growth a month is the line's.
  @Test(arguments: [(1.0, 0.5, 4.0, 6), (100.0, 7.0, 180.0, 12), (0.0, 2.0, 1000.0, 3)])
  func pointsOnALineReachTheLimitWhenTheLineDoes(
    start: Double, perMonth: Double, limit: Double, count: Int
  ) throws {
    let origin = 1_700_000_000.0
    let points: [(time: Double, value: Double)] = (0..<count).map { index in
      let step = Double(index)
      return (time: origin + step * month, value: start + perMonth * step)
    }
    let trend = try #require(BudgetTrend.fit(points, limit: limit))
    let expected = ((limit - start) / perMonth - Double(count - 1)) * month
    #expect(abs(try #require(trend.secondsToLimit) - max(0, expected)) < 1)
    #expect(abs(trend.slopePerSecond * month - perMonth) < 1e-9 * max(1, perMonth))
    #expect(trend.points == count)
    let spanDays: Int = Int((Double(count - 1) * month / 86_400).rounded())
    let method: String = trend.method(unit: .plain)
    #expect(method.hasSuffix("over the last \(count) commits (\(spanDays) days)"), "\(method)")
  }

  /// Noise around a line still finds the line: a sawtooth of ±10% around 1 a month.
  @Test func noiseAroundALineFindsTheLine() throws {
    let points: [(time: Double, value: Double)] = (0..<12).map { index in
      let wobble: Double = index % 2 == 0 ? 0.1 : -0.1
      return (time: Double(index) * month, value: 10 + Double(index) + wobble)
    }
    let trend = try #require(BudgetTrend.fit(points, limit: 40))
    let months = try #require(trend.secondsToLimit) / month
    #expect(abs(months - 19) < 0.5, "\(months)")
    #expect(trend.timeToLimit == "in about \(Int(months.rounded())) months")
  }

  /// A figure that stays or shrinks never reaches its limit; one past it is there now.
  @Test func aFlatOrFallingFigureIsNotGrowing() throws {
    for step in [0.0, -1.0] {
      let points = (0..<5).map { (time: Double($0) * month, value: 10 + step * Double($0)) }
      let trend = try #require(BudgetTrend.fit(points, limit: 20))
      #expect(trend.secondsToLimit == nil)
      #expect(trend.timeToLimit == "not growing")
    }
    let over = (0..<4).map { (time: Double($0) * month, value: 30 + Double($0)) }
    #expect(BudgetTrend.fit(over, limit: 20)?.secondsToLimit == 0)
    #expect(BudgetTrend.fit(over, limit: 20)?.timeToLimit == "now, by the trend")
  }

  /// Two points, or a day's commits, draw no line.
  @Test func tooFewPointsOrTooShortASpanDrawNoLine() {
    #expect(BudgetTrend.fit([(0, 1), (month, 2)], limit: 10) == nil)
    let hourly = (0..<10).map { (time: Double($0) * 3_600, value: Double($0)) }
    #expect(BudgetTrend.fit(hourly, limit: 100) == nil)
  }

  /// Days under two months, months under two years, years after.
  @Test func theTimeIsSaidInItsUnit() throws {
    for (days, said) in [
      (12.0, "in about 12 days"), (213.0, "in about 7 months"),
      (1_100.0, "in about 3 years"), (4_000.0, "over 10 years away"),
    ] {
      let perDay = 1.0
      let points = (0..<3).map { (time: Double($0) * 86_400 * 10, value: Double($0) * 10 * perDay) }
      let trend = try #require(BudgetTrend.fit(points, limit: 20 + days * perDay))
      #expect(trend.timeToLimit == said, "\(days) days")
    }
  }

  /// A result whose data holds `megabytes` MiB of bases (a full install) and nothing else.
  static func result(megabytes: Double) -> TeamGateResult {
    TeamGateResult(
      settings: GateSettings(),
      head: DataFigures(
        bases: [], seedEntries: 0, fullEntries: 0, labelledEntries: 0, labelBytes: 0,
        totalBytes: Int(megabytes * 1_048_576)),
      base: nil, largest: "r")
  }

  /// The room left is the limit less the figure, in the figure's unit, with its share of the
  /// limit; past the limit it says by how much.
  @Test func theRoomLeftIsInTheFiguresUnit() throws {
    let check = try #require(
      Self.result(megabytes: 30).budgetChecks.first { $0.key == "budgets.full-install-mib" })
    #expect(check.roomLeft == "\(BudgetUnit.bytes.format(10 * 1_048_576)) (25%)")
    let over = try #require(
      Self.result(megabytes: 50).budgetChecks.first { $0.key == "budgets.full-install-mib" })
    #expect(over.roomLeft == "none: \(BudgetUnit.bytes.format(10 * 1_048_576)) over")
    #expect(!over.passed)
    #expect(BudgetUnit.count.formatChange(-12) == "−12")
    #expect(BudgetUnit.percent.formatChange(2.5) == "+2.5%")
  }

  /// Recorded commit by commit in a real history (SQLite), a full install growing 10 MiB a
  /// month reaches its 40 MiB limit a month after the third commit; a figure that stays is not
  /// growing; a commit recorded twice counts once.
  @Test func theHistoryGivesEachBudgetItsTimeToTheLimit() throws {
    let folder = try TemporaryFolder()
    let history = try BenchHistory(path: folder.path("gate.sqlite"))
    let origin = 1_700_000_000.0
    func head(_ number: Int) -> GateHistory.Head {
      GateHistory.Head(
        sha: String(format: "%040x", number), parent: "", branch: "main",
        subject: "month \(number)",
        time: origin + Double(number) * month)
    }
    for number in 0..<3 {
      var result = Self.result(megabytes: 10 + 10 * Double(number))
      try GateHistory.apply(history, data: "directory", head: head(number), to: &result)
      #expect((result.historyNote != nil) == (number < 2), "month \(number)")
      try GateHistory.record(result, data: "directory", head: head(number), in: history)
      // Recorded twice: the same commit keeps one point.
      try GateHistory.record(result, data: "directory", head: head(number), in: history)
    }
    #expect(try history.commits().map(\.time) == (0..<3).map { origin + Double($0) * month })
    var result = Self.result(megabytes: 30)
    try GateHistory.apply(history, data: "directory", head: head(2), to: &result)
    let install = try #require(result.budgetChecks.first { $0.key == "budgets.full-install-mib" })
    let trend = try #require(install.trend)
    #expect(trend.points == 3)
    #expect(abs(try #require(trend.secondsToLimit) - month) < 1)
    let labels = try #require(
      result.budgetChecks.first { $0.key == "budgets.label-bytes-per-entry" })
    #expect(labels.trend?.timeToLimit == "not growing")
    // Another container's figures are its own.
    var other = Self.result(megabytes: 30)
    try GateHistory.apply(history, data: "other", head: head(2), to: &other)
    #expect(other.trends.isEmpty && other.historyNote != nil)
    let report = TeamGateReport.markdown(result, title: "t", chartLink: nil)
    #expect(report.contains("| room left | time to the limit |"))
    #expect(report.contains("| in about 30 days |"), "\(report)")
    #expect(report.contains("full install +10.0 MiB a month over the last 3 commits (61 days)"))
  }
}
