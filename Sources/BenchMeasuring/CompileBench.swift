import Datasets
import Foundation
import ProcessMetrics
import ProcessSpawning
import SystemCalls
import SystemPackage

/// `calldir bench compile`: `calldir compile` of a profile's raw dump beside `sort -u` of the same
/// file by its first column (what a compiler at the speed of sort would cost), and
/// `calldir normalize` of the same numbers, run in turn, `repeats` times each, at one memory
/// budget (compile's `--memory` is sort's `-S`). One row per run: wall and CPU seconds, peak RSS,
/// rows per second.
public struct CompileBench {
  /// What to run.
  public struct Configuration: Sendable {
    /// The profile's name, for the CSV.
    public var profile: String
    /// The dataset.
    public var parameters: DatasetParameters
    /// Runs per tool (medians are over these).
    public var repeats = 3
    /// The memory budget of both compile (`--memory`) and sort (`-S`), in bytes.
    public var memoryBytes = 256 << 20
    /// The `calldir` executable measured.
    public var calldir: String
    /// Where the dump, the numbers file and the compiled containers go.
    public var workDirectory: String
    /// The tools run, in order, a subset of ``CompileBench/tools`` (the scale bench runs only
    /// compile and sort -u: its sizes are the compile's, and a 400 M-row numbers file is 5 GB).
    public var tools = CompileBench.tools

    public init(profile: String, parameters: DatasetParameters, calldir: String, work: String) {
      self.profile = profile
      self.parameters = parameters
      self.calldir = calldir
      self.workDirectory = work
    }
  }

  /// One measured run.
  public struct Run: Sendable {
    /// `compile`, `sort -u` or `normalize`.
    public var tool: String
    /// 1-based.
    public var repeatIndex: Int
    public var wallSeconds: Double
    public var cpuSeconds: Double
    public var maxResidentBytes: Int
    /// Rows of the dump (numbers for normalize).
    public var rows: Int
    /// A compile's sort runs, merge passes and temporary bytes, from its report (0 for the
    /// other tools).
    public var sortRuns = 0
    public var mergePasses = 0
    public var temporaryBytes = 0

    /// A run's figures (what the harness records for each tool and repeat).
    public init(
      tool: String, repeatIndex: Int, wallSeconds: Double, cpuSeconds: Double = 0,
      maxResidentBytes: Int = 0, rows: Int = 4_000_000
    ) {
      self.tool = tool
      self.repeatIndex = repeatIndex
      self.wallSeconds = wallSeconds
      self.cpuSeconds = cpuSeconds
      self.maxResidentBytes = maxResidentBytes
      self.rows = rows
    }
  }

  /// The tools, in the order each repeat runs them: compile on every core (its default), the
  /// Live Caller ID Lookup export of what it compiled, compile on one core, then sort and
  /// normalize.
  public static let tools = ["compile", "export lcidl", "compile -j1", "sort -u", "normalize"]
  /// The bar: compile within this many times `sort -u` of the same file.
  public static let maximumCompileToSortRatio = 2.5
  /// The bar for `calldir normalize`, numbers per second.
  public static let minimumNormalizeRate = 2_000_000.0

  public let configuration: Configuration

  public init(configuration: Configuration) { self.configuration = configuration }

