import BaseFormat
import Datasets
import DirectoryContainer
import Foundation
import ProcessSpawning
import ReleaseFormat

/// `calldir bench update`: what a week's update costs a phone. A profile's dump is compiled
/// (version 1), churned (relabelled, removed and added rows, spread over the dump as a week's
/// changes are: uniformly, so each region changes in proportion to its size), compiled again
/// (version 2), and both are published. Then, for the bases that changed, it measures the bytes
/// to download by each method — calldir's patches (the index's cheapest chain), the full bases,
/// `zstd -19 --long=27 --patch-from` and `bsdiff` of the same files — and the time and footprint
/// of applying them on ``Configuration/applyThreads`` cores: calldir's in one `calldir-patch`
/// process (as `ContainerApp.update(from:)` applies them, each base's chain on one thread), the
/// tools' as that many `zstd -d` or `bspatch` processes at a time, one per base.
public struct UpdateBench: Sendable {
  public struct Configuration: Sendable {
    public var profile: String
    public var parameters: DatasetParameters
    /// Shares of the dump changed: half relabelled, a quarter removed, a quarter added.
    public var churns: [Double]
    public var repeats = 3
    /// Bases applied at once: calldir-patch's threads, and the tools' processes at a time.
    public var applyThreads = PatchApplier.defaultThreadCount
    /// The `calldir` and `calldir-patch` executables.
    public var calldir: String
    public var patcher: String
    public var workDirectory: String

    public init(
      profile: String, parameters: DatasetParameters, churns: [Double], calldir: String,
      patcher: String, work: String
    ) {
      self.profile = profile
      self.parameters = parameters
      self.churns = churns
      self.calldir = calldir
      self.patcher = patcher
      self.workDirectory = work
    }
  }

  /// One method at one churn.
  public struct Row: Sendable {
    public var churn: Double
    public var method: String
    public var changedBases: Int
    public var downloadBytes: Int
    /// Median over repeats of the time to apply every changed base's download, seconds.
    public var applySeconds: Double
    /// The largest footprint (RssAnon + RssShmem, sampled) of one applying process, bytes:
    /// calldir-patch's with every thread, a tool's for one base.
    public var applyFootprintBytes: Int
    /// All the new version's bases as one `zstd -19 --long=27` stream, bytes.
    public var containerCompressedBytes: Int
    /// The lower bound on a patch's size the changes allow (see `ChangeEntropy`).
    public var lowerBoundBytes: Int
    public var entriesChanged: Int
    /// The incremental request after the update (`app sync` of a container enabled and synced
    /// at version 1, then updated from the release), seconds; the same for every method (the
    /// request sends the changed entries whatever brought them).
    public var incrementalSeconds: Double
  }

  public let configuration: Configuration
  public init(configuration: Configuration) { self.configuration = configuration }

  /// The methods compared, in the CSV's order.
  public static let methods = ["calldir", "full", "zstd", "bsdiff"]

  /// The programs the comparison runs besides calldir's own (Debian's zstd and bsdiff
  /// packages; bspatch comes with bsdiff).
  public static let requiredTools = ["zstd", "bsdiff", "bspatch"]

  /// The ``requiredTools`` not found in `PATH`.
  public static func missingTools() -> [String] {
    requiredTools.filter { InstructionCounter.executableInPath($0) == nil }
  }

  /// Runs every churn.
  /// - Throws: ``BenchError`` when a required tool is missing (before anything is compiled),
  ///   a file cannot be written or a tool fails.
  public func run(progress: (String) -> Void = { _ in }) throws(BenchError) -> [Row] {
    let missing = Self.missingTools()
    guard missing.isEmpty else {
      throw BenchError(
        "bench update needs \(missing.joined(separator: ", ")) in PATH (Debian: apt-get install zstd bsdiff); nothing was compiled"
      )
    }
    let work = configuration.workDirectory
    let parameters = configuration.parameters
    let stem = "\(configuration.profile)-\(parameters.entries)-\(parameters.seed)"
    let dump = work + "/\(stem).tsv"
    do {
      try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
      if !FileManager.default.fileExists(atPath: dump) {
        progress("writing \(dump)")
        try DatasetGenerator(parameters: parameters).write(.tsv, to: dump)
      }
    } catch {
      throw BenchError("cannot write the dump in \(work): \(error)")
    }
    let old = work + "/v1"
    progress("compiling version 1")
    try compile(dump, into: old)
    var rows: [Row] = []
    for churn in configuration.churns {
      let label = String(format: "%g%%", churn * 100)
      progress("churn \(label): writing and compiling version 2")
      let churned = work + "/\(stem)-churn-\(label).tsv"
      try ChurnedDump.write(from: dump, to: churned, churn: churn, seed: parameters.seed)
      let new = work + "/v2-\(label)"
      try compile(churned, into: new)
      let releases = work + "/release-\(label)"
      try? FileManager.default.removeItem(atPath: releases)
      let index: ReleaseIndex
      do {
        let publisher = ReleasePublisher(releases: releases)
        _ = try publisher.publish(container: old)
        _ = try publisher.publish(container: new)
        index = try publisher.currentIndex()
      } catch {
        throw BenchError("cannot publish: \(error)")
      }
      var measured = try measure(churn: churn, index: index, releases: releases, progress: progress)
      let incremental = try incrementalSeconds(from: old, releases: releases, progress: progress)
      for index in measured.indices { measured[index].incrementalSeconds = incremental }
      rows += measured
    }
    return rows
  }

