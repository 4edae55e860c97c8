import BenchMeasuring

/// One metric of one strategy at one commit, as the history keeps it: a summary of the bench
/// run's repeats, never the raw rows (so the history grows by a few dozen rows per commit).
public struct HistoryFigure: Sendable, Equatable {
  /// What is measured: `load_s`, `startup_s`, `footprint_bytes`, `heap_peak_bytes`,
  /// `instructions_per_entry`, `allocations_per_entry`.
  public var metric: String
  /// The strategy measured (`mmap`, `buffered`, a baseline).
  public var strategy: String
  /// The median over the run's repeats.
  public var median: Double
  /// The smallest and largest repeat (equal to the median for a single figure).
  public var low: Double
  public var high: Double
  /// Repeats summarised.
  public var runs: Int
  /// Whether the metric repeats exactly run to run (instruction and allocation counts): its
  /// changes are exact steps, not a noisy series'.
  public var isDeterministic: Bool

  /// A figure.
  public init(
    metric: String, strategy: String, median: Double, low: Double, high: Double, runs: Int,
    isDeterministic: Bool
  ) {
    self.metric = metric
    self.strategy = strategy
    self.median = median
    self.low = low
    self.high = high
    self.runs = runs
    self.isDeterministic = isDeterministic
  }

  /// The value a trend follows: the median of a deterministic count, the smallest repeat of a
  /// noisy figure (noise on a shared machine adds time and memory, never removes it).
  public var trendValue: Double { isDeterministic ? median : low }

  /// The metrics a history keeps: name, whether deterministic, and a reader of one run.
  static let metrics:
    [(name: String, deterministic: Bool, value: @Sendable (RunRecord) -> Double?)] = [
      ("load_s", false, { $0.loadSeconds }),
      ("startup_s", false, { $0.startupSeconds }),
      ("startup_cpu_s", false, { $0.startupCPUSeconds }),
      ("footprint_bytes", false, { Double($0.footprintPeakBytes) }),
      ("heap_peak_bytes", false, { $0.heapPeakBytes.map(Double.init) }),
      ("instructions_per_entry", true, { $0.instructionsPerEntry }),
      ("allocations_per_entry", true, { $0.allocationsPerEntry }),
    ]

  /// The figures of a bench run's records: per strategy and metric, over the completed load
  /// runs (the idle runs only calibrate), those with a value.
  public static func summarise(_ records: [RunRecord]) -> [HistoryFigure] {
    let loads = records.filter { $0.status == .ok && $0.run == .load }
    var strategies: [String] = []
    for record in loads where !strategies.contains(record.strategy) {
      strategies.append(record.strategy)
    }
    var figures: [HistoryFigure] = []
    for strategy in strategies {
      let runs = loads.filter { $0.strategy == strategy }
      for metric in metrics {
        let values = runs.compactMap(metric.value).filter { $0.isFinite }.sorted()
        guard let median = Statistics.median(values), let low = values.first,
          let high = values.last
        else { continue }
        figures.append(
          HistoryFigure(
            metric: metric.name, strategy: strategy, median: median, low: low, high: high,
            runs: values.count, isDeterministic: metric.deterministic))
      }
    }
    return figures
  }
}
