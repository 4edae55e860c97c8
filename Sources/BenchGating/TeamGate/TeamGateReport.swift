import BenchMeasuring
import BenchReporting
import Foundation
import ProcessMetrics

/// The gate's step summary: two sections, "calldir" and "data", each starting with its verdict,
/// then every figure with its budget or its A/B interval, and the data-dependent counts beside
/// the base revision's (reported, not gated). Fit for `$GITHUB_STEP_SUMMARY`.
public enum TeamGateReport {
  /// The Markdown.
  /// - Parameters:
  ///   - result: what the gate measured.
  ///   - title: what was gated (the data's path and the revisions).
  ///   - chartLink: where the chart is (an uploaded artifact's address, or a path).
  public static func markdown(_ result: TeamGateResult, title: String, chartLink: String?)
    -> String
  {
    let verdict = result.verdict
    var lines = [
      "## calldir gate — " + (verdict.passed ? "✅ passed" : "❌ \(count(verdict.failures))"), "",
      title, "",
    ]
    lines += codeSection(result) + [""] + dataSection(result)
    if let chartLink, !chartLink.isEmpty {
      lines += ["", "Chart: [\(chartLink.split(separator: "/").last ?? "chart")](\(chartLink))"]
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func count(_ failures: [String]) -> String {
    "\(failures.count) failure\(failures.count == 1 ? "" : "s")"
  }

  static func codeSection(_ result: TeamGateResult) -> [String] {
    let verdict = result.codeVerdict
    guard let comparison = result.comparison else {
      return ["### calldir — ⏭️ A/B skipped", "", result.skippedCode ?? "not compared"]
    }
    let thresholds = result.settings.thresholds
    var lines = [
      "### calldir — " + (verdict.passed ? "✅ passed" : "❌ \(count(verdict.failures))"), "",
      "A = the base revision's calldir, B = the head's, both on the head's \(result.largest), run interleaved.",
      "",
      "| strategy | load time B/A | 95% interval | fails past | instr/entry A → B | fails past | alloc/entry A → B |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in comparison.rows {
      let time = row.timeRatio.map { String(format: "%.3f", $0.ratio) } ?? "–"
      let interval = row.timeRatio.map { String(format: "[%.3f, %.3f]", $0.low, $0.high) } ?? "–"
      let counts =
        row.instructions.map {
          String(format: "%.1f → %.1f (%+.3f%%)", $0.a, $0.b, ($0.b / $0.a - 1) * 100)
        } ?? "–"
      let allocations =
        row.allocations.map { String(format: "%.4f → %.4f", $0.a, $0.b) } ?? "–"
      lines.append(
        "| \(row.strategy) | \(time) | \(interval) | \(String(format: "%.3f", 1 + thresholds.maximumRegression)) | \(counts) | +\(GateSettings.format(thresholds.maximumCountRegression * 100))% | \(allocations) |"
      )
    }
    if !verdict.failures.isEmpty { lines += [""] + verdict.failures.map { "- \($0)" } }
    return lines
  }

  static func dataSection(_ result: TeamGateResult) -> [String] {
    let verdict = result.dataVerdict
    var lines = [
      "### data — " + (verdict.passed ? "✅ within every budget" : "❌ \(count(verdict.failures))"),
      "",
    ]
    let checks = result.budgetChecks
    let trends = checks.contains { $0.trend != nil }
    lines += [
      "| budget | measured | allowed | room left |\(trends ? " time to the limit |" : "") |",
      "| --- | ---: | ---: | ---: |\(trends ? " --- |" : "") --- |",
    ]
    for check in checks {
      let trend = trends ? " \(check.trend.map { $0.timeToLimit } ?? "–") |" : ""
      lines.append(
        "| \(check.name) | \(check.figure) | \(check.budget) | \(check.roomLeft) |\(trend) \(check.passed ? "✅" : check.reportOnly ? "⚠️ over (report only)" : "❌ over") |"
      )
    }
    if trends {
      lines += ["", methodLine(checks)]
    } else if let note = result.historyNote {
      lines += ["", note]
    }
    lines += releaseSizes(result)
    let failures = (result.load?.failures ?? []) + result.processorFailures
    if !failures.isEmpty {
      lines += [""] + failures.map { "- ❌ \($0)" }
    }
    if result.update == nil {
      lines += ["", "No base revision: the update's download is not measured."]
    }
    lines += processorSection(result.processorLogs)
    lines += [
      "", "Counts that depend on the data (reported, not gated):", "",
      "| count | base revision | head | change |", "| --- | ---: | ---: | ---: |",
    ]
    func row(_ name: String, _ base: Double?, _ head: Double?, _ format: (Double) -> String) {
      let change: String
      if let base, let head, base > 0 {
        change = String(format: "%+.2f%%", (head / base - 1) * 100)
      } else {
        change = "–"
      }
      lines.append(
        "| \(name) | \(base.map(format) ?? "–") | \(head.map(format) ?? "–") | \(change) |")
    }
    let head = result.head
    let base = result.base
    row(
      "instructions per entry (\(result.largest))", result.baseInstructionsPerEntry,
      result.headInstructionsPerEntry
    ) { String(format: "%.1f", $0) }
    row("seed entries", base.map { Double($0.seedEntries) }, Double(head.seedEntries)) {
      String(Int($0))
    }
    row("full-set entries", base.map { Double($0.fullEntries) }, Double(head.fullEntries)) {
      String(Int($0))
    }
    row("label bytes", base.map { Double($0.labelBytes) }, Double(head.labelBytes)) {
      ByteCount.format(Int($0))
    }
    row("base bytes", base.map { Double($0.totalBytes) }, Double(head.totalBytes)) {
      ByteCount.format(Int($0))
    }
    lines += [
      "",
      "Rejected rows are counted by `calldir compile`, which prints them; a container does not keep them.",
    ]
    return lines
  }

  /// How the times to the limit were found, and the growth of each figure that grows.
  static func methodLine(_ checks: [TeamGateResult.BudgetCheck]) -> String {
    let growing = checks.compactMap { check in
      check.trend.flatMap { $0.isNear ? "\(check.name) \($0.method(unit: check.unit))" : nil }
    }
    return
      "Time to the limit: a least-squares line through each figure at the history's last commits, by commit time (`calldir gate --history`), extended to its limit."
      + (growing.isEmpty
        ? " No figure reaches its limit within \(Int(BudgetTrend.farMonths / 12)) years."
        : " Within \(Int(BudgetTrend.farMonths / 12)) years: " + growing.joined(separator: "; ")
          + ".")
  }

  /// What a release of this data weighs: the full install a new user downloads, this update's
  /// download from the base revision, and the patch set's share.
  static func releaseSizes(_ result: TeamGateResult) -> [String] {
    let head = result.head
    var lines = [
      "", "Release sizes (`calldir publish` ships bases whole and updates as compressed patches):",
      "",
      "| release | size | |", "| --- | ---: | --- |",
      "| full install | \(ByteCount.format(head.totalBytes)) | \(head.bases.count) base\(head.bases.count == 1 ? "" : "s"): what a new user downloads |",
    ]
    guard let update = result.update else { return lines }
    let whole = update.changedBases - update.patchedBases + update.newBases
    let unchanged = head.bases.count - update.changedBases - update.newBases
    lines.append(
      "| this update's download | \(ByteCount.format(update.downloadBytes)) | \(update.patchedBases) patch\(update.patchedBases == 1 ? "" : "es"), \(whole) whole base\(whole == 1 ? "" : "s"); \(unchanged) unchanged |"
    )
    let ofFull = update.fullBytes > 0 ? Double(update.downloadBytes) / Double(update.fullBytes) : 0
    lines.append(
      String(
        format:
          "| the patch set's share | %.1f%% | of a full install of the head; %.1f%% of what clients hold |",
        ofFull * 100, update.share * 100))
    return lines
  }

  /// The processor's figures of each Live Caller ID Lookup dataset, and what one call costs:
  /// what Apple's onboarding checklist asks a service for ("expected request and response
  /// size", apple/pir-service-example, `Onboarding.md`).
  static func processorSection(_ logs: [ProcessorLog]) -> [String] {
    guard !logs.isEmpty else { return [] }
    var lines = [
      "",
      "Live Caller ID Lookup, from Apple's processor's log (`PIRProcessDatabase`, `trialsPerShard` > 0):",
      "",
      "| dataset | shards | entries | load factors | query | reply | evaluation key | server ms, one thread / all cores |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    func kb(_ value: Double?) -> String { value.map { String(format: "%.1f KB", $0) } ?? "–" }
    func ms(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "–" }
    for log in logs {
      let factors =
        log.loadFactors.map { String(format: "%.2f–%.2f", $0.lowerBound, $0.upperBound) } ?? "–"
      lines.append(
        "| \(log.displayName(among: logs)) | \(log.shards.count) | \(log.entries) | \(factors) | \(kb(log.queryKB)) | \(kb(log.responseKB)) | \(kb(log.evaluationKeyKB)) | \(ms(log.slowestShardMilliseconds)) / \(ms(log.slowestShardMultiThreadedMilliseconds)) |"
      )
    }
    let up = logs.compactMap(\.queryKB)
    let down = logs.compactMap(\.responseKB)
    if up.count == logs.count {
      lines += [
        "",
        String(
          format:
            "One call queries each dataset once: %.1f KB up and %.1f KB down, at most; the evaluation key (%.1f KB) is uploaded once per key, not per call.",
          up.reduce(0, +), down.reduce(0, +), logs.compactMap(\.evaluationKeyKB).max() ?? 0),
      ]
    }
    return lines
  }
}