  private func compile(_ dump: String, into container: String) throws(BenchError) {
    try? FileManager.default.removeItem(atPath: container)
    _ = try tool(configuration.calldir, ["compile", dump, "--out", container, "--country", "RU"])
  }

  /// Runs a tool to completion; its outcome.
  @discardableResult
  private func tool(_ executable: String, _ arguments: [String]) throws(BenchError)
    -> ChildProcess.Outcome
  {
    let outcome: ChildProcess.Outcome
    do {
      outcome = try ChildProcess.run(
        executable: executable, arguments: arguments,
        limits: .init(memoryLimitBytes: nil, timeoutSeconds: 1_800),
        io: .init(descriptors: [:], wakeDescriptor: nil, onTick: nil, capturesReport: false))
    } catch {
      throw BenchError("cannot run \(executable): \(error)")
    }
    guard outcome.exitCode == 0 else {
      throw BenchError(
        "\((executable as NSString).lastPathComponent) \(arguments.first ?? "") failed: \(outcome.standardError.prefix(300))"
      )
    }
    return outcome
  }

  private func measure(
    churn: Double, index: ReleaseIndex, releases: String, progress: (String) -> Void
  ) throws(BenchError) -> [Row] {
    guard let first = index.versions.first, let latest = index.latest, index.versions.count == 2
    else { throw BenchError("the release has no two versions to compare") }
    let pairs: [(old: ReleaseIndex.Base, new: ReleaseIndex.Base)] = latest.bases.compactMap {
      base in
      guard let old = first.bases.first(where: { $0.name == base.name }), old.sha256 != base.sha256
      else { return nil }
      return (old, base)
    }
    let scratch = configuration.workDirectory + "/scratch"
    try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    func path(_ base: ReleaseIndex.Base) -> String { releases + "/" + base.file }
    // Downloads: each method's files for every changed base, made once.
    var files: [String: [(old: String, patch: String)]] = [:]
    var bytes: [String: Int] = [:]
    for (number, pair) in pairs.enumerated() {
      let chain = index.cheapestChain(from: pair.old.sha256, to: pair.new)
      bytes["full", default: 0] += pair.new.byteCount
      if chain.count == 1 {
        bytes["calldir", default: 0] += chain[0].byteCount
        files["calldir", default: []].append((path(pair.old), releases + "/" + chain[0].file))
      } else {
        bytes["calldir", default: 0] += pair.new.byteCount
      }
      let zstdPatch = scratch + "/\(number).zst"
      try tool(
        "/usr/bin/env",
        [
          "zstd", "-q", "-f", "-19", "--long=27", "--patch-from=" + path(pair.old), path(pair.new),
          "-o", zstdPatch,
        ])
      bytes["zstd", default: 0] += fileSize(zstdPatch)
      files["zstd", default: []].append((path(pair.old), zstdPatch))
      let bsdiffPatch = scratch + "/\(number).bsdiff"
      try tool("/usr/bin/env", ["bsdiff", path(pair.old), path(pair.new), bsdiffPatch])
      bytes["bsdiff", default: 0] += fileSize(bsdiffPatch)
      files["bsdiff", default: []].append((path(pair.old), bsdiffPatch))
    }
    progress("churn \(String(format: "%g%%", churn * 100)): \(pairs.count) bases changed; applying")
    let compressed = try compressedSize(latest.bases.map(path), scratch: scratch)
    let bound = ChangeEntropy.lowerBound(pairs: pairs.map { (path($0.old), path($0.new)) })
    var rows: [Row] = []
    for method in Self.methods {
      var times: [Double] = []
      var footprint = 0
      for _ in 0..<configuration.repeats {
        let (seconds, peak) = try apply(method, files[method] ?? [], scratch: scratch)
        times.append(seconds)
        footprint = max(footprint, peak)
      }
      rows.append(
        Row(
          churn: churn, method: method, changedBases: pairs.count,
          downloadBytes: bytes[method] ?? 0,
          applySeconds: Statistics.median(times) ?? 0, applyFootprintBytes: footprint,
          containerCompressedBytes: compressed, lowerBoundBytes: bound.withAdditionsBytes,
          entriesChanged: bound.entriesChanged, incrementalSeconds: 0))
    }
    return rows
  }

