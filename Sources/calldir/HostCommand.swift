import ArgumentParser
import CallDirectoryApp
import CallDirectoryCore
import CallDirectoryHost
import DirectoryContainer
import Foundation
import PhoneNormalization
import ProcessMetrics
import ProcessSpawning
import SystemCalls

/// Options every `host` and `app` subcommand shares.
struct HostOptions: ParsableArguments {
  @Option(
    name: .long, help: "The simulated system's folder (CallDirectory.db).", completion: .directory)
  var hostDir: String = ".calldir/host"

  func validate() throws { _ = try nonEmptyPath(hostDir) }

  @Option(name: .long, help: "Kill an extension whose footprint passes this size (error 2).")
  var memoryLimit = ByteSize(bytes: SystemLimits.defaultMemoryLimitBytes)

  @Option(
    name: .long, parsing: .unconditional,
    help: "Kill an extension still loading after this many seconds (error 2).",
    transform: finiteNumber(in: OptionBounds.seconds))
  var timeout: Double = SimulatedSystem.defaultTimeoutSeconds

  @Option(
    name: .long, parsing: .unconditional,
    help: "The system's maximumAllowedEntries (at most one less per load).",
    transform: wholeNumber(in: 2...OptionBounds.entries.upperBound))
  var maxEntries: Int = SystemLimits.maximumAllowedEntries

  @Option(
    name: .long,
    help: """
      What the cap counts: per-request (this request's additions, both lists together, as \
      iOS 26.1's loader counts; chunked installs past 1,999,999 rely on it) or per-extension \
      (what the extension holds after the request, an older reading).
      """)
  var capScope: CheckingContext.CapScope = .perRequest

  @Option(
    name: .long, parsing: .unconditional,
    help: """
      Kill a request that sends more than this many entries (error 2), as a device's watchdog \
      kills a request that runs too long. Default: never.
      """, transform: wholeNumber(in: 1...OptionBounds.entries.upperBound))
  var watchdogEntries: Int?

  @Option(
    name: .long,
    help: "The extension's allocator: auto (jemalloc when installed, as bench), jemalloc, system.")
  var allocator: MeasuredAllocator.Choice = .auto

  @Option(
    name: .long, help: "The extension executable (default: calldir-extension beside calldir).",
    transform: nonEmptyPath)
  var `extension`: String?

  func system() throws -> SimulatedSystem {
    let system = try SimulatedSystem(hostDirectory: hostDir)
    system.limits.memoryLimitBytes = memoryLimit.bytes
    guard timeout > 0 else { throw ValidationError("--timeout must be above 0") }
    system.limits.timeoutSeconds = timeout
    guard maxEntries > 1 else { throw ValidationError("--max-entries must be above 1") }
    system.contract.maximumAllowedEntries = maxEntries
    system.contract.capScope = capScope
    if let watchdogEntries {
      guard watchdogEntries >= 1 else {
        throw ValidationError("--watchdog-entries must be at least 1")
      }
      system.watchdogEntries = watchdogEntries
    }
    system.allocator = try MeasuredAllocator.resolve(allocator)
    return system
  }

  func extensionPath() throws -> String {
    let path = `extension` ?? (SiblingExecutables.directory() + "/calldir-extension")
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw ValidationError(
        "no extension executable at \(path); build it (swift build) or pass --extension")
    }
    return path
  }
}

/// One line on an extension as the system sees it: state, installed entries, last request.
func extensionStatusLine(_ store: CallDirectoryStore, _ bundleID: String) throws -> String {
  let counts = try store.counts(of: bundleID)
  var line =
    "\(bundleID): \(try store.state(of: bundleID)), \(counts.identification) identification and \(counts.blocking) blocking entries"
  if let last = try store.lastRequest(of: bundleID) {
    line += "; last request \(last.outcome)"
    if let code = last.errorCode { line += " (code \(code)): \(last.detail)" }
  }
  return line
}

/// Prints a request's result; throws exit status 3 when it failed.
func report(_ result: RequestResult, what: String) throws {
  if let error = result.error {
    StandardError.write(
      "calldir: \(what) failed: \(result.detail.isEmpty ? "\(error)" : result.detail) (code \(error.code))\n"
    )
    throw ExitStatus.requestFailed.exitCode
  }
  let what =
    result.incremental
    ? "\(what): \(result.entries + result.removals) entries changed incrementally (\(result.entries) added, \(result.removals) removed)"
    : "\(what): \(result.entries) entries installed"
  print(
    String(
      format: "%@ in %.2f s (store ingest %.0f entries/s, extension footprint peak %@)",
      what, result.wallSeconds, result.ingestRate, ByteCount.format(result.footprintPeakBytes)))
}

/// An extension and the App Group container it reads.
struct ExtensionTarget: ParsableArguments {
  @Argument(help: "The extension's bundle identifier.", transform: bundleIdentifier)
  var bundleID: String
  @Option(
    name: .long, help: "The App Group container the extension reads.", completion: .directory,
    transform: nonEmptyPath)
  var container: String
}