  /// Writes the dump (TSV, as `calldir generate --format tsv`) and its number column, once per
  /// dataset, then runs every tool `repeats` times in turn.
  /// - Throws: ``BenchError`` when a file cannot be written or a tool fails.
  public func run(progress: (String) -> Void = { _ in }) throws(BenchError) -> [Run] {
    let work = configuration.workDirectory
    try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let parameters = configuration.parameters
    // The parameters' whole key (a profile with other plans or labels is another dump), and
    // the slicing's version for a sliced dump.
    let stem = "\(configuration.profile)-\(ChunkedDump.cacheName(parameters))"
    let dump = work + "/\(stem).tsv"
    let numbers = work + "/\(stem).numbers"
    let rows: Int
    let tools = configuration.tools
    do {
      if !FileManager.default.fileExists(atPath: dump) {
        progress("writing \(dump)")
        try ChunkedDump.write(parameters, to: dump)
      }
      rows =
        tools.contains("normalize")
        ? try writeNumberColumn(of: dump, to: numbers) : try Self.countRows(of: dump)
    } catch {
      throw BenchError("cannot write the dump in \(work): \(error)")
    }
    var runs: [Run] = []
    var basesByTool: [String: [String]] = [:]
    for repeatIndex in 1...configuration.repeats {
      for tool in tools {
        progress("\(tool), run \(repeatIndex) of \(configuration.repeats)")
        let (run, bases) = try measure(
          tool, dump: dump, numbers: numbers, rows: rows, repeatIndex)
        runs.append(run)
        if tool.hasPrefix("compile") { basesByTool[tool] = bases }
      }
      guard !tools.contains("compile -j1") || basesByTool["compile"] == basesByTool["compile -j1"],
        basesByTool["compile"] != nil
      else {
        throw BenchError(
          "compile on \(ProcessInfo.processInfo.activeProcessorCount) threads and on one made different bases"
        )
      }
    }
    return runs
  }

  /// One run of `tool`, and for a compile the names of the bases it wrote (content-addressed:
  /// equal names are equal bytes).
  private func measure(_ tool: String, dump: String, numbers: String, rows: Int, _ index: Int)
    throws(BenchError) -> (Run, [String]?)
  {
    let out = configuration.workDirectory + "/box"
    let exported = configuration.workDirectory + "/lcidl"
    // The export reads what the compile before it wrote; every other tool starts clean.
    if tool != "export lcidl" { try? FileManager.default.removeItem(atPath: out) }
    let memory = configuration.memoryBytes
    let (executable, arguments): (String, [String]) =
      switch tool {
      case "compile", "compile -j1":
        (
          configuration.calldir,
          ["compile", dump, "--out", out, "--memory", "\(memory)", "--country", "RU"]
            + (tool == "compile -j1" ? ["--threads", "1"] : [])
        )
      case "export lcidl":
        (
          configuration.calldir,
          [
            "export", "lcidl", "--container", out, "--out", exported, "--bundle-id",
            "net.example.bench",
          ]
        )
      case "sort -u":
        (
          "/usr/bin/env",
          [
            "LC_ALL=C", "sort", "-u", "-t", "\t", "-k1,1", "-S", "\(memory)b", "-T",
            configuration.workDirectory, "-o", "/dev/null", dump,
          ]
        )
      default: (configuration.calldir, ["normalize", "--country", "RU"])
      }
    let input = Self.openDescriptor(tool == "normalize" ? numbers : "/dev/null", .readOnly)
    // A compile's report (its sort runs, merge passes and temporary space) is kept; the other
    // tools' output is not.
    let reportPath = configuration.workDirectory + "/compile-report.txt"
    let output =
      tool.hasPrefix("compile")
      ? Self.openDescriptor(reportPath, .writeOnly, options: [.create, .truncate])
      : Self.openDescriptor("/dev/null", .writeOnly)
    defer {
      close(input)
      close(output)
    }
    let outcome: ChildProcess.Outcome
    do {
      outcome = try ChildProcess.run(
        executable: executable, arguments: arguments,
        limits: .init(memoryLimitBytes: nil, timeoutSeconds: 1_800),
        io: .init(
          descriptors: [0: input, 1: output], wakeDescriptor: nil, onTick: nil,
          capturesReport: false))
    } catch {
      throw BenchError("cannot run \(tool): \(error)")
    }
    guard outcome.exitCode == 0 else {
      throw BenchError(
        "\(tool) failed (exit \(outcome.exitCode.map(String.init) ?? "signal \(outcome.signal ?? 0)")): \(outcome.standardError.prefix(300))"
      )
    }
    let bases =
      tool.hasPrefix("compile")
      ? (try? FileManager.default.contentsOfDirectory(atPath: out + "/bases"))?.sorted() : nil
    if tool != "compile" {
      try? FileManager.default.removeItem(atPath: out)
      try? FileManager.default.removeItem(atPath: exported)
    }
    var run = Run(
      tool: tool, repeatIndex: index, wallSeconds: outcome.wallSeconds,
      cpuSeconds: outcome.userSeconds + outcome.systemSeconds,
      // Sampled, not wait4's ru_maxrss: Linux keeps the spawning process's high-water mark across
      // exec when the child was started with a shared address space (posix_spawn's vfork), so a
      // small child reported the harness's own size. A child that ended before the first sample
      // (a tiny dataset) has only ru_maxrss, an upper bound.
      maxResidentBytes: outcome.sampleCount > 0 && outcome.sampledPeakResidentBytes > 0
        ? outcome.sampledPeakResidentBytes : outcome.maxResidentBytes,
      rows: rows)
    if tool.hasPrefix("compile"),
      let report = try? String(contentsOfFile: reportPath, encoding: .utf8)
    {
      (run.sortRuns, run.mergePasses, run.temporaryBytes) = Self.sortFigures(inReport: report)
    }
    return (run, bases)
  }

