import BenchMeasuring
import BenchReporting

/// How fast a budget's room shrinks: a least-squares line through its figure at the last
/// commits a history holds (by their commit times), and when that line reaches the limit.
/// The method, not a guess: the fit's points, span and slope are all reported with it.
public struct BudgetTrend: Sendable, Equatable {
  /// How many of the latest commits the line is fitted to, by default.
  public static let defaultWindow = 12
  /// Fewer points, or a shorter span, and no line is drawn: two points are a line through
  /// anything, and a day of commits says nothing of a month.
  public static let minimumPoints = 3
  public static let minimumSpanSeconds = 86_400.0
  /// A month, for rates and times: a Gregorian year's twelfth, in seconds.
  public static let monthSeconds = 365.2425 / 12 * 86_400

  /// Points fitted, and the time between the first and the last, seconds.
  public var points: Int
  public var spanSeconds: Double
  /// The figure's growth per second along the line.
  public var slopePerSecond: Double
  /// Seconds from the newest point until the line reaches the limit: nil when the figure does
  /// not grow; 0 when the line is past the limit already.
  public var secondsToLimit: Double?

  /// The line through `points` (commit time in seconds, figure), toward `limit`, seen from the
  /// newest point's time; nil with too few points or too short a span.
  public static func fit(_ points: [(time: Double, value: Double)], limit: Double)
    -> BudgetTrend?
  {
    guard points.count >= minimumPoints, let first = points.map(\.time).min(),
      let last = points.map(\.time).max(), last - first >= minimumSpanSeconds
    else { return nil }
    let count = Double(points.count)
    let meanTime = points.map(\.time).reduce(0, +) / count
    let meanValue = points.map(\.value).reduce(0, +) / count
    var covariance = 0.0
    var variance = 0.0
    for point in points {
      covariance += (point.time - meanTime) * (point.value - meanValue)
      variance += (point.time - meanTime) * (point.time - meanTime)
    }
    let slope = covariance / variance
    var trend = BudgetTrend(
      points: points.count, spanSeconds: last - first, slopePerSecond: slope, secondsToLimit: nil)
    if slope > 0 {
      let seconds = max(0, meanTime + (limit - meanValue) / slope - last)
      // Growth that reaches the limit in no less than a thousand years is no growth.
      if seconds < 12_000 * monthSeconds { trend.secondsToLimit = seconds }
    }
    return trend
  }

  /// "in about 7 months", "in about 12 days", "now, by the trend", "over 10 years away", or
  /// "not growing".
  public var timeToLimit: String {
    guard let seconds = secondsToLimit else { return "not growing" }
    let days = seconds / 86_400
    if days < 1 { return "now, by the trend" }
    if days < 60 { return "in about \(Int(days.rounded())) days" }
    let months = seconds / Self.monthSeconds
    if months < 24 { return "in about \(Int(months.rounded())) months" }
    if months < Self.farMonths { return "in about \(Int((months / 12).rounded())) years" }
    return "over \(Int(Self.farMonths / 12)) years away"
  }

  /// Past this many months a line's crossing is no forecast: said as "over 10 years away", and
  /// left out of the report's list of growing figures.
  public static let farMonths = 120.0

  /// Whether the line reaches the limit within ``farMonths``.
  public var isNear: Bool {
    secondsToLimit.map { $0 / Self.monthSeconds < Self.farMonths } ?? false
  }

  /// What the line was fitted to and how fast it grows: "+0.4 MiB a month over the last 12
  /// commits (330 days)".
  public func method(unit: BudgetUnit) -> String {
    "\(unit.formatChange(slopePerSecond * Self.monthSeconds)) a month over the last \(points) commits (\(Int((spanSeconds / 86_400).rounded())) days)"
  }
}
