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
      against the memory limit.
      """)

  @Argument(help: "A CSV written by calldir bench.", completion: .file(extensions: ["csv"]))
  var csv: String

  @Option(name: .long, help: "The SVG to write (default: the CSV's path with .svg).")
  var out: String?

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
    try ResultFiles.writeAtomically(
      BenchChart.svg(records: records, title: "calldir bench: \(profile)"), to: path)
    print("wrote \(path)")
  }
}
