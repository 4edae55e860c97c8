// The Call Directory extension under test: loads one base with one strategy into the checking
// context, then reports its own measurements on the side channel (descriptor 3) and exits.
//
// Kept lean on purpose (no Foundation, no ArgumentParser): its memory is what calldir sells.
//
// usage: calldir-extension --base PATH [--strategy mmap|buffered] [--max-entries N]
//        calldir-extension --container DIR --request complete|incremental [--max-entries N]
// The first form is bench's: one base into the checking context, report on descriptor 3. The
// second is the simulated system's: the container's manifest decides what to send, and entries
// go to the system in batches over descriptors 3 (frames) and 4 (answers).
// exit: 0 completed, 1 usage, 3 unreadable or corrupt input, 4 request failed (iOS code)

import BaseFormat
import CallDirectoryCore
import CallDirectoryLoader
import ExtensionReport
import FaultInjection
import SystemCalls
import SystemChannel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func printError(_ message: String) {
  StandardError.write("calldir-extension: " + message + "\n")
}

/// The system's request: load the container into the channel, complete or cancel.
func serve(container: String, incremental: Bool, maximumAllowedEntries: Int) -> Int32 {
  let context = ChannelContext(isIncremental: incremental)
  let loader = DirectoryLoader(container: container, maximumEntries: maximumAllowedEntries - 1)
  let summary: DirectoryLoader.Summary
  do throws(LoaderError) {
    summary = try loader.load(into: context)
  } catch {
    printError(error.description)
    context.cancelRequest(withError: error)
    return ExtensionExitStatus.badInput
  }
  // The journal says `committed` only once the system says it kept the request: a system that
  // died meanwhile leaves it pending, and the app reloads instead of believing it.
  var kept = false
  context.completeRequest { expired in kept = !expired }
  if case .failed(let failure) = context.outcome {
    printError("the system failed the request: \(failure)")
    return ExtensionExitStatus.requestFailed
  }
  if kept {
    do throws(LoaderError) {
      try loader.recordCommitted(summary)
    } catch {
      printError("the request was kept but its journal stays pending: \(error)")
    }
  }
  return ExtensionExitStatus.completed
}

func run() -> Int32 {
  if CommandLine.arguments.contains("--container") {
    do throws(UsageError) {
      let arguments = try ExtensionArguments(
        Array(CommandLine.arguments.dropFirst()), allowed: ["container", "request", "max-entries"])
      guard let container = arguments["container"] else {
        throw UsageError("missing --container DIR")
      }
      let request = arguments["request"] ?? "complete"
      guard request == "complete" || request == "incremental" else {
        throw UsageError("--request must be complete or incremental, got '\(request)'")
      }
      let maximum = try arguments.integer("max-entries") ?? SystemLimits.maximumAllowedEntries
      guard maximum > 1 else { throw UsageError("--max-entries must be above 1") }
      return serve(
        container: container, incremental: request == "incremental", maximumAllowedEntries: maximum)
    } catch {
      printError(error.description)
      return ExtensionExitStatus.usage
    }
  }
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
    if let steps = PlantedWork.steps {
      handed = try BaseLoader.load(
        path: basePath, strategy: strategy, into: PlantedWorkContext(context, steps: steps))
    } else {
      handed = try BaseLoader.load(path: basePath, strategy: strategy, into: context)
    }
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

StandardStreams.prepare()
FaultInjection.install()
exit(run())
