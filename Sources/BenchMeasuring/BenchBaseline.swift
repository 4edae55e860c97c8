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
