import CallDirectoryApp
import CallDirectoryHost
import Datasets
import DirectoryContainer
import Foundation
import ProcessSpawning

/// What one user edit costs on a full container (issue 66): a directory of 4 M numbers and
/// France's 12 M telemarketing numbers, installed whole past the cap, then per repeat each edit
/// three ways, side by side:
/// - `calldir`: the edit in the user's lists, then one sync: the incremental request of what
///   changed (point lookups over the installed bases), a pause as `removeAllBlockingEntries`,
///   a resume as a complete reload and the chunks after it;
/// - `full reload`: the same edit sent as a team without incremental edits does, a complete
///   reload and then every chunk past the cap again;
/// - `saracroche` (cbouvat/saracroche-ios's `BlockerService` and `CallDirectoryHandler`,
///   modelled in calldir-baselines): the action and its number in shared defaults, one
///   incremental request that applies and clears them (its pause is `reset`: it has none).
///
/// Each row: requests, entries added and removed, the extension's CPU time (every request's,
/// added), its footprint peak, and the time projected on a device: the extension's CPU here
/// plus the device profile's ingest of the entries sent.
public struct UserEditBench {
  public struct Row: Equatable, Sendable {
    public var method: String
    public var edit: String
    public var repeatIndex: Int
    public var requests = 0
    public var entries = 0
    public var removals = 0
    public var extensionCPUSeconds = 0.0
    public var footprintPeakBytes = 0
    public var projectedSeconds = 0.0
  }

  public var repeats = 3
  /// The directory's numbers (the `directory-4m` profile's size by default).
  public var directoryEntries = 4_000_000
  /// `#` after each of France's twelve prefixes: 6 is the plan, 12 M numbers.
  public var wildcards = 6
  public var device: DeviceProfile
  /// The user's own blocks added before anything is measured (the lookup's target counts
  /// 1,000), as one imported lists file.
  public var userEntries = 1_000
  /// `calldir lookup --repeat`'s N for each timed number, and how many times each is run;
  /// 0 skips the lookups.
  public var lookupRepeats = 100_000
  public var lookupRuns = 3
  /// Numbers `DirectoryLookup` and the store must agree on (besides the user's entries).
  public var lookupAgreementNumbers = 20_000
  public let binaryDirectory: String
  public let work: String
  static let bundleID = "com.example.user.edits"
  static let saracrocheID = "com.example.saracroche"

  public init(binaryDirectory: String, work: String, device: DeviceProfile) {
    (self.binaryDirectory, self.work, self.device) = (binaryDirectory, work, device)
  }

  private func tool(_ name: String, _ arguments: [String]) throws -> String {
    let outputPath = work + "/output.txt"
    FileManager.default.createFile(atPath: outputPath, contents: nil)
    guard let output = FileHandle(forWritingAtPath: outputPath) else {
      throw BenchError("cannot write \(outputPath)")
    }
    defer { try? output.close() }
    let outcome = try ChildProcess.run(
      executable: binaryDirectory + "/" + name, arguments: arguments,
      limits: .init(memoryLimitBytes: nil, timeoutSeconds: 7_200),
      io: .init(
        descriptors: [1: output.fileDescriptor], wakeDescriptor: nil, onTick: nil,
        capturesReport: false))
    guard outcome.exitCode == 0 else {
      throw BenchError(
        "\(name) \(arguments.first ?? "") failed (exit \(outcome.exitCode.map(String.init) ?? "signal")): \(outcome.standardError.prefix(300))"
      )
    }
    return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
  }

