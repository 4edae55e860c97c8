// The articles' readers, each feeding the same checking context as calldir's own strategies and
// reporting the same measurements. They need Foundation, so they live in this executable and the
// lean `calldir-extension` stays lean; the harness measures each binary's idle baseline apart.
//
// usage: calldir-baselines --strategy baseline-2gis|baseline-jsonl|baseline-text --input PATH
//                          [--kind identification|blocking] [--max-entries N]
// exit: 0 completed, 1 usage, 3 unreadable input, 4 request failed (iOS code reported)

import CallDirectoryCore
import ExtensionReport
import Foundation
import SystemCalls

func printError(_ message: String) {
  StandardError.write(("calldir-baselines: " + message + "\n"))
}

func run() -> Int32 {
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