  /// Sort runs, merge passes and temporary bytes from a compile's report line ("sort runs 8,
  /// merge passes 0, temporary space 250 MiB in …"); zeros where it has none.
  static func sortFigures(inReport report: String) -> (runs: Int, passes: Int, bytes: Int) {
    guard let line = report.split(separator: "\n").first(where: { $0.contains("sort runs ") })
    else { return (0, 0, 0) }
    func after(_ marker: String, through end: String) -> String? {
      guard let start = line.range(of: marker)?.upperBound else { return nil }
      let rest = line[start...]
      return String(rest[..<(rest.range(of: end)?.lowerBound ?? rest.endIndex)])
    }
    let runs = after("sort runs ", through: ",").flatMap { Int($0) } ?? 0
    let passes = after("merge passes ", through: ",").flatMap { Int($0) } ?? 0
    let bytes = after("temporary space ", through: " in ").flatMap { try? ByteCount.parse($0) } ?? 0
    return (runs, passes, bytes)
  }

  /// The dump's rows: its lines, the header left out.
  static func countRows(of dump: String) throws -> Int {
    guard let input = FileHandle(forReadingAtPath: dump) else {
      throw BenchError("cannot read \(dump)")
    }
    defer { try? input.close() }
    var lines = 0
    var endsInNewline = true
    while let chunk = try input.read(upToCount: 4 << 20), !chunk.isEmpty {
      // Safe: the chunk's bytes are read only inside the closure, while `chunk` lives.
      unsafe chunk.withUnsafeBytes { bytes in
        lines += unsafe bytes.count { $0 == UInt8(ascii: "\n") }
      }
      endsInNewline = chunk.last == UInt8(ascii: "\n")
    }
    return max(0, lines + (endsInNewline ? 0 : 1) - 1)
  }

