import BenchMeasuring
import BenchReporting
import Foundation

extension BenchBaseline {
  /// What the gate says about `records` against this baseline: failures (one line each, exit 2)
  /// and notes (improvements past the threshold, checks skipped).
  /// The rise in instructions per entry the gate tolerates by default, a fraction: the counts
  /// repeat to 0.002% run to run, so 0.5% is 250 times their noise and still fails a build with
  /// assertions on (+1.9% on ci-smoke), which 2% let through.
  public static let defaultMaximumCountRegression = 0.005

  /// - Parameters:
  ///   - records: the run's rows.
  ///   - profile: the profile (or base) the run measured: the baseline's figures for it are read.
  ///   - toolchain: this run's `swift --version`; another toolchain's figures are not compared.
  ///   - allocator: this run's allocator; another allocator's figures are not compared.
  ///   - maximumRegression: the fraction instructions per entry may rise (0.005 is 0.5%).
  public func evaluate(
    _ records: [RunRecord], profile: String, toolchain: String, allocator: String,
    maximumRegression: Double
  ) -> GateVerdict {
    guard toolchain == self.toolchain else {
      return GateVerdict(
        failures: [
          "the baseline was measured with '\(self.toolchain)', this build with '\(toolchain)': instruction counts do not compare across compilers; refresh it with --save-baseline"
        ])
    }
    guard allocator == self.allocator else {
      return GateVerdict(
        failures: [
          "the baseline was measured on \(self.allocator), this run on \(allocator): pass --allocator \(self.allocator) or refresh it"
        ])
    }
    guard let expected = profiles[profile] else {
      return GateVerdict(failures: [
        "the baseline has no figures for profile \(profile): refresh it with --save-baseline"
      ])
    }
    var failures: [String] = []
    var notes: [String] = []
    for summary in StrategySummary.all(records) where !summary.isBaseline {
      guard let base = expected[summary.strategy] else {
        notes.append("\(summary.strategy): not in the baseline, not compared")
        continue
      }
      let name = summary.strategy
      let version = records.first { $0.strategy == name }?.baseVersion
      guard version == base.baseVersion, summary.entries == base.entries else {
        failures.append(
          "\(name): the baseline read \(base.entries) entries of base version \(base.baseVersion.map(String.init) ?? "-"), this run \(summary.entries) of \(version.map(String.init) ?? "-"): not comparable"
        )
        continue
      }
      if let now = summary.instructionsPerEntry, let then = base.instructionsPerEntry, then > 0 {
        let change = now / then - 1
        if change > maximumRegression {
          failures.append(
            String(
              format:
                "%@: instructions per entry %.1f, %.2f%% over the baseline's %.1f (limit %.1f%%)",
              name, now, change * 100, then, maximumRegression * 100))
        } else if change < -maximumRegression {
          notes.append(
            String(
              format:
                "%@: instructions per entry improved by %.2f%% (%.1f → %.1f): refresh the baseline",
              name, -change * 100, then, now))
        }
      } else if base.instructionsPerEntry != nil {
        notes.append("\(name): instructions per entry not counted in this run: check skipped")
      }
      if let now = summary.medianAllocationsPerEntry, let then = base.allocationsPerEntry {
        // Counts: any rise is more work (a thousandth of an allocation per entry absorbs
        // rounding of the stored figure).
        if now > then + 0.001 {
          failures.append(
            String(
              format: "%@: allocations per entry %.4f, up from the baseline's %.4f", name, now,
              then))
        } else if now < then - 0.001 {
          notes.append(
            String(
              format: "%@: allocations per entry improved (%.4f → %.4f): refresh the baseline",
              name, then, now))
        }
      } else if base.allocationsPerEntry != nil {
        notes.append("\(name): allocations not counted in this run: check skipped")
      }
      for (what, now, then) in [
        ("heap peak", summary.medianHeapPeakBytes.map { Int($0) }, base.heapPeakBytes),
        ("footprint", summary.medianFootprintBytes.map { Int($0) }, base.footprintBytes),
      ] {
        guard let now, let then else { continue }
        if now > then + Self.memoryTolerance {
          failures.append(
            "\(name): \(what) \(now) bytes, \(now - then) over the baseline's \(then) (limit +\(Self.memoryTolerance))"
          )
        }
      }
    }
    return GateVerdict(failures: failures, notes: notes)
  }
}
