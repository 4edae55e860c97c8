import ArgumentParser
import BenchHarness
import CallDirectoryApp
import CallDirectoryHost
import CallDirectoryLoader
import DirectoryContainer
import Foundation

/// What is installed, what is pending, and why installing stopped.
func progressLine(_ manifest: Manifest) -> String {
  let progress = manifest.installProgress
  guard let installed = progress.installedEntries, let total = progress.totalEntries else {
    return "installed: up to the system's cap (the extension has not counted the set yet)"
  }
  var line = "installed: the top \(installed) of \(total) entries by priority"
  if installed >= total { return line + "; nothing pending" }
  line += "; \(progress.pendingEntries) pending, next chunk \(progress.chunkEntries) entries"
  if let cap = progress.capReachedAt, installed >= cap {
    line += "; stopped: the system holds no more than \(cap) entries (error 5)"
  }
  return line
}

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
    subcommands: [Stage.self, Choose.self, Sync.self, Status.self, Update.self])

  struct Stage: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add or update a base in the container.")
    @Argument(
      help: "A base file (calldir generate --format base, or calldir compile).",
      transform: nonEmptyPath)
    var file: String
    @Option(name: .long, help: "The base's name in the manifest (letters, digits, - _ .).")
    var name: String
    @Option(name: .long, help: "seed, region or blocking.") var role: String
    @Option(name: .long, help: "The region code (region bases).") var region: String?
    @Option(name: .long, help: "Higher wins shared numbers and survives the cap first.")
    var priority: Int
    @Option(name: .long, help: "The base's version.") var version: Int = 1
    @Option(
      name: .long, help: "The App Group container.", completion: .directory, transform: nonEmptyPath
    ) var container: String

    func run() throws {
      guard let parsedRole = Manifest.Role(rawValue: role) else {
        throw ValidationError("--role must be seed, region or blocking, got '\(role)'")
      }
      let base = try ContainerApp(container: container).stage(
        file: file, name: name, role: parsedRole, region: region, priority: priority,
        version: version)
      print(
        "\(base.name) v\(base.version): \(base.entries) \(base.kind) entries, \(base.state), sha256 \(base.sha256.prefix(16))…"
      )
    }
  }

  struct Choose: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Set the regions the user picked.",
      discussion: """
        An empty list ('' or ',,,') is a usage error, not a way to clear the choice: the next \
        sync would remove every region's entries. --all and --none say it on purpose.
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

    func run() throws {
      let app = ContainerApp(container: container)
      let list: [String]
      if all {
        let manifest = try Manifest.read(container: container)
        list = manifest.bases.filter { $0.state != .retired }.compactMap(\.region)
      } else {
        list = none ? [] : named
      }
      try app.choose(regions: list)
      print("chosen: \(list.isEmpty ? "none" : list.joined(separator: ", "))")
    }
  }

  struct Sync: ParsableCommand {
    /// The most extensions a set is split across: far past the 4 Truecaller ships (the most
    /// seen in the field), and a bound on what `app status` looks for.
    static let maximumExtensions = 100
    static let configuration = CommandConfiguration(
      abstract: "Bring an enabled extension up to date (phase two, or incremental changes).")
    @OptionGroup var target: ExtensionTarget
    @Option(
      name: .long,
      help: """
        Entries each incremental request past the cap adds (kept for later syncs; default \
        1,000,000, halved on error 2 down to an eighth of it, at most 125,000).
        """)
    var chunkEntries: Int?
    @Option(
      name: .long,
      help: """
        Split the set by number range across K extensions, BUNDLE.1 … BUNDLE.K, each reading \
        its part of the container (CONTAINER/parts/N; turn each on with calldir host enable \
        BUNDLE.N --container CONTAINER/parts/N) and each under its own cap.
        """)
    var extensions: Int?
    @OptionGroup var options: HostOptions

    func validate() throws {
      if let chunkEntries, chunkEntries < 1 {
        throw ValidationError("--chunk-entries must be at least 1, got \(chunkEntries)")
      }
      if let extensions, !(2...Self.maximumExtensions).contains(extensions) {
        throw ValidationError(
          "--extensions must be from 2 to \(Self.maximumExtensions), got \(extensions)")
      }
    }

    func run() throws {
      guard let extensions else {
        try sync(ContainerApp(container: target.container), bundleID: target.bundleID)
        return
      }
      let parts = try ContainerApp(container: target.container).split(into: extensions)
      let store = try options.system().store
      var unknown: [String] = []
      for (index, part) in parts.enumerated() {
        let bundleID = target.bundleID + ".\(index + 1)"
        let range = try part.manifest().numberRange.map { "\($0.lowerBound)..<\($0.upperBound)" }
        print("\(bundleID): numbers \(range ?? "all") (\(part.container))")
        guard try store.state(of: bundleID) != .unknown else {
          print(
            "\(bundleID): not known to the system: turn it on with calldir host enable \(bundleID) --container \(part.container)"
          )
          unknown.append(bundleID)
          continue
        }
        try sync(part, bundleID: bundleID)
      }
      if !unknown.isEmpty {
        throw ValidationError("\(unknown.count) of \(extensions) extensions are not turned on")
      }
    }

    func sync(_ app: ContainerApp, bundleID: String) throws {
      if let chunkEntries { try app.setChunk(chunkEntries) }
      let results = try app.sync(
        system: try options.system(), bundleID: bundleID, executable: try options.extensionPath(),
        warn: { FileHandle.standardError.write(Data("calldir: warning: \($0)\n".utf8)) },
        note: { print("\(bundleID): \($0)") })
      if results.isEmpty { print("\(bundleID): nothing to do (up to date, or not enabled)") }
      for (index, result) in results.enumerated() {
        // A chunk the system killed was retried smaller, and error 5 ends a plan past the cap
        // with the top priorities in: neither fails the sync; any other last failure does.
        let isLast = index == results.count - 1
        if let error = result.error, !isLast || error.isMaximumEntriesExceeded {
          FileHandle.standardError.write(
            Data(
              "calldir: sync \(bundleID): request \(index + 1) ended with code \(error.code): \(result.detail.isEmpty ? "\(error)" : result.detail)\n"
                .utf8))
          continue
        }
        try report(result, what: "sync \(bundleID)")
      }
      if results.count > 1 || results.contains(where: { !$0.succeeded }) {
        print(progressLine(try app.manifest()))
      }
    }
  }

  struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "The container's bases and choices, and the extension as the system sees it.")
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

    func validate() throws { _ = try nonEmptyPath(hostDir) }

    func run() throws {
      if let bundleID {
        print(try extensionStatusLine(SimulatedSystem(hostDirectory: hostDir).store, bundleID))
      }
      let manifest = try ContainerApp(container: container).manifest()
      print(
        "full set: \(manifest.fullSetRequested ? "requested" : "not requested"); chosen regions: \(manifest.chosenRegions.isEmpty ? "none" : manifest.chosenRegions.joined(separator: ", "))"
      )
      print(progressLine(manifest))
      for base in manifest.bases {
        print(
          "\(base.name)\t\(base.role.rawValue)\t\(base.region ?? "-")\tv\(base.version)\t\(base.entries) \(base.kind)\tpriority \(base.priority)\t\(base.state.rawValue)"
        )
      }
      try printParts()
    }

    /// A container split across extensions (`app sync --extensions K`): each part's range, its
    /// extension's state (with a bundle identifier) and what it has installed.
    func printParts() throws {
      let app = ContainerApp(container: container)
      let parts = (1...Sync.maximumExtensions).lazy.map { app.part($0) }.prefix {
        FileManager.default.fileExists(atPath: $0.container + "/" + Manifest.fileName)
      }
      guard !parts.isEmpty else { return }
      print("split by number range across \(parts.count) extensions:")
      let store = try bundleID.map { _ in try SimulatedSystem(hostDirectory: hostDir).store }
      for (index, part) in parts.enumerated() {
        let manifest = try part.manifest()
        let range = manifest.numberRange.map { "\($0.lowerBound)..<\($0.upperBound)" } ?? "all"
        print("part \(index + 1): numbers \(range) (\(part.container))")
        if let bundleID, let store {
          print("  " + (try extensionStatusLine(store, bundleID + ".\(index + 1)")))
        }
        print("  " + progressLine(manifest))
      }
    }
  }
}
