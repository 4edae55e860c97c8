import ArgumentParser
import BenchMeasuring
import Datasets
import Foundation
import SystemCalls

struct GenerateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate",
    abstract: "Write a generated dataset in one format, for other tools and tests.",
    discussion: """
      The same parameters always give the same file. Formats: base (calldir's binary base), \
      tsv (a raw dump: shuffled, with duplicates, +CC numbers), jsonl (the Chinese article's \
      file), text (the Russian guide's number U+D7FF name lines), 2gis (2GIS's binary records), \
      container (an App Group container for calldir host: the entries split into --regions \
      region bases, a seed set, a blocking list, and the manifest).
      Exit statuses: 0 done; 1 usage or output error (what --out named is left as it was).
      """)

  @OptionGroup var dataset: DatasetOptions

  @Option(name: .long, help: "Output format: base, tsv, jsonl, text, 2gis or container.")
  var format: GeneratedFormat = .base

  @Option(
    name: .long, parsing: .unconditional, help: "container: regions the entries are split into.",
    transform: wholeNumber(in: 1...100_000))
  var regions: Int = 3

  @OptionGroup var shape: ContainerShapeOptions

  @Option(
    name: .long, help: "The file to write (replaced atomically).", completion: .file(),
    transform: nonEmptyPath)
  var out: String

  func validate() throws {
    guard (1...100_000).contains(regions) else {
      throw ValidationError("--regions must be from 1 to 100000, got \(regions)")
    }
  }

  /// The most entries a raw dump (`--format tsv`) takes: two billion, a national operator's
  /// database (Whoscall's is 2.6 billion numbers, split by country).
  static let maximumDumpEntries = 2_000_000_000

  func run() throws {
    Interruption.watch([URL(fileURLWithPath: out).deletingLastPathComponent().path])
    guard let outputFormat = format.datasetFormat else {
      let (_, parameters) = try dataset.resolve(defaultProfile: "ci-smoke")
      guard !FileManager.default.fileExists(atPath: out + "/" + "manifest.cdm") else {
        throw ValidationError("\(out) already holds a container; remove it or choose another --out")
      }
      let work = out + "/.work"
      let files = try TwoPhaseDataset(
        parameters: parameters, regions: regions,
        seedEntries: try shape.seedEntries.count(device: nil, seconds: 0),
        blockingEntries: shape.blockingEntries
      ).write(root: work, container: out, reuse: false) {
        StandardError.write(($0 + "\n"))
      }
      try? FileManager.default.removeItem(atPath: work)
      try? FileManager.default.removeItem(atPath: out + "/manifest.pristine")
      print(
        "\(files.container): \(regions) regions, seed set, blocking list and manifest; stage more with calldir app stage"
      )
      return
    }
    // A raw dump has no size limit (written in slices past the generator's own).
    let (name, parameters) = try dataset.resolve(
      defaultProfile: "ci-smoke",
      maximumEntries: outputFormat == .tsv ? Self.maximumDumpEntries : 100_000_000)
    let started = Date()
    let terminal = isatty(STDERR_FILENO) != 0
    var lastPercent = -1
    let progress: (Double) -> Void = { fraction in
      let percent = Int(fraction * 100)
      if terminal && percent != lastPercent {
        lastPercent = percent
        StandardError.write("\rwriting \(out): \(percent)%")
      }
    }
    do {
      if outputFormat == .tsv {
        try ChunkedDump.write(parameters, to: out, progress: progress)
      } else {
        try DatasetGenerator(parameters: parameters).write(
          outputFormat, to: out, progress: progress)
      }
    } catch {
      throw ValidationError("\(error)")
    }
    if terminal { StandardError.write("\n") }
    // A FIFO or a device written through has no size to report; its summary goes to stderr
    // when the output itself is stdout, so the bytes written stay the file's alone.
    let written =
      FolderCalls.regularFileByteCount(out).map { "\($0) bytes" } ?? "written through"
    let summary =
      "\(out): \(parameters.entries) entries (\(name)) as \(outputFormat.rawValue), \(written) in "
      + String(format: "%.1f s", Date().timeIntervalSince(started))
    if OutputTarget.standardDescriptor(out) == STDOUT_FILENO {
      StandardError.write(summary + "\n")
    } else {
      print(summary)
    }
  }
}
