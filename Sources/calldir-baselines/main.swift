// The articles' readers, each feeding the same checking context as calldir's own strategies and
// reporting the same measurements. They need Foundation, so they live in this executable and the
// lean `calldir-extension` stays lean; the harness measures each binary's idle baseline apart.
//
// usage: calldir-baselines --strategy baseline-2gis|baseline-jsonl|baseline-text --input PATH
//                          [--kind identification|blocking] [--max-entries N]
//        calldir-baselines --mode saracroche-app --plan FILE --container DIR --host-dir DIR
//                          --bundle-id ID --extension PATH
//        calldir-baselines --mode saracroche-extension --container DIR --request complete|incremental
//                          [--max-entries N]
//        calldir-baselines --mode saracroche-edit --action block|remove_block|reset --number N
//                          --container DIR --host-dir DIR --bundle-id ID --extension PATH
// The saracroche modes are the pattern blocker's method (issue 54's anchor): the app expands each
// pattern into strings and hands the extension 5,000 a request through shared defaults; the
// app mode prints `key value` lines (requests, entries, seconds, peaks).
// exit: 0 completed, 1 usage, 3 unreadable input, 4 request failed (iOS code reported)

import CallDirectoryCore
import ExtensionReport
import Foundation
import SystemCalls

func printError(_ message: String) {
  StandardError.write(("calldir-baselines: " + message + "\n"))
}

/// The saracroche modes, when `--mode` names one; nil otherwise.
func runSaracroche() -> Int32? {
  let all = Array(CommandLine.arguments.dropFirst())
  guard let modeIndex = all.firstIndex(of: "--mode"), modeIndex + 1 < all.count else { return nil }
  do {
    let arguments = try ExtensionArguments(
      all,
      allowed: [
        "mode", "plan", "container", "host-dir", "bundle-id", "extension", "request", "max-entries",
        "action", "number",
      ])
    guard let container = arguments["container"] else { throw UsageError("missing --container") }
    switch arguments["mode"] {
    case "saracroche-extension":
      return SaracrocheExtension.serve(
        container: container, incremental: arguments["request"] == "incremental")
    case "saracroche-app":
      guard let plan = arguments["plan"], let host = arguments["host-dir"],
        let bundleID = arguments["bundle-id"], let executable = arguments["extension"]
      else { throw UsageError("saracroche-app needs --plan, --host-dir, --bundle-id, --extension") }
      guard let text = try? String(contentsOfFile: plan, encoding: .utf8) else {
        throw BaselineError.unreadable(path: plan)
      }
      let patterns = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
      let summary = try SaracrocheApp.run(
        patterns: patterns, container: container, hostDirectory: host, bundleID: bundleID,
        extensionExecutable: executable)
      print("background_runs \(summary.backgroundRuns)")
      print("requests \(summary.requests)")
      print("entries \(summary.entries)")
      print("seconds \(summary.seconds)")
      print("extension_footprint_peak_bytes \(summary.extensionFootprintPeak)")
      print("extension_idle_footprint_bytes \(summary.extensionIdleFootprint)")
      print("app_peak_rss_after_expanding_bytes \(summary.peakRSSAfterExpanding)")
      return 0
    case "saracroche-edit":
      guard let host = arguments["host-dir"], let bundleID = arguments["bundle-id"],
        let executable = arguments["extension"], let action = arguments["action"],
        ["block", "remove_block", "reset"].contains(action)
      else {
        throw UsageError(
          "saracroche-edit needs --action block|remove_block|reset, --host-dir, --bundle-id, --extension"
        )
      }
      let result = try SaracrocheApp.edit(
        action: action, number: arguments["number"], container: container, hostDirectory: host,
        bundleID: bundleID, extensionExecutable: executable)
      print("requests 1")
      print("entries \(result.entries)")
      print("removals \(result.removals)")
      print("extension_cpu_s \(result.extensionCPUSeconds)")
      print("extension_footprint_peak_bytes \(result.footprintPeakBytes)")
      return 0
    default:
      throw UsageError("unknown --mode (saracroche-app, saracroche-edit or saracroche-extension)")
    }
  } catch let error as UsageError {
    printError("\(error)")
    return ExtensionExitStatus.usage
  } catch {
    printError("\(error)")
    return ExtensionExitStatus.badInput
  }
}

func run() -> Int32 {
  if let status = runSaracroche() { return status }
  let strategy: String
  let input: String
  let blocking: Bool
  var configuration = CheckingContext.Configuration()
  do {
    let arguments = try ExtensionArguments(
      Array(CommandLine.arguments.dropFirst()),
      allowed: ["strategy", "input", "kind", "max-entries"])
    guard let name = arguments["strategy"] else { throw UsageError("missing --strategy") }
    guard ["baseline-2gis", "baseline-jsonl", "baseline-text"].contains(name) else {
      throw UsageError(
        "unknown strategy '\(name)' (expected baseline-2gis, baseline-jsonl or baseline-text)")
    }
    strategy = name
    guard let path = arguments["input"] else { throw UsageError("missing --input PATH") }
    input = path
    let kind = arguments["kind"] ?? "identification"
    guard kind == "identification" || kind == "blocking" else {
      throw UsageError("--kind must be identification or blocking, got '\(kind)'")
    }
    blocking = kind == "blocking"
    if let maximum = try arguments.integer("max-entries") {
      guard maximum > 0 else { throw UsageError("--max-entries must be positive") }
      configuration.maximumAllowedEntries = maximum
    }
  } catch {
    printError("\(error)")
    return ExtensionExitStatus.usage
  }

  let context = CheckingContext(isIncremental: false, configuration: configuration)
  let measurement = LoadMeasurement()
  var handed = 0
  func add(_ number: Int64, _ label: String) {
    if blocking {
      context.addBlockingEntry(withNextSequentialPhoneNumber: number)
    } else {
      context.addIdentificationEntry(withNextSequentialPhoneNumber: number, label: label)
    }
    handed += 1
  }
  var failure: String?
  do {
    switch strategy {
    case "baseline-2gis":
      var reader = try TwoGISReader(path: input)
      while let (phone, name) = try reader.next() { add(Int64(bitPattern: phone), name) }
    case "baseline-jsonl":
      try ChineseJSONLinesReader.forEachEntry(path: input, add)
    default:
      try RussianTextLineReader.forEachEntry(path: input, add)
    }
    context.completeRequest(completionHandler: nil)
  } catch {
    failure = "\(input): \(error)"
    context.cancelRequest(withError: error)
  }
  var report = measurement.finish(entries: handed)
  let status = report.conclude(inputError: failure, outcome: context.outcome)
  SideChannel.send(report)
  if let message = report.message { printError(message) }
  return status
}

StandardStreams.prepare()
exit(run())
