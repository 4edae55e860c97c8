import BenchMeasuring
import BenchReporting
import ProcessMetrics

/// What the simulated system measured of a container: two-phase runs (enable, sync, update)
/// reduced to the figures the data budgets read.
public struct LoadFigures: Sendable {
  /// Every run's rows.
  public var records: [RunRecord]
  /// The highest footprint any request reached, in bytes.
  public var footprintPeakBytes: Int
  /// The seed set's projected time from the switch to enabled on the device (median), seconds.
  public var seedSecondsOnDevice: Double?
  /// Requests the full set took (past the cap: more than one).
  public var requests: Int
  /// The most entries one request carried.
  public var entriesPerRequest: Int
  /// One line per request that did not complete, empty when all did.
  public var failures: [String]

  init(_ records: [RunRecord]) {
    self.records = records
    footprintPeakBytes =
      records.map { max($0.sampledFootprintPeakBytes, $0.footprintPeakBytes) }.max() ?? 0
    seedSecondsOnDevice = Statistics.median(
      records.filter { $0.phase == "seed" }.compactMap(\.deviceTimeToEnabledSeconds))
    requests = records.filter { $0.phase == "full" }.compactMap(\.requests).max() ?? 0
    entriesPerRequest = records.map(\.entries).max() ?? 0
    failures = records.filter { $0.status != .ok }.map {
      "the \($0.phase) request did not complete (\($0.status.rawValue)\($0.detail.isEmpty ? "" : ": " + $0.detail))"
    }
  }
}

/// Everything one `calldir gate` run found, both halves.
public struct TeamGateResult: Sendable {
  public var settings: GateSettings
  /// The head's data, and the base revision's when the gate compared them.
  public var head: DataFigures
  public var base: DataFigures?
  /// The base the strategies read (the largest by entries).
  public var largest: String
  /// The update from the base revision's data, when there is one.
  public var update: UpdateCost?
  public var load: LoadFigures?
  /// Instructions per entry of the largest base, now and at the base revision (data-dependent:
  /// reported, not gated).
  public var headInstructionsPerEntry: Double?
  public var baseInstructionsPerEntry: Double?
  /// Why calldir's A/B did not run; nil when it ran.
  public var skippedCode: String?
  /// The A/B's rows and comparison, when it ran.
  public var abRecords: [RunRecord] = []
  public var comparison: ABComparison?
  /// Apple's processor's logs of the Live Caller ID Lookup datasets (`--lcidl-log`), one per
  /// dataset.
  public var processorLogs: [ProcessorLog] = []
  /// Each budget's trend over the history (``GateHistory``), by ``BudgetCheck/seriesName``.
  public var trends: [String: BudgetTrend] = [:]
  /// Why the report shows no time to the limit, when a history was read.
  public var historyNote: String?

  init(settings: GateSettings, head: DataFigures, base: DataFigures?, largest: String) {
    (self.settings, self.head, self.base, self.largest) = (settings, head, base, largest)
  }

  /// One budget, and what the data measured against it.
  public struct BudgetCheck: Sendable, Equatable {
    /// The setting that bounds it (`budgets.update-percent`).
    public var key: String
    /// What is measured.
    public var name: String
    /// The figure and the budget, as the report prints them.
    public var figure: String
    public var budget: String
    /// The figure as a share of the budget (above 1: over), for the chart.
    public var share: Double
    public var passed: Bool
    /// Whether the settings list it under `report-only`: shown, never failing the gate.
    public var reportOnly = false
    /// The figure in the setting's unit, what `--write-settings` budgets from.
    public var value: Double
    /// The limit, in `value`'s unit, and that unit.
    public var limit: Double
    public var unit: BudgetUnit
    /// How the figure moved over the history's last commits (`calldir gate --history`).
    public var trend: BudgetTrend?

    /// The history's metric for this figure: its setting and its name, since one setting
    /// bounds one figure per Live Caller ID Lookup dataset.
    public var seriesName: String { key + ": " + name }

    /// What is left under the limit: "0.9 MiB (22%)", or "none: 0.2 MiB over".
    public var roomLeft: String {
      let room = limit - value
      guard room >= 0 else { return "none: \(unit.format(-room)) over" }
      let share = limit > 0 ? room / limit * 100 : 0
      return "\(unit.format(room)) (\(Int(share.rounded(.down)))%)"
    }
  }

