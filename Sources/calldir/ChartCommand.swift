import ArgumentParser
import BenchMeasuring
import BenchReporting
import DirectoryContainer
import Foundation

struct ChartCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chart",
    abstract: "Draw an SVG chart from a bench CSV.",
    discussion: """
      Top: median throughput per strategy with its min–max range, on a log scale, against the \
      articles' figures (1M entries in 30 s; 2M in 10 s). Bottom: footprint peak per strategy \
      against the memory limit. A sweep's CSV (several entry counts) is drawn as each metric \
      against N on log-log axes instead, a two-phase CSV as a timeline per repeat, and a \
      compile scale's CSV (bench compile --entries A,B,…) as time and peak RSS against rows.
      Exit statuses: 0 done; 1 usage, input or output error.
      """)

  @Argument(
    help: "A CSV written by calldir bench.", completion: .file(extensions: ["csv"]),
    transform: nonEmptyPath)
  var csv: String

  @Option(
    name: .long, help: "The SVG to write (default: the CSV's path with .svg).",
    transform: nonEmptyPath)
  var out: String?

  @Option(
    name: .long, parsing: .unconditional,
    help: """
      A two-phase CSV's time-to-enabled target in seconds, drawn as a line (the CSV does not \
      keep bench two-phase's --max-time-to-enabled, whose default this is).
      """, transform: finiteNumber(in: OptionBounds.seconds))
  var maxTimeToEnabled: Double = TwoPhaseReport.defaultMaximumTimeToEnabled

  func validate() throws {
    guard maxTimeToEnabled >= 0, maxTimeToEnabled.isFinite else {
      throw ValidationError(
        "--max-time-to-enabled must be 0 seconds or more, got \(maxTimeToEnabled)")
    }
  }

  func run() throws {
    // The chart's path first, and the CSV read as a regular file of bounded size: /dev/zero
    // was read forever, and /dev/stdin got a chart at /dev/stdin.svg (issue 65, item 15).
    let path = try out ?? Self.chartBeside(csv)
    let data: [UInt8]
    do {
      data = try readWholeFile(csv, maximumByteCount: Self.maximumCSVByteCount)
    } catch .invalidArgument {
      throw ValidationError("\(csv): not a regular file (a folder, a device or a FIFO)")
    } catch .fileTooLarge {
      throw ValidationError("\(csv): larger than \(Self.maximumCSVByteCount >> 20) MiB")
    } catch {
      throw ValidationError("cannot read \(csv): \(error)")
    }
    // A spreadsheet's UTF-8 byte order mark is no part of the header, as `history add` reads it.
    let text = String(
      decoding: data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...], as: UTF8.self
    )
    if let scale = try compileScale(text) {
      try ResultFiles.writeAtomically(scale, to: path)
      print("wrote \(path)")
      return
    }
    if let drawnBy = Self.commandDrawing(text) {
      throw ValidationError(
        "\(csv): this CSV's chart is drawn by \(drawnBy), which wrote it (an SVG beside the CSV)")
    }
    let records: [RunRecord]
    do {
      records = try RunRecord.records(fromCSV: text)
    } catch {
      throw ValidationError("\(csv): \(error.description)")
    }
    guard records.contains(where: { $0.run == .load }) else {
      throw ValidationError("\(csv): no load runs to chart")
    }
    let profile = records.first?.profile ?? ""
    let sizes = Set(records.filter { $0.run == .load && $0.status == .ok }.map(\.entries))
    let svg =
      records.contains(where: { !$0.phase.isEmpty })
      ? TwoPhaseChart.svg(
        records: records, title: "calldir bench two-phase: \(profile)",
        targetSeconds: maxTimeToEnabled)
      : sizes.count > 1
        ? SweepChart.svg(
          runs: sizes.sorted().map { size in
            (size, records.filter { $0.run == .load && $0.entries == size })
          },
          title: "calldir bench: \(profile), how cost grows with N")
        : BenchChart.svg(records: records, title: "calldir bench: \(profile)")
    try ResultFiles.writeAtomically(svg, to: path)
    print("wrote \(path)")
  }

  /// The largest CSV drawn, in bytes: the largest reference CSV is under 1 MiB, and a chart
  /// of more rows than this would not be read by anyone.
  static let maximumCSVByteCount = 64 << 20

  /// The SVG beside `csv` (`x.csv` → `x.svg`).
  /// - Throws: `ValidationError` when `csv` is not a regular file (`/dev/stdin`, a pipe): a
  ///   chart beside it would be `/dev/stdin.svg`.
  static func chartBeside(_ csv: String) throws -> String {
    guard let path = ResultFiles.sidecarPath(of: csv, with: "svg") else {
      throw ValidationError("\(csv): not a regular file, so no chart goes beside it; give --out")
    }
    return path
  }

  /// The command that draws a CSV calldir writes with no run rows (no `timestamp`): `bench
  /// update`'s, `bench compile`'s and `bench patterns`' tables and `history-noise.sh`'s A/A table,
  /// identified by their own columns; nil for any other CSV.
  static func commandDrawing(_ text: String) -> String? {
    guard let header = text.split(maxSplits: 1, whereSeparator: \.isNewline).first else {
      return nil
    }
    let columns = Set(
      header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
    guard !columns.contains("timestamp") else { return nil }
    if columns.isSuperset(of: ["churn", "method", "ratio_to_full"]) {
      return "calldir bench update"
    }
    if columns.isSuperset(of: ["tool", "rows_per_s", "cpu_s"]) { return "calldir bench compile" }
    if columns.isSuperset(of: ["method", "requests", "extension_idle_bytes"]) {
      return "calldir bench patterns"
    }
    if columns.isSuperset(of: ["plan", "request", "extension_cpu_s"]) {
      return "calldir bench patterns --scales (a table: its figures print beside it)"
    }
    if columns.isSuperset(of: ["method", "edit", "projected_s"]) {
      return "calldir bench user-edits (a table: its figures print beside it)"
    }
    if columns.isSuperset(of: ["run", "strategy", "load_min_s"]) {
      return "Scripts/history-noise.sh (an A/A history's table)"
    }
    return nil
  }

  /// The chart of a `bench compile --entries A,B,…` CSV (it has `sort_runs`), or nil for any
  /// other CSV.
  /// - Throws: `ValidationError` naming the CSV when it cannot be read as one.
  private func compileScale(_ text: String) throws -> String? {
    guard let table = try? CSVTable(parsing: text), table.header.contains("sort_runs") else {
      return nil
    }
    do {
      let scale = CompileScale(points: try CompileScale.points(from: table))
      let budget = table.column("memory_budget_bytes")?.first.flatMap { Int($0) } ?? 256 << 20
      let profile = table.column("profile")?.first ?? ""
      return CompileScaleChart.svg(
        scale, budgetBytes: budget, title: "calldir compile beside sort -u, by size (\(profile))")
    } catch {
      throw ValidationError("\(csv): \(error)")
    }
  }
}