  /// The dump's first column, one number per line (what `normalize` reads), streamed; returns
  /// the rows.
  private func writeNumberColumn(of dump: String, to path: String) throws -> Int {
    guard let input = FileHandle(forReadingAtPath: dump) else {
      throw BenchError("cannot read \(dump)")
    }
    defer { try? input.close() }
    let exists = FileManager.default.fileExists(atPath: path)
    let temporary = path + ".partial"
    var output: FileHandle?
    if !exists {
      guard FileManager.default.createFile(atPath: temporary, contents: nil),
        let handle = FileHandle(forWritingAtPath: temporary)
      else { throw BenchError("cannot write \(temporary)") }
      output = handle
    }
    var column = NumberColumn()
    while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
      // Safe: the chunk's bytes are read only inside the closure, while `chunk` lives.
      unsafe chunk.withUnsafeBytes { bytes in
        for index in bytes.indices { column.take(unsafe bytes[index]) }
      }
      if let output, column.text.count >= 1 << 20 { try column.flush(to: output) }
    }
    column.finish()
    if let output {
      try column.flush(to: output)
      try output.close()
      guard FolderCalls.move(temporary, to: path) else { throw BenchError("cannot write \(path)") }
    }
    return max(column.rows, 0)
  }

  /// A dump's first column, gathered a byte at a time: every line's bytes up to its first tab
  /// (or NUL), the header line left out.
  private struct NumberColumn {
    /// Lines begun, the header included, minus one.
    var rows = -1
    var text: [UInt8] = []
    private var inLine = false
    private var inFirstColumn = true

    mutating func take(_ byte: UInt8) {
      if !inLine {
        (inLine, inFirstColumn) = (true, true)
        rows += 1
      }
      if byte == UInt8(ascii: "\n") {
        finish()
      } else if inFirstColumn {
        if byte == UInt8(ascii: "\t") || byte == 0 {
          inFirstColumn = false
        } else if rows > 0 {
          text.append(byte)
        }
      }
    }

    /// Ends the current line, if one was begun.
    mutating func finish() {
      guard inLine else { return }
      if rows > 0 { text.append(UInt8(ascii: "\n")) }
      inLine = false
    }

    mutating func flush(to output: FileHandle) throws {
      try output.write(contentsOf: text)
      text.removeAll(keepingCapacity: true)
    }
  }

  /// Medians per tool and the ratio compile / sort, as a table.
  public static func summary(_ runs: [Run]) -> String {
    var table = "tool           wall s (median)   peak RSS MiB   rows/s\n"
    for tool in tools {
      let wall = median(runs, tool) { $0.wallSeconds }
      let rss = median(runs, tool) { Double($0.maxResidentBytes) } / 1_048_576
      let rate = median(runs, tool) { Double($0.rows) / max($0.wallSeconds, 1e-9) }
      table +=
        tool.padding(toLength: 13, withPad: " ", startingAt: 0)
        + String(format: " %16.2f %14.1f %10.0f\n", wall, rss, rate)
    }
    let oneThread =
      median(runs, "compile -j1") { $0.wallSeconds } / median(runs, "sort -u") { $0.wallSeconds }
    table += String(
      format:
        "compile / sort -u: %.2f× wall time, on one thread %.2f×; %.2f× CPU time (bar: %.1f×)\n",
      compileToSortRatio(runs), oneThread, compileToSortCPURatio(runs), maximumCompileToSortRatio)
    table += String(
      format:
        "export lcidl / compile: %.2f× (the Live Caller ID Lookup export of what it compiled)\n",
      median(runs, "export lcidl") { $0.wallSeconds } / median(runs, "compile") { $0.wallSeconds })
    return table
  }

  /// One tool's median of `value` over its runs (NaN when it has none).
  public static func median(_ runs: [Run], _ tool: String, _ value: (Run) -> Double) -> Double {
    Statistics.median(runs.filter { $0.tool == tool }.map(value)) ?? .nan
  }

  /// Median CPU time of compile over sort -u's, same run.
  public static func compileToSortCPURatio(_ runs: [Run]) -> Double {
    median(runs, "compile") { $0.cpuSeconds } / median(runs, "sort -u") { $0.cpuSeconds }
  }

  /// compile's median wall time over sort -u's, measured in the same run.
  public static func compileToSortRatio(_ runs: [Run]) -> Double {
    median(runs, "compile") { $0.wallSeconds } / median(runs, "sort -u") { $0.wallSeconds }
  }
}

extension CompileBench {
  /// A descriptor for a tool's standard input or output (swift-system's `open`, in the
  /// system-call room), or -1 when `path` cannot be opened (the child then gets none).
  static func openDescriptor(
    _ path: String, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = []
  ) -> Int32 {
    (try? FileDescriptor.open(
      FilePath(path), mode, options: options,
      permissions: [.ownerReadWrite, .groupRead, .otherRead]))?
      .rawValue ?? -1
  }
}
