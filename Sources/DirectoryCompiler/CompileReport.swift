import Foundation
import ProcessMetrics

/// What a compile did, for people and scripts.
public struct CompileReport: Sendable {
  public var linesRead = 0
  public var accepted = 0
  /// Rejected lines by reason, with the first few `file:line` places.
  package var rejected: [RejectionReason: (count: Int, places: [String])] = [:]
  public var duplicatesDropped = 0
  public var entriesPerRegion: [String: Int] = [:]
  public var seedEntries = 0
  /// How the seed set was chosen (`rank` or `spread`).
  public var seedChoice = SeedChoice.rank
  public var blockingEntries: [String: Int] = [:]
  /// Each rule base's rules, ranges, numbers and allowed numbers cut out of them.
  public var patternRules: [String: (rules: Int, ranges: Int, numbers: Int, allowedCut: Int)] =
    [:]
  /// Written files, relative to the output folder, with their sizes in bytes.
  public var outputs: [(file: String, bytes: Int)] = []
  public var inputBytes = 0
  /// `gzip -9` of the inputs, when measured.
  public var inputGzipBytes: Int?
  public var seconds = 0.0
  public var peakRSSBytes = 0
  public var sortRuns = 0
  /// Bytes of sort runs on disk when the reading ended (the most the sort holds there).
  public var temporaryBytes = 0
  /// Where they were written (a `.compile-PID` folder in it).
  public var temporaryFolder = ""
  /// Merge passes before the final merge (runs merged `ExternalSorter.maximumFanIn` at a time).
  public var mergePasses = 0

  /// How many places are kept per reason.
  static let placesPerReason = 5

  mutating func reject(_ reason: RejectionReason, place: String) {
    var entry = rejected[reason] ?? (0, [])
    entry.count += 1
    if entry.places.count < Self.placesPerReason { entry.places.append(place) }
    rejected[reason] = entry
  }

  public var rejectedCount: Int { rejected.values.reduce(0) { $0 + $1.count } }

  /// What was read and rejected: all a refused (`--strict`) run has to say, since it wrote
  /// nothing.
  public func renderReading() -> String {
    var lines = [
      "lines read: \(linesRead); accepted: \(accepted); rejected: \(rejectedCount)"
    ]
    for (reason, entry) in rejected.sorted(by: { $0.value.count > $1.value.count }) {
      lines.append(
        "  rejected \(entry.count) × \(reason) (first at \(entry.places.joined(separator: ", ")))")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The report as lines of text.
  public func render() -> String {
    var lines: [String] = []
    lines.append(
      "lines read: \(linesRead); accepted: \(accepted); rejected: \(rejectedCount); duplicates dropped: \(duplicatesDropped)"
    )
    for (reason, entry) in rejected.sorted(by: { $0.value.count > $1.value.count }) {
      lines.append(
        "  rejected \(entry.count) × \(reason) (first at \(entry.places.joined(separator: ", ")))")
    }
    let identification = entriesPerRegion.values.reduce(0, +)
    lines.append(
      "identification entries: \(identification) in \(entriesPerRegion.count) region bases; seed set: \(seedEntries) (\(seedChoice == .rank ? "top by rank" : "spread evenly: the inputs have no rank column")); blocking: \(blockingEntries.values.reduce(0, +))"
    )
    for (name, rules) in patternRules.sorted(by: { $0.key < $1.key }) {
      lines.append(
        "\(name): \(rules.rules) pattern \(rules.rules == 1 ? "rule" : "rules") in \(rules.ranges) \(rules.ranges == 1 ? "range" : "ranges"), \(rules.numbers) numbers\(rules.allowedCut > 0 ? " (\(rules.allowedCut) allowed numbers cut out)" : "")"
      )
    }
    for (region, count) in entriesPerRegion.sorted(by: { $0.key < $1.key }).prefix(12) {
      lines.append("  \(region): \(count)")
    }
    if entriesPerRegion.count > 12 {
      lines.append("  … and \(entriesPerRegion.count - 12) more regions")
    }
    let outputBytes = outputs.reduce(0) { $0 + $1.bytes }
    // Per distinct entry (identification and blocking); the seed set's bytes are counted in the
    // total although its entries repeat region entries.
    let entries = identification + blockingEntries.values.reduce(0, +)
    lines.append(
      "wrote \(outputs.count) \(outputs.count == 1 ? "file" : "files"), \(outputBytes) bytes; input \(inputBytes) bytes"
    )
    if entries > 0 {
      var sizes = String(
        format: "bytes per entry: bases %.2f, input %.2f", Double(outputBytes) / Double(entries),
        Double(inputBytes) / Double(entries))
      if let gzip = inputGzipBytes {
        sizes += String(
          format: ", input gzip -9 %.2f (%d bytes)", Double(gzip) / Double(entries), gzip)
      }
      lines.append(sizes)
    }
    lines.append(
      String(
        format:
          "time %.2f s, peak RSS %.1f MiB, sort runs %d, merge passes %d, temporary space %@ in %@",
        seconds, Double(peakRSSBytes) / 1_048_576, sortRuns, mergePasses,
        ByteCount.format(temporaryBytes), temporaryFolder))
    return lines.joined(separator: "\n") + "\n"
  }
}