  /// Builds and installs the container, then measures every edit `repeats` times.
  /// - Throws: ``BenchError`` when a tool or a request fails, or a store is not what the edit
  ///   should leave.
  public func run(progress: (String) -> Void = { _ in }) async throws -> (
    rows: [Row], lookups: UserEditLookups
  ) {
    try? FileManager.default.removeItem(atPath: work)
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let box = work + "/box"
    try FileManager.default.createDirectory(
      atPath: work + "/saracroche-box", withIntermediateDirectories: true)
    progress("compiling \(directoryEntries) directory numbers and France's plan")
    _ = try tool(
      "calldir",
      [
        "generate", "--profile", "directory-4m", "--entries", String(directoryEntries),
        "--format", "tsv", "--out", work + "/directory.tsv",
      ])
    let hashes =
      String(repeating: "0", count: 6 - wildcards) + String(repeating: "#", count: wildcards)
    try
      ("pattern\tcategory\n"
      + PatternBench.frenchPrefixes.map { "+33\($0)\(hashes)\ttelemarketing\n" }.joined())
      .write(toFile: work + "/plan.tsv", atomically: true, encoding: .utf8)
    _ = try tool(
      "calldir",
      [
        "compile", work + "/directory.tsv", "--out", box, "--block-patterns", work + "/plan.tsv",
        "--max-pattern-entries", "12000000", "--quiet",
      ])
    let system = try SimulatedSystem(hostDirectory: work + "/host")
    let app = ContainerApp(container: box)
    let executable = binaryDirectory + "/calldir-extension"
    try app.requestFullSet()
    try app.setChunk(1_999_999)
    progress("installing the whole set, past the cap")
    _ = try system.enable(
      Self.bundleID, runner: .process(executable: executable, container: app.container))
    _ = try await sync(app, system, executable)
    guard try app.status().install.isUpToDate else {
      throw BenchError("the container is not installed whole: \(try app.status().install.summary)")
    }
    // A number no base holds, one inside the plan, and one of the directory's with a label.
    let fresh: Int64 = 33_999_123_456
    let inPattern =
      Int64("33\(PatternBench.frenchPrefixes[0])" + String(repeating: "0", count: 6))! + 5
    let directoryNumber = try firstIdentified(system)
    let lists = app.userLists()
    let userNumbers = (0..<Int64(userEntries)).map { 79_990_000_000 + $0 * 7_919 }
    if !userNumbers.isEmpty {
      progress("adding \(userNumbers.count) numbers the user blocked")
      var imported = UserLists()
      for number in userNumbers { _ = imported.block(number) }
      try await lists.importing(UserListsFile.encoded(imported))
      _ = try await sync(app, system, executable)
    }
    var lookups = UserEditLookups()
    if lookupRepeats > 0 {
      progress("timing lookups and checking them against the store")
      var random = SplitMix64(seed: 66)
      var tried = userNumbers + [fresh, inPattern, directoryNumber]
      let dumpNumbers = try dumpNumbers(first: lookupAgreementNumbers / 2)
      tried += dumpNumbers
      for _ in 0..<(lookupAgreementNumbers / 4) {
        // Inside France's plan, and anywhere near the directory's numbers (mostly misses).
        let prefix = PatternBench.frenchPrefixes[Int(random.next() % 12)]
        tried.append(Int64("33\(prefix)000000")! + Int64(random.next() % 1_000_000))
        let near =
          dumpNumbers.isEmpty
          ? 79_000_000_000 : dumpNumbers[Int(random.next() % UInt64(dumpNumbers.count))]
        tried.append(near + Int64(random.next() % 2_001) - 1_000)
      }
      lookups = try measureLookups(
        box: box, system: system, timed: [directoryNumber, inPattern], tried: tried)
    }
    var rows: [Row] = []
    for index in 1...repeats {
      progress("run \(index) of \(repeats)")
      let edits: [(String, () async throws -> Void)] = [
        ("block a number", { try await lists.block("+\(fresh)") }),
        ("unblock it", { try await lists.unblock("+\(fresh)") }),
        ("allow a pattern's number", { try await lists.allow("+\(inPattern)") }),
        (
          "label a directory number",
          { try await lists.label("+\(directoryNumber)", "Mine \(index)") }
        ),
        ("pause", { try await lists.pause() }),
        ("resume", { try await lists.resume() }),
        ("clear", { try await lists.clear() }),
      ]
      for (name, edit) in edits {
        try await edit()
        var row = Row(method: "calldir", edit: name, repeatIndex: index)
        add(try await sync(app, system, executable), to: &row)
        rows.append(row)
      }
      // The same first edit by full reload: the complete request, then every chunk again.
      try await lists.block("+\(fresh)")
      var full = Row(method: "full reload", edit: "block a number", repeatIndex: index)
      let complete = try system.reload(
        Self.bundleID, incremental: false,
        runner: .process(executable: executable, container: box))
      add([complete], to: &full)
      add(try await sync(app, system, executable), to: &full)
      rows.append(full)
      try await lists.clear()
      _ = try await sync(app, system, executable)
      rows += try saracroche(index, fresh: fresh, inPattern: inPattern)
    }
    return (rows, lookups)
  }

