import Foundation

/// The deterministic figures of a bench run, per profile and strategy, committed to the
/// repository (`Results/baseline.json`) so that CI can fail a build that does more work per entry
/// than the last accepted one: instruction and allocation counts do not move with the machine's
/// load, heap peaks and footprints hardly do. Wall time is never in it.
public struct BenchBaseline: Codable, Equatable, Sendable {
  /// The deterministic figures of one strategy.
  public struct Figures: Codable, Equatable, Sendable {
    public var instructionsPerEntry: Double?
    public var allocationsPerEntry: Double?
    public var heapPeakBytes: Int?
    public var footprintBytes: Int?
    public var baseVersion: Int?
    public var entries: Int

    enum CodingKeys: String, CodingKey {
      case instructionsPerEntry = "instructions_per_entry"
      case allocationsPerEntry = "allocations_per_entry"
      case heapPeakBytes = "heap_peak_bytes"
      case footprintBytes = "footprint_bytes"
      case baseVersion = "base_version"
      case entries
    }
  }

  /// `swift --version`'s first line where the figures were measured: instruction counts compare
  /// only between builds of one compiler.
  public var toolchain: String
  /// The measured processes' allocator: allocation counts and heap peaks compare only on one.
  public var allocator: String
  /// Profile → strategy → figures.
  public var profiles: [String: [String: Figures]] = [:]

  /// The most a heap peak or footprint may rise before the gate fails: 64 KiB, sixteen pages, past
  /// what the same build shows run to run.
  public static let memoryTolerance = 64 * 1024

  public init(toolchain: String, allocator: String) {
    self.toolchain = toolchain
    self.allocator = allocator
  }

  /// Records `records`' figures for their profile, replacing what it held for those strategies.
  /// Only calldir's strategies: the articles' readers are references, not what CI guards.
  public mutating func record(_ records: [RunRecord], profile: String) {
    var strategies = profiles[profile] ?? [:]
    for summary in StrategySummary.all(records)
    where summary.completedCount > 0 && !summary.isBaseline {
      strategies[summary.strategy] = Figures(
        instructionsPerEntry: summary.instructionsPerEntry,
        allocationsPerEntry: summary.medianAllocationsPerEntry,
        heapPeakBytes: summary.medianHeapPeakBytes.map { Int($0) },
        footprintBytes: summary.medianFootprintBytes.map { Int($0) },
        baseVersion: records.first { $0.strategy == summary.strategy }?.baseVersion,
        entries: summary.entries)
    }
    profiles[profile] = strategies
  }

  /// What the gate says about `records` against this baseline: failures (one line each, exit 2)
  /// and notes (improvements past the threshold, checks skipped).
  /// The rise in instructions per entry the gate tolerates by default, a fraction: the counts
  /// repeat to 0.002% run to run, so 0.5% is 250 times their noise and still fails a build with
  /// assertions on (+1.9% on ci-smoke), which 2% let through.
  public static let defaultMaximumCountRegression = 0.005

  /// - Parameter maximumRegression: the fraction instructions per entry may rise (0.005 is 0.5%).
  public func compare(
    _ records: [RunRecord], profile: String, toolchain: String, allocator: String,
    maximumRegression: Double
  ) -> (failures: [String], notes: [String]) {
    guard toolchain == self.toolchain else {
      return (
        [
          "the baseline was measured with '\(self.toolchain)', this build with '\(toolchain)': instruction counts do not compare across compilers; refresh it with --save-baseline"
        ], []
      )
    }
    guard allocator == self.allocator else {
      return (
        [
          "the baseline was measured on \(self.allocator), this run on \(allocator): pass --allocator \(self.allocator) or refresh it"
        ], []
      )
    }
    guard let expected = profiles[profile] else {
      return (
        ["the baseline has no figures for profile \(profile): refresh it with --save-baseline"], []
      )
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
    return (failures, notes)
  }

  /// Reads a baseline file.
  /// - Throws: ``BenchError`` naming the file and the problem.
  public static func read(_ path: String) throws(BenchError) -> BenchBaseline {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw BenchError("cannot read the baseline \(path)")
    }
    do {
      return try JSONDecoder().decode(BenchBaseline.self, from: data)
    } catch {
      throw BenchError("\(path) is not a calldir bench baseline: \(error.localizedDescription)")
    }
  }

  /// The baseline as stable, sorted JSON.
  public func encoded() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
  }

  /// The first line of `swift --version`, or "unknown" without a `swift` in PATH.
  public static func currentToolchain() -> String {
    BenchRunner.firstLine(ofCommand: ["swift", "--version"]) ?? "unknown"
  }

}
