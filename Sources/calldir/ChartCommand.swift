import ArgumentParser
import BenchHarness
import Foundation

struct ChartCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chart",
    abstract: "Draw an SVG chart from a bench CSV.",
    discussion: """
      Top: median throughput per strategy with its min–max range, on a log scale, against the \
      articles' figures (1M entries in 30 s; 2M in 10 s). Bottom: footprint peak per strategy \
      against the memory limit. A sweep's CSV (several entry counts) is drawn as each metric \
      against N on log-log axes instead, and a two-phase CSV as a timeline per repeat.
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
    name: .long,
    help: """
      A two-phase CSV's time-to-enabled target in seconds, drawn as a line (the CSV does not \
      keep bench two-phase's --max-time-to-enabled, whose default this is).
      """)
  var maxTimeToEnabled: Double = TwoPhaseReport.defaultMaximumTimeToEnabled

  func validate() throws {
    guard maxTimeToEnabled >= 0, maxTimeToEnabled.isFinite else {
      throw ValidationError(
        "--max-time-to-enabled must be 0 seconds or more, got \(maxTimeToEnabled)")
    }
  }

  func run() throws {
    guard let data = FileManager.default.contents(atPath: csv) else {
      throw ValidationError("cannot read \(csv): no such file or not readable")
    }
    let records: [RunRecord]
    do {
      records = try RunRecord.records(fromCSV: String(decoding: data, as: UTF8.self))
    } catch {
      throw ValidationError("\(csv): \(error.description)")
    }
    guard records.contains(where: { $0.run == .load }) else {
      throw ValidationError("\(csv): no load runs to chart")
    }
    let path = out ?? ResultFiles.replacingExtension(of: csv, with: "svg")
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
}
