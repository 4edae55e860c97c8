import ArgumentParser
import BenchMeasuring
import CallDirectoryApp
import CallDirectoryHost
import CallDirectoryLoader
import DirectoryContainer
import Foundation
import SystemCalls

struct AppCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "app",
    abstract: "The app's side of the App Group container: stage bases, choose regions, sync.",
    discussion: """
      2GIS's steps, scriptable: stage a downloaded base (copied atomically, hashed, verified, \
      ready), choose regions, and sync: when the extension is enabled, request the full set \
      (phase two: a complete reload, up to the system's cap), then send what changed and the \
      rest of the set past the cap incrementally, one chunk per request (1,000,000 entries, \
      halved when the system kills a request, down to 125,000), highest priorities first. The \
      extension's journal tells the app what a Settings toggle reinstalled, so the next sync \
      resumes from there. Bases are kept after install, so disabling and enabling the \
      extension reinstalls them.
      Exit statuses: 0 done (a plan that stops at the system's cap, error 5, is done: the top \
      priorities are in and the rest is reported pending); 1 usage, input or output error (the \
      container is left as it was); 3 a request \
      failed (iOS code printed).
      """,
    subcommands: [
      Stage.self, Choose.self, Sync.self, Status.self, Update.self, Block.self, Allow.self,
      Unblock.self, Label.self, Pause.self, Resume.self, Lists.self,
    ])

  struct Stage: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add or update a base in the container.",
      discussion: """
        SIGINT or SIGTERM stops the copy, the verification or the hash within a chunk (64 KiB \
        or 65,536 entries) and leaves the container as it was.
        Exit statuses: 0 done; 1 usage, input or output error (the container is left as it \
        was); 130 or 143 stopped by SIGINT or SIGTERM (the container is left as it was).
        """)
    @Argument(
      help: "A base file (calldir generate --format base, or calldir compile).",
      transform: nonEmptyPath)
    var file: String
    @Option(name: .long, help: "The base's name in the manifest (letters, digits, - _ .).")
    var name: String
    @Option(name: .long, help: "seed, region or blocking.") var role: String
    @Option(name: .long, help: "The region code (region bases).") var region: String?
    @Option(
      name: .long, parsing: .unconditional,
      help: "Higher wins shared numbers and survives the cap first.",
      transform: wholeNumber(in: OptionBounds.priority))
    var priority: Int
    @Option(
      name: .long, parsing: .unconditional, help: "The base's version.",
      transform: wholeNumber(in: OptionBounds.count))
    var version: Int = 1
    @Option(
      name: .long, help: "The App Group container.", completion: .directory, transform: nonEmptyPath
    ) var container: String

    func run() async throws {
      LockWaitNotice.waitIfBusy(container)
      guard let parsedRole = Manifest.Role(rawValue: role) else {
        throw ValidationError("--role must be seed, region or blocking, got '\(role)'")
      }
      let (file, name, region, priority, version) = (file, name, region, priority, version)
      let app = ContainerApp(container: container)
      // In a task of its own that SIGINT and SIGTERM cancel: the stage stops within a chunk.
      let work = Task {
        try await app.stage(
          file: file, name: name, role: parsedRole, region: region, priority: priority,
          version: version)
      }
      Interruption.cancelOnSignal { work.cancel() }
      let base: Manifest.Base
      do {
        base = try await work.value
      } catch {
        Interruption.exitIfInterrupted(saying: "the stage stopped and the container is as it was")
        throw error
      }
      print(
        "\(base.name) v\(base.version): \(base.entries) \(base.kind) entries, \(base.state), sha256 \(base.sha256.prefix(16))…"
      )
    }
  }

  struct Choose: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Set the regions the user picked.",
      discussion: """
        An empty list ('' or ',,,') is a usage error, not a way to clear the choice: the next \
        sync would remove every region's entries. --all and --none say it on purpose.
        Exit statuses: 0 done; 1 usage, input or output error (the container is left as it \
        was).
        """)
    @Argument(help: "Comma-separated region codes, such as RU-495,RU-812.") var regions: String?
    @Flag(name: .long, help: "Choose every region the container publishes.") var all = false
    @Flag(name: .long, help: "Choose no region (the next sync removes their entries).")
    var none = false
    @Option(
      name: .long, help: "The App Group container.", completion: .directory, transform: nonEmptyPath
    ) var container: String

    /// The region codes named, without empty items.
    var named: [String] {
      (regions ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
    }

    func validate() throws {
      guard !container.isEmpty else { throw ValidationError("--container is empty") }
      let ways = (regions != nil ? 1 : 0) + (all ? 1 : 0) + (none ? 1 : 0)
      guard ways == 1 else {
        throw ValidationError("give region codes, --all or --none (one of them)")
      }
      if regions != nil && named.isEmpty {
        throw ValidationError(
          "'\(regions ?? "")' names no region: give region codes, or --none to choose none on purpose"
        )
      }
    }

    func run() async throws {
      LockWaitNotice.waitIfBusy(container)
      let app = ContainerApp(container: container)
      let list: [String]
      if all {
        list = try await app.chooseAllRegions()
      } else {
        list = none ? [] : named
        try await app.choose(regions: list)
      }
      print("chosen: \(list.isEmpty ? "none" : list.joined(separator: ", "))")
    }
  }

  struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Bring an enabled extension up to date (phase two, or incremental changes).",
      discussion: """
        Exit statuses: 0 done (a plan that stops at the system's cap, error 5, is done: the top \
        priorities are in and the rest is reported pending); 1 usage, input or output error \
        (the container is left as it was); 3 a request failed (iOS code printed).
        """)
    @OptionGroup var target: ExtensionTarget
    @Option(
      name: .long, parsing: .unconditional,
      help: """
        Entries each incremental request past the cap adds, kept for later syncs. Default \
        1,000,000, as urcalab/chao600 sends on older iPhones, whose requests must finish in \
        the system's time; 1,999,999 (the most a request holds) takes fewer requests on newer \
        ones. When the system kills a request (error 2) the chunk is halved, and halved again, \
        down to a floor: an eighth of the chunk, or 125,000 if that is smaller.
        """, transform: wholeNumber(in: 1...OptionBounds.entries.upperBound))
    var chunkEntries: Int?
    @Option(
      name: .long, parsing: .unconditional,
      help: """
        Split the set by number range across K extensions, BUNDLE.1 … BUNDLE.K, each reading \
        its part of the container (CONTAINER/parts/N; turn each on with calldir host enable \
        BUNDLE.N --container CONTAINER/parts/N) and each under its own cap.
        """, transform: wholeNumber(in: 2...ContainerApp.maximumParts))
    var extensions: Int?
    @OptionGroup var options: HostOptions

    func validate() throws {
      if let chunkEntries, chunkEntries < 1 {
        throw ValidationError("--chunk-entries must be at least 1, got \(chunkEntries)")
      }
      if let extensions, !(2...ContainerApp.maximumParts).contains(extensions) {
        throw ValidationError(
          "--extensions must be from 2 to \(ContainerApp.maximumParts), got \(extensions)")
      }
    }

    func run() async throws {
      LockWaitNotice.waitIfBusy(target.container)
      let app = ContainerApp(container: target.container)
      let manager = SimulatedCallDirectoryManager(
        system: try options.system(), executable: try options.extensionPath(),
        container: target.container)
      guard let extensions else {
        if let chunkEntries { try app.setChunk(chunkEntries) }
        let results = try await app.sync(
          manager: manager, bundleID: target.bundleID,
          events: { event in Self.show(event, bundleID: target.bundleID) })
        try Self.reportRequests(results, bundleID: target.bundleID, app: app)
        return
      }
      if let chunkEntries {
        for part in try app.split(into: extensions) { try part.setChunk(chunkEntries) }
      }
      // Each part's extension reads its own container: the manager spawns it on that one.
      let results = try await app.syncParts(
        manager: SimulatedCallDirectoryManager(
          system: try options.system(), executable: try options.extensionPath(),
          partsOf: target.container),
        bundleID: target.bundleID, count: extensions,
        events: { index, event in Self.show(event, bundleID: target.bundleID + ".\(index)") })
      var unknown = 0
      for part in results {
        let range = part.numberRange.map { "\($0.lowerBound)..<\($0.upperBound)" }
        print("\(part.bundleID): numbers \(range ?? "all") (\(part.part.container))")
        if let error = part.error {
          guard error.kind == .extensionNotEnabled else { throw error }
          print(
            "\(part.bundleID): not known to the system: turn it on with calldir host enable \(part.bundleID) --container \(part.part.container)"
          )
          unknown += 1
          continue
        }
        try Self.reportRequests(part.outcomes, bundleID: part.bundleID, app: part.part)
      }
      if unknown > 0 {
        throw ValidationError("\(unknown) of \(extensions) extensions are not turned on")
      }
    }

    /// A sync's event: warnings to standard error, the rest to standard output.
    static func show(_ event: SyncEvent, bundleID: String) {
      switch event {
      case .requestStarted, .requestFinished: return  // reported once the sync ends
      default: break
      }
      if event.isWarning {
        StandardError.write("calldir: warning: \(event)\n")
      } else {
        print("\(bundleID): \(event)")
      }
    }

    /// Prints a sync's requests; throws exit status 3 when the last one failed (other than at
    /// the cap).
    static func reportRequests(_ results: [RequestResult], bundleID: String, app: ContainerApp)
      throws
    {
      if results.isEmpty { print("\(bundleID): nothing to do (up to date, or not enabled)") }
      for (index, result) in results.enumerated() {
        // A chunk the system killed was retried smaller, and error 5 ends a plan past the cap
        // with the top priorities in: neither fails the sync; any other last failure does.
        let isLast = index == results.count - 1
        if let error = result.error, !isLast || error.isMaximumEntriesExceeded {
          StandardError.write(
            "calldir: sync \(bundleID): request \(index + 1) ended with code \(error.code): \(result.detail.isEmpty ? "\(error)" : result.detail)\n"
          )
          continue
        }
        try report(result, what: "sync \(bundleID)")
      }
      if results.count > 1 || results.contains(where: { !$0.succeeded }) {
        print(try app.status().install.summary)
      }
    }
  }

  struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "The container's bases and choices, and the extension as the system sees it.",
      discussion: "Exit statuses: 0 done; 1 usage or input error.")
    @Argument(
      help: "The extension's bundle identifier (adds its state in the system).",
      transform: bundleIdentifier)
    var bundleID: String?
    @Option(
      name: .long, help: "The App Group container.", completion: .directory, transform: nonEmptyPath
    ) var container: String
    @Option(
      name: .long, help: "The simulated system's folder.", completion: .directory)
    var hostDir: String = ".calldir/host"
    @Flag(name: .long, help: "List every pattern range (by default, one line per rule base).")
    var verbose = false

    func validate() throws { _ = try nonEmptyPath(hostDir) }

    /// Each pattern rule base: the numbers it holds and, with a bundle identifier, how many of
    /// them the system has installed (issue 54); with --verbose, range by range (a national
    /// plan printed 113 lines by default, issue 65, item 6).
    private func printRules(store: CallDirectoryStore?) throws {
      // A first launch's container has no manifest yet: no rule base, and no error (the
      // status above was printed, then the command exited 1, issue 65, item 2).
      guard FileManager.default.fileExists(atPath: container + "/" + Manifest.fileName) else {
        return
      }
      for base in try RuleLookup.ruleBases(inContainer: container) {
        var line = "\(base.name): \(base.entries) numbers in \(base.rangeCount) pattern ranges"
        if !verbose, let bundleID, let store {
          var installed = 0
          for range in base.ranges {
            installed += try store.installedCount(
              of: bundleID, blocking: base.kind == .blocking, numbersFrom: range.first,
              through: range.last)
          }
          let cut = base.rangeCount > base.ranges.count
          line += ", \(installed) installed" + (cut ? " in the first \(base.ranges.count)" : "")
        }
        print(line + (verbose ? "" : " (--verbose lists them)"))
        guard verbose else { continue }
        for range in base.ranges {
          var line = "  \(range.first) … \(range.last)\t\(range.count) numbers"
          if let bundleID, let store {
            let installed = try store.installedCount(
              of: bundleID, blocking: base.kind == .blocking, numbersFrom: range.first,
              through: range.last)
            line += ", \(installed) installed"
          }
          print(line + "\t\(range.rule.isEmpty ? "-" : range.rule)")
        }
        if base.rangeCount > base.ranges.count {
          print("  … and \(base.rangeCount - base.ranges.count) more ranges")
        }
      }
    }

    func run() async throws {
      let app = ContainerApp(container: container)
      let status = try app.status()
      let store = try bundleID.map { _ in try SimulatedSystem(hostDirectory: hostDir).store }
      if let bundleID, let store { print(try extensionStatusLine(store, bundleID)) }
      print(
        "full set: \(status.fullSetRequested ? "requested" : "not requested"); chosen regions: \(status.chosenRegions.isEmpty ? "none" : status.chosenRegions.joined(separator: ", "))"
      )
      print(status.install.summary)
      for base in status.bases {
        print(
          "\(base.name)\t\(base.role.rawValue)\t\(base.region ?? "-")\tv\(base.version)\t\(base.entries) \(base.kind)\tpriority \(base.priority)\t\(base.state.rawValue)"
        )
      }
      try printRules(store: store)
      // A container split across extensions (`app sync --extensions K`): each part's range,
      // its extension's state (with a bundle identifier) and what it has installed.
      guard !status.parts.isEmpty else { return }
      print("split by number range across \(status.parts.count) extensions:")
      let parts = app.existingParts()
      for (index, part) in status.parts.enumerated() {
        let range = part.numberRange.map { "\($0.lowerBound)..<\($0.upperBound)" } ?? "all"
        print("part \(index + 1): numbers \(range) (\(parts[index].container))")
        if let bundleID, let store {
          print("  " + (try extensionStatusLine(store, bundleID + ".\(index + 1)")))
        }
        print("  " + part.summary)
      }
    }
  }
}
