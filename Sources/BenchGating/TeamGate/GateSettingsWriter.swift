import BenchMeasuring
import BenchReporting
import Foundation

/// `calldir gate --write-settings`: a team's `.calldir-gate.yml` from its own figures, so that
/// it starts from its data rather than an iPhone 13's defaults. Each budget measured becomes
/// the figure plus ``margin``; the limits iOS sets (the memory limit, the entries per request)
/// and the per-update budgets (one update is not a team's typical one) keep their defaults;
/// every line says where its value came from.
public enum GateSettingsWriter {
  /// The room left above today's figures: a quarter, so a directory can grow by a fifth before
  /// the gate fails, and a regression of a quarter fails at once.
  public static let margin = 0.25

  /// The settings the figures give: `base` with each measured budget replaced.
  public static func settings(from result: TeamGateResult, over base: GateSettings = GateSettings())
    -> GateSettings
  {
    var settings = base
    for line in lines(from: result) {
      if let value = line.value {
        try? settings.set(line.path, to: GateSettings.format(value), place: "")
      }
    }
    return settings
  }

  /// One setting the file writes: its path, value (nil: a comment only) and why.
  struct Line {
    var path: String
    var value: Double?
    var why: String
  }

  static func lines(from result: TeamGateResult) -> [Line] {
    var lines: [Line] = []
    let budgets = result.settings.budgets
    func grown(_ value: Double) -> Double { value * (1 + margin) }
    func rounded(_ value: Double, _ places: Double) -> Double {
      (value * places).rounded(.up) / places
    }
    for check in result.budgetChecks {
      switch check.key {
      case "budgets.footprint-margin-percent":
        let limit = Double(budgets.memoryLimitBytes)
        let free = max(0, min(90, (1 - grown(check.value) / limit) * 100))
        let percent = (free).rounded(.down)
        lines.append(
          Line(
            path: check.key, value: percent,
            why:
              "footprint \(check.figure) of the \(GateSettings.format(limit / 1_048_576)) MiB limit; with \(Int(margin * 100))% more it leaves \(GateSettings.format(percent))% free"
          ))
      case "budgets.seed-seconds-to-enabled":
        lines.append(
          Line(
            path: check.key, value: max(0.01, rounded(grown(check.value), 100)),
            why:
              "the seed set took \(check.figure) on \(budgets.device), plus \(Int(margin * 100))%"))
      case "budgets.requests":
        let value = max(check.value + 1, grown(check.value).rounded(.up))
        lines.append(
          Line(
            path: check.key, value: value,
            why:
              "the full set took \(check.figure) requests; one more, or \(Int(margin * 100))% more")
        )
      case "budgets.label-bytes-per-entry", "budgets.lcidl-server-ms", "budgets.lcidl-response-kb":
        lines.append(
          Line(
            path: check.key, value: rounded(grown(check.value), 10),
            why: "\(check.name): \(check.figure), plus \(Int(margin * 100))%"))
      case "budgets.full-install-mib":
        lines.append(
          Line(
            path: check.key, value: rounded(grown(check.value) / 1_048_576, 10),
            why: "a full install downloads \(check.figure), plus \(Int(margin * 100))%"))
      case "budgets.entries-per-request":
        lines.append(
          Line(
            path: check.key, value: nil,
            why:
              "entries-per-request stays iOS's limit (\(budgets.entriesPerRequest)); the largest request carried \(check.figure)"
          ))
      default:
        lines.append(
          Line(
            path: check.key, value: nil,
            why:
              "\(check.key.dropFirst("budgets.".count)) keeps its default: this run measured \(check.figure), one update, not the churn a team expects"
          ))
      }
    }
    return lines
  }

  /// The file's text.
  /// - Parameters:
  ///   - result: the gate's run on the team's data.
  ///   - data: the container measured, named in the header.
  ///   - date: the day written, `2026-12-03`.
  public static func yaml(from result: TeamGateResult, data: String, date: String) -> String {
    var text = """
      # calldir gate's settings, written by `calldir gate --write-settings` on \(date) from the
      # figures of \(data). Each budget measured is today's figure plus \(Int(margin * 100))%, so
      # the gate fails when the data outgrows it by that much; what is not written keeps its
      # default (`calldir bench checks` lists every key, its default and its source). Edit freely.
      budgets:

      """
    for line in lines(from: result) {
      let name = line.path.dropFirst("budgets.".count)
      text += "  # \(line.why)\n"
      if let value = line.value { text += "  \(name): \(GateSettings.format(value))\n" }
    }
    text += """
      calldir:
        # A/B thresholds on the same data are calldir's, not the data's: the defaults.
        max-regression-percent: \(GateSettings.format(result.settings.thresholds.maximumRegression * 100))

      """
    if !result.settings.reportOnly.isEmpty {
      text += "report-only:\n"
      for path in result.settings.reportOnly.sorted() {
        text += "  - \(path.dropFirst("budgets.".count))\n"
      }
    }
    return text
  }
}