  /// Every data budget, with the figure measured (a budget whose figure was not measured, such
  /// as the update's bytes without a base revision, is left out).
  public var budgetChecks: [BudgetCheck] {
    let budgets = settings.budgets
    var checks: [BudgetCheck] = []
    func add(
      _ key: String, _ name: String, _ figure: String, _ budget: String, _ value: Double,
      _ limit: Double, _ kind: BudgetUnit, unit: Double = 1
    ) {
      let share = limit > 0 ? value / limit : (value > 0 ? .infinity : 0)
      let path = "budgets." + key
      var check = BudgetCheck(
        key: path, name: name, figure: figure, budget: budget, share: share,
        passed: value <= limit, reportOnly: settings.reportOnly.contains(path),
        value: value * unit, limit: limit * unit, unit: kind)
      check.trend = trends[check.seriesName]
      checks.append(check)
    }
    if let load {
      add(
        "footprint-margin-percent", "extension footprint",
        ByteCount.format(load.footprintPeakBytes),
        "≤ \(ByteCount.format(budgets.footprintBytes)) (\(ByteCount.format(budgets.memoryLimitBytes)) less \(GateSettings.format(budgets.footprintMargin * 100))%)",
        Double(load.footprintPeakBytes), Double(budgets.footprintBytes), .bytes)
      if let seconds = load.seedSecondsOnDevice {
        add(
          "seed-seconds-to-enabled", "seed set to enabled on \(budgets.device)",
          String(format: "%.2f s", seconds),
          "≤ \(GateSettings.format(budgets.seedSecondsToEnabled)) s", seconds,
          budgets.seedSecondsToEnabled, .seconds)
      }
      add(
        "entries-per-request", "entries per request", "\(load.entriesPerRequest)",
        "≤ \(budgets.entriesPerRequest)",
        Double(load.entriesPerRequest), Double(budgets.entriesPerRequest), .count)
      add(
        "requests", "requests, enabling to the full set", "\(load.requests)",
        "≤ \(budgets.requests)",
        Double(load.requests), Double(budgets.requests), .count)
    }
    if let update {
      let held = update.heldBytes > 0 ? update.heldBytes : update.fullBytes
      add(
        "update-percent", "update download",
        String(
          format: "%@ of the %@ clients hold (%.1f%%)", ByteCount.format(update.downloadBytes),
          ByteCount.format(held), update.share * 100),
        "≤ \(GateSettings.format(budgets.updateShare * 100))% of what clients hold", update.share,
        budgets.updateShare, .percent, unit: 100)
      let entries = update.entries
      // Nine in ten of the held numbers gone: say what it is, not only how much.
      let replaced = entries.held > 0 && entries.removed * 10 >= entries.held * 9
      add(
        "changed-entries-percent", "numbers changed",
        String(
          format: "%d of %d (%.1f%%: %d added, %d removed, %d relabelled)", entries.changed,
          entries.held, entries.share * 100, entries.added, entries.removed, entries.relabelled)
          + (replaced ? ", the directory replaced outright" : ""),
        "≤ \(GateSettings.format(budgets.changedEntriesShare * 100))% of the numbers clients hold",
        entries.share, budgets.changedEntriesShare, .percent, unit: 100)
    }
    add(
      "full-install-mib", "full install",
      "\(ByteCount.format(head.totalBytes)) (\(head.bases.count) base\(head.bases.count == 1 ? "" : "s"))",
      "≤ \(ByteCount.format(budgets.fullInstallBytes))", Double(head.totalBytes),
      Double(budgets.fullInstallBytes), .bytes)
    for log in processorLogs {
      let name = "Live Caller ID Lookup \(log.displayName(among: processorLogs))"
      if let milliseconds = log.slowestShardMilliseconds {
        add(
          "lcidl-server-ms", "\(name): server time per query",
          String(
            format: "%.1f ms (slowest of %d shards%@, one thread; %.1f ms on all cores)",
            milliseconds, log.shards.count,
            log.shards.contains { $0.source != nil } ? ", each processed alone" : "",
            log.slowestShardMultiThreadedMilliseconds ?? 0),
          "≤ \(GateSettings.format(budgets.lcidlServerMilliseconds)) ms", milliseconds,
          budgets.lcidlServerMilliseconds, .milliseconds)
      }
      if let kilobytes = log.responseKB {
        add(
          "lcidl-response-kb", "\(name): reply per query",
          String(format: "%.1f KB (%d ciphertexts)", kilobytes, log.responseCiphertexts ?? 0),
          "≤ \(GateSettings.format(budgets.lcidlResponseKB)) KB", kilobytes,
          budgets.lcidlResponseKB,
          .kilobytes)
      }
    }
    add(
      "label-bytes-per-entry", "label bytes per labelled entry",
      String(format: "%.1f", head.labelBytesPerEntry),
      "≤ \(GateSettings.format(budgets.labelBytesPerEntry))", head.labelBytesPerEntry,
      budgets.labelBytesPerEntry, .plain)
    return checks
  }

  /// Rows Apple's processor lost, one line per shard that lost some.
  public var processorFailures: [String] {
    processorLogs.flatMap { log in
      log.shardsWithLostRows.map {
        "Live Caller ID Lookup \(log.displayName(among: processorLogs)) shard \($0.id)\($0.source.map { " (\($0.split(separator: "/").last ?? ""))" } ?? ""): the processor's table holds \($0.entries) of its \($0.rows) rows (rows lost: its automatic sizing drops a large value that finds no room; use the export's fixed-size configuration)"
      }
    }
  }

  /// The data's verdict: every budget, every request completed, and no row the processor lost.
  public var dataVerdict: GateVerdict {
    GateVerdict(
      failures: (load?.failures ?? []) + processorFailures.map { "data: " + $0 }
        + budgetChecks.filter { !$0.passed && !$0.reportOnly }.map {
          "data: \($0.name) \($0.figure), over \($0.budget)"
        })
  }

  /// calldir's verdict: the A/B against its thresholds; passed (and skipped) when it did not run.
  public var codeVerdict: GateVerdict {
    guard let comparison else { return GateVerdict() }
    let failures = comparison.evaluate(
      maximumRegression: settings.thresholds.maximumRegression,
      maximumCountRegression: settings.thresholds.maximumCountRegression
    ).failures
    let incomplete = abRecords.filter { $0.run == .load && $0.status != .ok }.map {
      "\($0.strategy) (\($0.build == "A" ? "base" : "head")) run \($0.repeatIndex): \($0.status.rawValue)"
    }
    return GateVerdict(failures: (incomplete + failures).map { "calldir: " + $0 })
  }

  /// Both verdicts, calldir's first.
  public var verdict: GateVerdict { codeVerdict + dataVerdict }
}