  private func saracroche(_ index: Int, fresh: Int64, inPattern: Int64) throws -> [Row] {
    var rows: [Row] = []
    for (edit, action, number) in [
      ("block a number", "block", String(fresh)), ("unblock it", "remove_block", String(fresh)),
      ("allow a pattern's number", "remove_block", String(inPattern)),
      ("pause", "reset", "0"),
    ] {
      let text = try tool(
        "calldir-baselines",
        [
          "--mode", "saracroche-edit", "--action", action, "--number", number, "--container",
          work + "/saracroche-box", "--host-dir", work + "/saracroche-host", "--bundle-id",
          Self.saracrocheID, "--extension", binaryDirectory + "/calldir-baselines",
        ])
      var figures: [String: String] = [:]
      for line in text.split(separator: "\n") {
        let parts = line.split(separator: " ", maxSplits: 1)
        if parts.count == 2 { figures[String(parts[0])] = String(parts[1]) }
      }
      var row = Row(method: "saracroche", edit: edit, repeatIndex: index, requests: 1)
      row.entries = Int(figures["entries"] ?? "") ?? 0
      row.removals = Int(figures["removals"] ?? "") ?? 0
      row.extensionCPUSeconds = Double(figures["extension_cpu_s"] ?? "") ?? 0
      row.footprintPeakBytes = Int(figures["extension_footprint_peak_bytes"] ?? "") ?? 0
      row.projectedSeconds =
        row.extensionCPUSeconds + device.projectedSeconds(identification: 0, blocking: row.entries)
      rows.append(row)
    }
    return rows
  }

  private func sync(_ app: ContainerApp, _ system: SimulatedSystem, _ executable: String)
    async throws -> [RequestResult]
  {
    let results = try await app.sync(
      manager: SimulatedCallDirectoryManager(
        system: system, executable: executable, container: app.container),
      bundleID: Self.bundleID)
    guard results.allSatisfy({ $0.succeeded }) else {
      throw BenchError("a request failed: \(results.map(\.detail))")
    }
    return results
  }

  private func add(_ results: [RequestResult], to row: inout Row) {
    for result in results {
      row.requests += 1
      row.entries += result.entries
      row.removals += result.removals
      row.extensionCPUSeconds += result.extensionCPUSeconds
      row.footprintPeakBytes = max(row.footprintPeakBytes, result.footprintPeakBytes)
      row.projectedSeconds +=
        result.extensionCPUSeconds
        + device.projectedSeconds(
          identification: result.identificationEntries, blocking: result.blockingEntries)
    }
  }

  /// The dump's first `count` numbers.
  private func dumpNumbers(first count: Int) throws -> [Int64] {
    let text = try String(contentsOfFile: work + "/directory.tsv", encoding: .utf8)
    return text.split(separator: "\n").dropFirst().prefix(count).compactMap { line in
      line.split(separator: "\t").first.flatMap { Int64($0.filter(\.isNumber)) }
    }
  }

  /// A number of the dump the system shows with a label.
  private func firstIdentified(_ system: SimulatedSystem) throws -> Int64 {
    let text = try String(contentsOfFile: work + "/directory.tsv", encoding: .utf8)
    for line in text.split(separator: "\n").dropFirst().prefix(1_000) {
      guard let field = line.split(separator: "\t").first,
        let number = Int64(field.filter(\.isNumber))
      else { continue }
      if case .identified = try system.lookup(number) { return number }
    }
    throw BenchError("no number of the dump's first 1,000 lines is identified")
  }

}