  /// Applies one method's downloads (`(old base, download)` pairs) on ``Configuration/applyThreads``
  /// cores; the wall time of the whole, seconds, and the largest sampled footprint of one process.
  private func apply(_ method: String, _ files: [(old: String, patch: String)], scratch: String)
    throws(BenchError) -> (seconds: Double, footprint: Int)
  {
    guard !files.isEmpty else { return (0, 0) }
    let outputs = files.indices.map { scratch + "/applied-\($0).cdb" }
    let threads = max(1, configuration.applyThreads)
    if method == "calldir" {
      let triples = zip(files, outputs).flatMap { [$0.patch, $0.old, $1] }
      let outcome = try tool(configuration.patcher, ["--threads", String(threads)] + triples)
      return (outcome.wallSeconds, outcome.sampleCount > 0 ? outcome.sampledFootprintPeakBytes : 0)
    }
    let commands: [(String, [String])] = zip(files, outputs).map { file, output in
      method == "zstd"
        ? (
          "/usr/bin/env",
          [
            "zstd", "-q", "-f", "-d", "--long=27", "--patch-from=" + file.old, file.patch, "-o",
            output,
          ]
        )
        : ("/usr/bin/env", ["bspatch", file.old, output, file.patch])
    }
    // `threads` lanes of one process at a time each, the files dealt round-robin (the bases are
    // of similar sizes); the wall time is the whole batch's.
    let lanes = (0..<min(threads, commands.count)).map { lane in
      ToolLane(commands: stride(from: lane, to: commands.count, by: threads).map { commands[$0] })
    }
    let start = MonotonicClock.system.nanoseconds()
    DispatchQueue.concurrentPerform(iterations: lanes.count) { lanes[$0].run(self.tool) }
    let seconds = Double(MonotonicClock.system.nanoseconds() - start) / 1e9
    if let failure = lanes.compactMap(\.failure).first { throw failure }
    return (seconds, lanes.map(\.footprint).max() ?? 0)
  }

  /// A copy of the version-1 container enabled and synced in a simulated system, updated from
  /// the release, then synced again: that last sync's wall time (the incremental request).
  private func incrementalSeconds(
    from old: String, releases: String, progress: (String) -> Void
  ) throws(BenchError) -> Double {
    let app = configuration.workDirectory + "/app"
    let host = configuration.workDirectory + "/host"
    try? FileManager.default.removeItem(atPath: app)
    try? FileManager.default.removeItem(atPath: host)
    do {
      try FileManager.default.copyItem(atPath: old, toPath: app)
    } catch {
      throw BenchError("cannot copy \(old): \(error)")
    }
    let bundle = "com.example.bench.update"
    let system = ["--container", app, "--host-dir", host]
    progress("enabling and syncing version 1, then updating")
    try tool(configuration.calldir, ["host", "enable", bundle] + system)
    try tool(configuration.calldir, ["app", "sync", bundle] + system)
    try tool(configuration.calldir, ["app", "update", "--from", releases, "--container", app])
    return try tool(configuration.calldir, ["app", "sync", bundle] + system).wallSeconds
  }

  private func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0
  }

  /// The bases as one `zstd -19 --long=27` stream (the download of the whole container).
  private func compressedSize(_ paths: [String], scratch: String) throws(BenchError) -> Int {
    let joined = scratch + "/container.bin"
    _ = FileManager.default.createFile(atPath: joined, contents: nil)
    guard let handle = FileHandle(forWritingAtPath: joined) else {
      throw BenchError("cannot write \(joined)")
    }
    for path in paths {
      if let data = FileManager.default.contents(atPath: path) { handle.write(data) }
    }
    try? handle.close()
    try tool(
      "/usr/bin/env", ["zstd", "-q", "-f", "-19", "--long=27", joined, "-o", joined + ".zst"])
    return fileSize(joined + ".zst")
  }

}

// Safe: written by the lane's one thread, read by the caller after the join.
/// One lane of tool processes run one after another; what it measured, read after the lane ends.
///
/// `@unchecked Sendable`: `footprint` and `failure` are written by the lane's one thread and read
/// by the caller only after `JoinableThread.forkJoin` has joined it (the join orders the writes
/// before the reads); nothing reads them while the lane runs.
private final class ToolLane: @unchecked Sendable {
  let commands: [(String, [String])]
  var footprint = 0
  var failure: BenchError?

  init(commands: [(String, [String])]) { self.commands = commands }

  func run(_ tool: (String, [String]) throws(BenchError) -> ChildProcess.Outcome) {
    for (executable, arguments) in commands {
      do throws(BenchError) {
        let outcome = try tool(executable, arguments)
        if outcome.sampleCount > 0 { footprint = max(footprint, outcome.sampledFootprintPeakBytes) }
      } catch {
        failure = error
        return
      }
    }
  }
}
