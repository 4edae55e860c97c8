import Datasets
import Foundation

/// A week's changes made to a raw dump, deterministically: each row is relabelled with
/// probability churn/2 (four times in five to a label seen earlier in the dump, else to a new
/// one), removed with probability churn/4, and followed by a new row (a nearby number, the same
/// region) with probability churn/4. Uniform over the rows, so each region changes in proportion
/// to its size, as a directory's weekly edits do.
enum ChurnedDump {
  /// Writes `source` churned by `churn` (0 to 1) to `destination`.
  /// - Throws: ``BenchError`` when a file cannot be read or written.
  static func write(from source: String, to destination: String, churn: Double, seed: UInt64)
    throws(BenchError)
  {
    guard let text = try? String(contentsOfFile: source, encoding: .utf8) else {
      throw BenchError("cannot read \(source)")
    }
    var random = SplitMix64(seed: seed ^ UInt64(churn * 1_000_000))
    var labels: [Substring] = []
    var out = ""
    out.reserveCapacity(text.utf8.count + text.utf8.count / 10)
    for (index, line) in text.split(separator: "\n").enumerated() {
      guard index > 0 else {
        out += line + "\n"
        continue
      }
      var fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count >= 2 else { continue }
      if labels.count < 4_096 {
        labels.append(fields[1])
      } else if unit(&random) < 0.01 {
        labels[Int(random.next() % UInt64(labels.count))] = fields[1]
      }
      let draw = unit(&random)
      if draw < churn / 2 {
        fields[1] =
          unit(&random) < 0.8
          ? labels[Int(random.next() % UInt64(labels.count))]
          : Substring("Обновлено \(random.next() % 1_000)")
      } else if draw < churn * 3 / 4 {
        continue  // removed
      }
      out += fields.joined(separator: "\t") + "\n"
      if unit(&random) < churn / 4 {
        // Added: the same row's region, a number near its own (other last four digits).
        var added = fields
        let number = String(fields[0])
        added[0] = Substring(
          String(number.dropLast(4)) + String(format: "%04d", random.next() % 10_000))
        added[1] = labels[Int(random.next() % UInt64(labels.count))]
        out += added.joined(separator: "\t") + "\n"
      }
    }
    do {
      try out.write(toFile: destination, atomically: true, encoding: .utf8)
    } catch {
      throw BenchError("cannot write \(destination): \(error)")
    }
  }
}

/// A uniform value in [0, 1) from `random`.
private func unit(_ random: inout SplitMix64) -> Double {
  Double(random.next() >> 11) / Double(1 << 53)
}
