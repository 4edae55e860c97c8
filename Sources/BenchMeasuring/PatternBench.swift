import CallDirectoryHost
import Datasets
import Foundation
import ProcessSpawning

/// `calldir bench patterns` (issue 54): France's telemarketing plan installed through the
/// simulated system two ways, side by side in one run. calldir compiles the patterns into a rule
/// base that its extension expands (`compile --block-patterns`, `host enable`, `app sync` until
/// nothing is pending); the anchor, saracroche's method (calldir-baselines' `saracroche-app`),
/// expands each pattern into strings in the app and hands the extension 5,000 numbers a request
/// through shared defaults. Each method runs in processes of its own: the app's peak is its
/// process's (the simulated system's store included, for both), the extension's the largest
/// footprint of its requests.
public struct PatternBench {
  /// One method's run.
  public struct Row: Equatable, Sendable {
    public var method: String
    public var repeatIndex: Int
    /// Requests the system ran, enabling's included.
    public var requests: Int
    /// Blocking entries the store holds after the run.
    public var storeEntries: Int
    /// Wall time from enabling to the last request, seconds.
    public var seconds: Double
    /// The app processes' largest peak resident set, bytes.
    public var appPeakBytes: Int
    /// The extension's largest footprint over the requests, bytes.
    public var extensionPeakBytes: Int
    /// The extension's footprint serving the complete request that enabling runs (no numbers,
    /// or saracroche's two): what its process costs before it loads anything.
    public var extensionIdleBytes: Int
    /// Background runs the app needed (saracroche's 1,000,000-number batches; calldir: 1).
    public var backgroundRuns: Int
  }

  /// The methods, in table order.
  public static let methods = ["calldir", "saracroche"]
  /// The plan's prefixes (ARCEP's telemarketing blocks), national digits after +33.
  public static let frenchPrefixes = NumberPlan.frenchTelemarketingPrefixes.map { String($0) }

  public var prefixes = PatternBench.frenchPrefixes
  /// `#` digits after each prefix (1 to 6): 6 (a million numbers each, the plan); fewer for a
  /// quick run.
  public var wildcards = 6
  public var repeats = 3
  public let binaryDirectory: String
  public let work: String

  public init(binaryDirectory: String, work: String) {
    self.binaryDirectory = binaryDirectory
    self.work = work
  }

  static let bundleID = "dev.calldir.bench.patterns"

  /// Runs every repeat of both methods, alternating which goes first.
  /// - Throws: `BenchError` when a tool fails or the store does not hold the plan.
  public func run(progress: (String) -> Void = { _ in }) throws -> [Row] {
    try? FileManager.default.removeItem(atPath: work)
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    // Fewer `#` keep the numbers valid: the digits they leave out are zeros.
    let hashes =
      String(repeating: "0", count: 6 - wildcards) + String(repeating: "#", count: wildcards)
    try ("pattern\tcategory\n" + prefixes.map { "+33\($0)\(hashes)\ttelemarketing\n" }.joined())
      .write(toFile: work + "/plan.tsv", atomically: true, encoding: .utf8)
    try prefixes.map { "+33\($0)\(hashes)\n" }.joined()
      .write(toFile: work + "/saracroche-plan.txt", atomically: true, encoding: .utf8)
    var rows: [Row] = []
    for index in 1...repeats {
      for method in index % 2 == 1 ? Self.methods : Self.methods.reversed() {
        progress("run \(index) of \(repeats): \(method)")
        rows.append(method == "calldir" ? try runCalldir(index) : try runAnchor(index))
      }
    }
    return rows
  }

