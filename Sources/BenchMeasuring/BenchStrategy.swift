import Datasets
import Foundation

/// A way of loading a dataset that `calldir bench` can measure: calldir's own strategies, run by
/// the lean `calldir-extension`, and the articles' readers, run by `calldir-baselines`.
public enum BenchStrategy: String, CaseIterable, Sendable {
  case mmap
  case buffered
  case baseline2GIS = "baseline-2gis"
  case baselineJSONL = "baseline-jsonl"
  case baselineText = "baseline-text"

  /// Whether this re-implements an article's reader (a reference, not a gated strategy).
  public var isBaseline: Bool { binary == Self.baselinesBinary }

  /// The executable that runs this strategy.
  public var binary: String {
    switch self {
    case .mmap, .buffered: Self.extensionBinary
    default: Self.baselinesBinary
    }
  }

  /// The dataset form this strategy reads.
  public var inputFormat: DatasetFormat {
    switch self {
    case .mmap, .buffered: .base
    case .baseline2GIS: .twoGIS
    case .baselineJSONL: .jsonl
    case .baselineText: .text
    }
  }

  /// Where the strategy comes from, for tables and charts.
  public var source: String {
    switch self {
    case .mmap: "calldir, mmap windows"
    case .buffered: "calldir, 8 KiB read()"
    case .baseline2GIS: "2GIS article (seed 000)"
    case .baselineJSONL: "Chinese article (seed 004)"
    case .baselineText: "Russian guide (seed 003)"
    }
  }

  /// The child's arguments.
  /// - Parameters:
  ///   - input: the input file.
  ///   - kind: `identification` or `blocking`.
  ///   - maximumAllowedEntries: the system's `maximumAllowedEntries` for this run.
  public func arguments(input: String, kind: String, maximumAllowedEntries: Int) -> [String] {
    switch self {
    case .mmap, .buffered:
      ["--base", input, "--strategy", rawValue, "--max-entries", String(maximumAllowedEntries)]
    default:
      [
        "--strategy", rawValue, "--input", input, "--kind", kind, "--max-entries",
        String(maximumAllowedEntries),
      ]
    }
  }

  /// The lean extension executable.
  public static let extensionBinary = "calldir-extension"
  /// The Foundation executable with the articles' readers.
  public static let baselinesBinary = "calldir-baselines"

  /// Parses a comma-separated list such as `mmap,buffered,baseline-2gis`.
  /// - Throws: ``BenchError`` naming an unknown strategy.
  public static func parseList(_ text: String) throws(BenchError) -> [BenchStrategy] {
    var strategies: [BenchStrategy] = []
    for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      guard let strategy = BenchStrategy(rawValue: name) else {
        let known = allCases.map(\.rawValue).joined(separator: ",")
        throw BenchError("unknown strategy '\(name)' (known: \(known))")
      }
      if !strategies.contains(strategy) { strategies.append(strategy) }
    }
    guard !strategies.isEmpty else { throw BenchError("--strategies names no strategy") }
    return strategies
  }
}

/// A bench usage or input problem, in one line (exit status 1).
public struct BenchError: Error, CustomStringConvertible, Equatable {
  public let description: String
  public init(_ description: String) { self.description = description }
}