struct HostCommand: ParsableCommand {
  /// The exit statuses of a command that makes a request of the simulated system.
  static let requestExitStatuses = """
    Exit statuses: 0 done; 1 usage or input error; 3 the request failed with an iOS Call \
    Directory error (its code is printed: 2 loadingInterrupted, 3 entriesOutOfOrder, \
    4 duplicateEntries, 5 maximumEntriesExceeded, 6 extensionDisabled, 7 currentlyLoading, \
    8 unexpectedIncrementalRemoval). A failed request leaves the installed entries as they were.
    """
  /// The exit statuses of a command that only reads.
  static let readExitStatuses = "Exit statuses: 0 done; 1 usage or input error."

  static let configuration = CommandConfiguration(
    commandName: "host",
    abstract: "The simulated iOS call directory service: Settings, reloads, lookups.",
    discussion: requestExitStatuses,
    subcommands: [Enable.self, Disable.self, Reload.self, Lookup.self, Status.self])

  struct Enable: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Turn an extension on in Settings: a complete load follows; if it fails, back off.",
      discussion: HostCommand.requestExitStatuses)
    @OptionGroup var target: ExtensionTarget
    @OptionGroup var options: HostOptions

    func run() throws {
      // As a user's Settings switch: the system runs a complete load of the container.
      let result = try options.system().enable(
        target.bundleID,
        runner: .process(executable: try options.extensionPath(), container: target.container))
      try report(result, what: "enable \(target.bundleID)")
    }
  }

  struct Disable: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Turn an extension off: lookups ignore it, its entries are kept.",
      discussion: HostCommand.requestExitStatuses)
    @Argument(help: "The extension's bundle identifier.", transform: bundleIdentifier)
    var bundleID: String
    @OptionGroup var options: HostOptions

    func run() throws {
      try options.system().disable(bundleID)
      print("disabled \(bundleID); its entries are kept for when it is enabled again")
    }
  }

  struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "reloadExtension(withIdentifier:): a new request to an enabled extension.",
      discussion: HostCommand.requestExitStatuses)
    @OptionGroup var target: ExtensionTarget
    @Flag(
      name: .long, help: "Ask for an incremental request (granted once a complete load succeeded).")
    var incremental = false
    @OptionGroup var options: HostOptions

    func run() throws {
      let manager = SimulatedCallDirectoryManager(
        system: try options.system(), executable: try options.extensionPath(),
        container: target.container)
      let result = try manager.reloadExtension(target.bundleID, incremental: incremental)
      try ContainerApp(container: target.container).recordRequest(succeeded: result.succeeded)
      try report(result, what: "reload \(target.bundleID)")
    }
  }

  struct Lookup: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "What an incoming call from a number shows: its label, blocked, or unknown.",
      discussion: """
        The number is read as `calldir normalize` and `compile` read it (libphonenumber's rules): \
        separators are ignored, an extension is dropped, +CC and the country's own international \
        prefixes are international forms, its national prefix is dropped (8 in Russia, the (0) \
        of +44 (0)20). \
        Without --country every number is international (CallKit digits or a + form); with it, \
        national forms too (8 495 123-45-67 with RU).
        Exit statuses: 0 done (a number found or not); 1 usage or input error.
        """)
    @Argument(
      help:
        "The number as written: 74951234567, +7 495 123-45-67, or with --country 8 (495) 123-45-67."
    )
    var number: String
    @Option(
      help: "The country national forms belong to (ISO code); none: international forms only.")
    var country: String?
    @Option(help: "How much of the number is checked: possible or valid.")
    var validate: PhoneNormalizer.Validation = .possible
    @Option(
      name: .long,
      help:
        "An App Group container: also say which of its pattern rules (rule bases) holds the number.",
      completion: .directory, transform: nonEmptyPath)
    var container: String?
    @OptionGroup var options: HostOptions

    func run() throws {
      let parsed: Int64
      do {
        parsed = try PhoneNormalizer(country: country, validation: validate).normalize(number)
      } catch {
        throw ValidationError("'\(number)' is not a phone number: \(error)")
      }
      print(try options.system().lookup(parsed))
      guard let container else { return }
      do {
        let rules = try RuleLookup.ranges(holding: parsed, inContainer: container)
        if rules.isEmpty { print("no pattern rule of \(container) holds \(parsed)") }
        for (base, range) in rules {
          print(
            "\(base): rule \(range.rule.isEmpty ? "-" : range.rule), range \(range.first) … \(range.last) (\(range.count) numbers)\(range.label.isEmpty ? "" : ", label \(range.label)")"
          )
        }
      } catch {
        throw ValidationError("\(container): \(error)")
      }
    }
  }

  struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Extensions, their state and entries.", discussion: HostCommand.readExitStatuses)
    @OptionGroup var options: HostOptions

    func run() throws {
      let system = try options.system()
      let store = system.store
      let bundleIDs = try store.bundleIDs()
      if bundleIDs.isEmpty { print("no extensions in \(store.path)") }
      for bundleID in bundleIDs {
        print(try extensionStatusLine(store, bundleID))
      }
    }
  }
}