  private func tool(_ name: String, _ arguments: [String]) throws -> (
    ChildProcess.Outcome, String
  ) {
    let outputPath = work + "/output.txt"
    // Safe: the path's C string lives for the call only, which is all `open` needs.
    let output = unsafe open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    defer { close(output) }
    let outcome = try ChildProcess.run(
      executable: binaryDirectory + "/" + name, arguments: arguments,
      limits: .init(memoryLimitBytes: nil, timeoutSeconds: 7_200),
      io: .init(
        descriptors: [1: output], wakeDescriptor: nil, onTick: nil, capturesReport: false))
    let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    guard outcome.exitCode == 0 else {
      throw BenchError(
        "\(name) \(arguments.first ?? "") failed (exit \(outcome.exitCode.map(String.init) ?? "signal")): \(outcome.standardError.prefix(300))"
      )
    }
    return (outcome, text)
  }

  private func storeEntries(_ host: String) throws -> Int {
    try CallDirectoryStore(path: host + "/" + SimulatedSystem.databaseFileName)
      .counts(of: Self.bundleID).blocking
  }

  func runCalldir(_ index: Int) throws -> Row {
    let (box, host) = (work + "/calldir-box-\(index)", work + "/calldir-host-\(index)")
    _ = try tool("calldir", ["compile", "--out", box, "--block-patterns", work + "/plan.tsv"])
    let flags = ["--container", box, "--host-dir", host]
    let (enabled, enabling) = try tool("calldir", ["host", "enable", Self.bundleID] + flags)
    let idle = Self.mebibytes(after: "footprint peak ", in: enabling[...]) ?? 0
    var row = Row(
      method: "calldir", repeatIndex: index, requests: 1, storeEntries: 0,
      seconds: enabled.wallSeconds, appPeakBytes: enabled.maxResidentBytes,
      extensionPeakBytes: idle, extensionIdleBytes: idle, backgroundRuns: 1)
    for _ in 0..<1_000 {
      let (synced, text) = try tool(
        "calldir", ["app", "sync", Self.bundleID, "--chunk-entries", "1999999"] + flags)
      row.seconds += synced.wallSeconds
      row.appPeakBytes = max(row.appPeakBytes, synced.maxResidentBytes)
      for line in text.split(separator: "\n") where line.hasPrefix("sync ") {
        row.requests += 1
        if let peak = Self.mebibytes(after: "footprint peak ", in: line) {
          row.extensionPeakBytes = max(row.extensionPeakBytes, peak)
        }
      }
      // Done: the last chunk says so, and a sync with nothing left to send does too.
      if text.contains("nothing pending") || text.contains("nothing to do") { break }
    }
    row.storeEntries = try storeEntries(host)
    try? FileManager.default.removeItem(atPath: host)
    return row
  }

  func runAnchor(_ index: Int) throws -> Row {
    let (box, host) = (work + "/saracroche-box-\(index)", work + "/saracroche-host-\(index)")
    try FileManager.default.createDirectory(atPath: box, withIntermediateDirectories: true)
    let (outcome, text) = try tool(
      "calldir-baselines",
      [
        "--mode", "saracroche-app", "--plan", work + "/saracroche-plan.txt", "--container", box,
        "--host-dir", host, "--bundle-id", Self.bundleID, "--extension",
        binaryDirectory + "/calldir-baselines",
      ])
    var values: [String: Double] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: " ")
      if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
    }
    let row = Row(
      method: "saracroche", repeatIndex: index, requests: Int(values["requests"] ?? 0) + 1,
      storeEntries: try storeEntries(host), seconds: values["seconds"] ?? outcome.wallSeconds,
      appPeakBytes: outcome.maxResidentBytes,
      extensionPeakBytes: Int(values["extension_footprint_peak_bytes"] ?? 0),
      extensionIdleBytes: Int(values["extension_idle_footprint_bytes"] ?? 0),
      backgroundRuns: Int(values["background_runs"] ?? 0))
    try? FileManager.default.removeItem(atPath: host)
    return row
  }

  /// The MiB figure after `label` in a sync line, in bytes.
  static func mebibytes(after label: String, in line: Substring) -> Int? {
    guard let range = line.range(of: label) else { return nil }
    let figure = line[range.upperBound...].prefix { $0.isNumber || $0 == "." }
    return Double(figure).map { Int($0 * 1_048_576) }
  }

}
