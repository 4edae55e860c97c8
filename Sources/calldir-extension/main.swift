// The Call Directory extension under test: loads one base with one strategy into the checking
// context, then reports its own measurements on the side channel (descriptor 3) and exits.
//
// Kept lean on purpose (no Foundation, no ArgumentParser): its memory is what calldir sells.
//
// usage: calldir-extension --base PATH [--strategy mmap|buffered] [--max-entries N]
// exit: 0 completed, 1 usage, 3 unreadable or corrupt base, 4 request failed (iOS code reported)

import BaseFormat
import CallDirectoryCore
import CallDirectoryLoader
import ExtensionReport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func printError(_ message: String) {
  let line = "calldir-extension: " + message + "\n"
  _ = line.utf8CString.withUnsafeBufferPointer {
    write(STDERR_FILENO, $0.baseAddress, $0.count - 1)
  }
}

func run() -> Int32 {
  let arguments: ExtensionArguments
  let strategy: LoadStrategy
  let basePath: String
  var configuration = CheckingContext.Configuration()
  do throws(UsageError) {
    arguments = try ExtensionArguments(
      Array(CommandLine.arguments.dropFirst()), allowed: ["base", "strategy", "max-entries"])
    guard let path = arguments["base"] else { throw UsageError("missing --base PATH") }
    basePath = path
    let name = arguments["strategy"] ?? LoadStrategy.mmap.rawValue
    guard let parsed = LoadStrategy(rawValue: name) else {
      throw UsageError("unknown strategy '\(name)' (expected mmap or buffered)")
    }
    strategy = parsed
    if let maximum = try arguments.integer("max-entries") {
      guard maximum > 0 else { throw UsageError("--max-entries must be positive") }
      configuration.maximumAllowedEntries = maximum
    }
  } catch {
    printError(error.description)
    return ExtensionExitStatus.usage
  }

  let context = CheckingContext(isIncremental: false, configuration: configuration)
  let measurement = LoadMeasurement()
  var handed = 0
  var loadError: BaseFormatError?
  do throws(BaseFormatError) {
    handed = try BaseLoader.load(path: basePath, strategy: strategy, into: context)
    context.completeRequest(completionHandler: nil)
  } catch {
    loadError = error
    context.cancelRequest(withError: error)
  }
  var report = measurement.finish(entries: handed)
  let status = report.conclude(inputError: loadError?.description, outcome: context.outcome)
  SideChannel.send(report)
  if let message = report.message { printError(message) }
  return status
}

exit(run())
