import CallDirectoryHost
import Foundation
import ProcessMetrics

/// saracroche's app side (cbouvat/saracroche-ios, `Services/BlockerService.swift` and
/// `Helpers/PhoneNumberHelpers.swift`), faithfully: each pattern is expanded into an array of
/// strings (`expandBlockingPattern`: every number from the pattern with `#` as 0 to it with `#`
/// as 9, `String(number)`), cut into chunks of 5,000 (`numberChunkSize`), and each chunk is set in
/// the shared defaults as `[["number": …, "name": …]]` with its action, then the extension is
/// reloaded: one incremental request per chunk. One background run (`performUpdate`) takes
/// patterns until the next would pass 1,000,000 numbers (`maxNumbersPerBatch`); the model runs
/// them back to back and counts them.
enum SaracrocheApp {
  static let numberChunkSize = 5_000
  static let maxNumbersPerBatch: Int64 = 1_000_000

  struct Summary {
    var backgroundRuns = 0
    var requests = 0
    var entries = 0
    var extensionFootprintPeak = 0
    /// The extension's footprint serving the complete request (two numbers): its idle cost.
    var extensionIdleFootprint = 0
    var seconds = 0.0
    var peakRSSAfterExpanding = 0
  }

  static func countPhoneNumbers(for pattern: String) -> Int64 {
    let hashCount = pattern.filter { $0 == "#" }.count
    return Int64(pow(10, Double(hashCount)))
  }

  static func expandBlockingPattern(_ pattern: String) -> [String] {
    if !pattern.contains("#") { return [pattern] }
    let minNumberInPrefix = Int64(pattern.replacingOccurrences(of: "#", with: "0")) ?? 0
    let maxNumberInPrefix = Int64(pattern.replacingOccurrences(of: "#", with: "9")) ?? 0
    var results: [String] = []
    for number in minNumberInPrefix...maxNumberInPrefix { results.append(String(number)) }
    return results
  }

  /// Enables the extension, then installs every pattern as the app does.
  static func run(
    patterns: [String], container: String, hostDirectory: String, bundleID: String,
    extensionExecutable: String
  ) throws -> Summary {
    let system = try SimulatedSystem(hostDirectory: hostDirectory)
    // This model's extension is Foundation on Linux, whose idle footprint is several times
    // Darwin's: under the system's 5 MiB it was killed on its first 5,000-number chunk. The
    // limit is lifted so its peak can be measured; the bench reports it beside the idle one.
    system.limits.memoryLimitBytes = 256 << 20
    let runner = SimulatedSystem.Runner.process(
      executable: extensionExecutable, container: container,
      extraArguments: ["--mode", "saracroche-extension"])
    var summary = Summary()
    let started = Date()
    let enabled = try system.enable(bundleID, runner: runner)
    guard enabled.succeeded else { throw BaselineError.requestFailed(enabled.detail) }
    summary.extensionIdleFootprint = enabled.footprintPeakBytes
    var pending = patterns[...]
    let defaults = SharedDefaults(container: container)
    // performUpdate, one background run after another, until no pattern is pending.
    while !pending.isEmpty {
      summary.backgroundRuns += 1
      var totalProcessedNumbers: Int64 = 0
      var isFirstPattern = true
      while let pattern = pending.first {
        let patternNumberCount = countPhoneNumbers(for: pattern)
        if !isFirstPattern && totalProcessedNumbers + patternNumberCount > maxNumbersPerBatch {
          break
        }
        let numbers = expandBlockingPattern(pattern)
        let chunkSize = numberChunkSize
        let chunks = stride(from: 0, to: numbers.count, by: chunkSize).map {
          Array(numbers[$0..<min($0 + chunkSize, numbers.count)])
        }
        summary.peakRSSAfterExpanding = max(summary.peakRSSAfterExpanding, peakRSS())
        for chunk in chunks {
          let numbersData = chunk.map { ["number": $0, "name": ""] }
          try defaults.set("block", forKey: "action")
          try defaults.set(numbersData, forKey: "numbers")
          let result = try system.reload(bundleID, incremental: true, runner: runner)
          guard result.succeeded else { throw BaselineError.requestFailed(result.detail) }
          summary.requests += 1
          summary.entries += result.entries
          summary.extensionFootprintPeak = max(
            summary.extensionFootprintPeak, result.footprintPeakBytes)
        }
        pending = pending.dropFirst()
        totalProcessedNumbers += patternNumberCount
        isFirstPattern = false
      }
    }
    summary.seconds = Date().timeIntervalSince(started)
    return summary
  }

  /// This process's peak resident set, bytes.
  static func peakRSS() -> Int { MemoryStatusReader.current()?.peakResidentBytes ?? 0 }

  /// One edit of the user's, as saracroche's app sends it (`BlockerService`): the action and
  /// its number set in the shared defaults, then one incremental reload; the extension applies
  /// them and clears both before it completes, so a request that fails or expires loses the
  /// edit, and the app cannot tell. The first call on a host enables the extension.
  /// - Returns: the reload's result.
  static func edit(
    action: String, number: String?, container: String, hostDirectory: String, bundleID: String,
    extensionExecutable: String
  ) throws -> RequestResult {
    let system = try SimulatedSystem(hostDirectory: hostDirectory)
    system.limits.memoryLimitBytes = 256 << 20
    let runner = SimulatedSystem.Runner.process(
      executable: extensionExecutable, container: container,
      extraArguments: ["--mode", "saracroche-extension"])
    if try system.store.state(of: bundleID) == .unknown {
      let enabled = try system.enable(bundleID, runner: runner)
      guard enabled.succeeded else { throw BaselineError.requestFailed(enabled.detail) }
    }
    let defaults = SharedDefaults(container: container)
    try defaults.set(action, forKey: "action")
    try defaults.set(
      number.map { [["number": $0, "name": ""]] } ?? [["number": "0", "name": ""]],
      forKey: "numbers")
    let result = try system.reload(bundleID, incremental: true, runner: runner)
    guard result.succeeded else { throw BaselineError.requestFailed(result.detail) }
    return result
  }
}
